// Interval certification (MPFI): rigorous enclosures of the singular values, of positive
// definiteness and of the row softmax of *every* real matrix inside an interval matrix.
//
// Method (docs/derivations/interval_enclosure.md): an approximate factorization in mpfr_dynamic
// (Eigen pivots and compares there, never on intervals), then the factorization's residual and its
// factors' loss of orthogonality enclosed in interval arithmetic, then Weyl's inequality.
//
// Pitfalls (Boost 1.81 mpfi.hpp, eigen.hpp): comparing two overlapping intervals throws
// interval_error ("Ambiguous comparison") from inside a noexcept compare(), i.e. std::terminate:
// the process aborts, nothing can catch it. So no Eigen routine that pivots, sorts, compares or
// thresholds runs on IMat. Products, sums, transposes and Zero/Identity are safe; decompositions,
// isApprox and stableNorm are not: NumTraits<mpfi_dynamic>::epsilon() is the mpfr component's (a
// point), so such code compiles and aborts at run time; compare endpoints instead. convert_to<double>()
// returns the *midpoint* (mpfi_get_d), never a bound; Boost's lower()/upper() are round-to-nearest
// copies at the interval's own precision, so the endpoints below round outward explicitly.
#pragma once

#include "numerics/eigen_types.hpp"

#include <boost/multiprecision/mpfi.hpp>

#include <vector>

namespace thm {

// Closed intervals [lo, hi] with MPFR endpoints; precision chosen at run time, in decimal digits.
using mpfi_dynamic = bmp::number<bmp::mpfi_float_backend<0>, bmp::et_off>;
using IMat = Mat<mpfi_dynamic>;
using IVec = Vec<mpfi_dynamic>;

// Sets the calling thread's default precision of both mpfi_dynamic and mpfr_dynamic to `digits` decimal digits
// (never the global default, which other threads read: docs/spec/pitfalls.md, "Default precision"), so the runner's
// workers may certify cases side by side; the destructor restores both. digits >= 1.
class IntervalPrecision {
 public:
  explicit IntervalPrecision(unsigned digits);
  ~IntervalPrecision();
  IntervalPrecision(const IntervalPrecision&) = delete;
  IntervalPrecision& operator=(const IntervalPrecision&) = delete;

 private:
  unsigned interval_thread_, real_thread_;
};

// Point intervals. From double: exact at >= 16 digits (53 bits), outward-rounded below that.
// From mpfr_dynamic: exact (the interval takes the value's own precision, Boost's default
// preserve_related_precision; under another precision option it is rounded outward).
IMat to_interval(const MatD& m);
IMat to_interval(const Mat<mpfr_dynamic>& m);
// [lo, hi], endpoints rounded outward to the interval precision; throws std::invalid_argument if lo > hi.
mpfi_dynamic make_interval(const mpfr_dynamic& lo, const mpfr_dynamic& hi);
mpfi_dynamic make_interval(double lo, double hi);

// Endpoints at mpfr_dynamic's working precision, rounded outward (lower down, upper up), so
// [lower(x), upper(x)] always contains x; and the same as doubles (for display).
mpfr_dynamic lower(const mpfi_dynamic& x);
mpfr_dynamic upper(const mpfi_dynamic& x);
double lower_double(const mpfi_dynamic& x);
double upper_double(const mpfi_dynamic& x);
// upper - lower, rounded up.
mpfr_dynamic width(const mpfi_dynamic& x);
double width_double(const mpfi_dynamic& x);
// A midpoint (rounded to nearest; an approximation, not a bound).
mpfr_dynamic midpoint(const mpfi_dynamic& x);
Mat<mpfr_dynamic> midpoint(const IMat& m);
// v in x (exact comparison, any precision).
bool contains(const mpfi_dynamic& x, double v);
bool contains(const mpfi_dynamic& x, const mpfr_dynamic& v);

// ||M||_F^2 over the box, each entry squared as a square (mpfi_sqr: never below 0, unlike x * x over a box containing 0).
mpfi_dynamic squared_frobenius(const IMat& m);
// x intersected with [0, +inf): for a quantity known to be >= 0 in exact arithmetic (a sum of squares computed with
// cancellation), so that sqrt stays defined. Throws std::invalid_argument when x lies wholly below 0.
mpfi_dynamic nonnegative_part(const mpfi_dynamic& x);

// An upper bound of ||M||_F for every real M in m (rounded up to mpfr_dynamic's precision).
mpfr_dynamic frobenius_norm_upper(const IMat& m);

struct SingularValueEnclosure {
  // sigma[i] contains sigma_{i+1}(A) for every real A in the box, i < min(m, n); descending.
  std::vector<mpfi_dynamic> sigma;
  // The certificate's ingredients (upper bounds): r >= ||A - U S V^T||_F over the box,
  // e_u >= ||U^T U - I||_F, e_v >= ||V^T V - I||_F.
  mpfr_dynamic residual, orthogonality_u, orthogonality_v;
};

// Every singular value of every real matrix in the m x n interval matrix `a` (any shape), at the
// current mpfi_dynamic precision. Throws std::invalid_argument for an unbounded entry and
// std::runtime_error("approximate SVD too inaccurate to certify") if e_u or e_v is not below 1.
SingularValueEnclosure enclose_singular_values(const IMat& a);
// sigma_1 = ||A||_2 over the box (an empty matrix gives [0, 0]).
mpfi_dynamic enclose_spectral_norm(const IMat& a);

// True only if x^T S x > 0 for every x != 0 and every real S in the square interval matrix `s`
// (in particular: every symmetric S in the box is positive definite). False means "not proved".
bool certify_positive_definite(const IMat& s);

// Encloses softmax_rows(K) for every real K in `k`: exp(K_jl - c_j) / sum_m exp(K_jm - c_j), with
// c_j the largest midpoint of row j (subtracting a constant per row leaves the softmax unchanged
// in real arithmetic), each entry intersected with [0, 1]. An entry exactly -inf (a masked key) weighs 0. Throws for
// any other unbounded entry, and for a row with every key masked.
IMat interval_softmax_rows(const IMat& k);

}  // namespace thm
