// The interval-certification layer: MPFI endpoints are read and written through the C API with
// explicit rounding directions (Boost's lower()/upper() round to nearest into their result); the
// approximate factorizations are Eigen's, in mpfr_dynamic, at the interval precision.
// The argument is docs/derivations/interval_enclosure.md.
#include "numerics/interval.hpp"
#include "numerics/numerical_failure.hpp"

#include <Eigen/Cholesky>
#include <Eigen/SVD>

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace thm {

namespace {

// mpfr_dynamic's thread precision set to the interval precision for one computation.
class RealDigits {
 public:
  explicit RealDigits(unsigned digits) : saved_(mpfr_dynamic::thread_default_precision()) {
    mpfr_dynamic::thread_default_precision(digits);
  }
  ~RealDigits() { mpfr_dynamic::thread_default_precision(saved_); }
  RealDigits(const RealDigits&) = delete;
  RealDigits& operator=(const RealDigits&) = delete;

 private:
  unsigned saved_;
};

// The point interval [v, v], exactly: the interval takes v's precision whatever Boost's options.
mpfi_dynamic point(const mpfr_dynamic& v) {
  mpfi_dynamic x;
  mpfi_set_prec(x.backend().data(), mpfr_get_prec(v.backend().data()));
  mpfi_set_fr(x.backend().data(), v.backend().data());
  return x;
}

bool bounded(const mpfi_dynamic& x) {
  return mpfi_bounded_p(x.backend().data()) != 0 && mpfi_nan_p(x.backend().data()) == 0;
}

void require_bounded(const IMat& m, const char* who) {
  for (Eigen::Index j = 0; j < m.cols(); ++j)
    for (Eigen::Index i = 0; i < m.rows(); ++i)
      if (!bounded(m(i, j))) throw std::invalid_argument(std::string(who) + ": unbounded or NaN interval entry");
}

}  // namespace

IntervalPrecision::IntervalPrecision(unsigned digits)
    : interval_thread_(mpfi_dynamic::thread_default_precision()), real_thread_(mpfr_dynamic::thread_default_precision()) {
  if (digits == 0) throw std::invalid_argument("IntervalPrecision: digits must be positive");
  mpfi_dynamic::thread_default_precision(digits);
  mpfr_dynamic::thread_default_precision(digits);
}

IntervalPrecision::~IntervalPrecision() {
  mpfi_dynamic::thread_default_precision(interval_thread_);
  mpfr_dynamic::thread_default_precision(real_thread_);
}

IMat to_interval(const MatD& m) {
  IMat r(m.rows(), m.cols());
  for (Eigen::Index j = 0; j < m.cols(); ++j)
    for (Eigen::Index i = 0; i < m.rows(); ++i) mpfi_set_d(r(i, j).backend().data(), m(i, j));  // outward
  return r;
}

IMat to_interval(const Mat<mpfr_dynamic>& m) {
  IMat r(m.rows(), m.cols());
  for (Eigen::Index j = 0; j < m.cols(); ++j)
    for (Eigen::Index i = 0; i < m.rows(); ++i) r(i, j) = point(m(i, j));
  return r;
}

mpfi_dynamic make_interval(const mpfr_dynamic& lo, const mpfr_dynamic& hi) {
  if (!(lo <= hi)) throw std::invalid_argument("make_interval: lower end above upper end (or NaN)");
  mpfi_dynamic x;
  mpfi_interv_fr(x.backend().data(), lo.backend().data(), hi.backend().data());
  return x;
}

mpfi_dynamic make_interval(double lo, double hi) {
  if (!(lo <= hi)) throw std::invalid_argument("make_interval: lower end above upper end (or NaN)");
  mpfi_dynamic x;
  mpfi_interv_d(x.backend().data(), lo, hi);
  return x;
}

mpfr_dynamic lower(const mpfi_dynamic& x) {
  mpfr_dynamic r;
  mpfr_set(r.backend().data(), x.backend().left_data(), MPFR_RNDD);
  return r;
}

mpfr_dynamic upper(const mpfi_dynamic& x) {
  mpfr_dynamic r;
  mpfr_set(r.backend().data(), x.backend().right_data(), MPFR_RNDU);
  return r;
}

double lower_double(const mpfi_dynamic& x) { return mpfr_get_d(x.backend().left_data(), MPFR_RNDD); }
double upper_double(const mpfi_dynamic& x) { return mpfr_get_d(x.backend().right_data(), MPFR_RNDU); }

mpfr_dynamic width(const mpfi_dynamic& x) {
  mpfr_dynamic r;
  mpfr_sub(r.backend().data(), x.backend().right_data(), x.backend().left_data(), MPFR_RNDU);
  return r;
}

double width_double(const mpfi_dynamic& x) { return mpfr_get_d(width(x).backend().data(), MPFR_RNDU); }

mpfr_dynamic midpoint(const mpfi_dynamic& x) {
  mpfr_dynamic r;
  mpfi_mid(r.backend().data(), x.backend().data());
  return r;
}

Mat<mpfr_dynamic> midpoint(const IMat& m) {
  Mat<mpfr_dynamic> r(m.rows(), m.cols());
  for (Eigen::Index j = 0; j < m.cols(); ++j)
    for (Eigen::Index i = 0; i < m.rows(); ++i) r(i, j) = midpoint(m(i, j));
  return r;
}

bool contains(const mpfi_dynamic& x, double v) { return mpfi_is_inside_d(v, x.backend().data()) != 0; }
bool contains(const mpfi_dynamic& x, const mpfr_dynamic& v) {
  return mpfi_is_inside_fr(v.backend().data(), x.backend().data()) != 0;
}

// sum M_ij^2 in intervals; mpfi_sqr squares each entry as a square, [a^2, b^2] for 0 <= a <= b, and [0, max^2] across 0.
mpfi_dynamic squared_frobenius(const IMat& m) {
  mpfi_dynamic sum(0), sq;
  for (Eigen::Index j = 0; j < m.cols(); ++j)
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
      mpfi_sqr(sq.backend().data(), m(i, j).backend().data());
      sum += sq;
    }
  return sum;
}

mpfi_dynamic nonnegative_part(const mpfi_dynamic& x) {
  if (upper(x) < 0) throw std::invalid_argument("nonnegative_part: the interval lies below 0");
  if (lower(x) >= 0) return x;
  return make_interval(mpfr_dynamic(0), upper(x));
}

mpfr_dynamic frobenius_norm_upper(const IMat& m) { return upper(mpfi_dynamic(sqrt(squared_frobenius(m)))); }

// A = B + R with B = U S V^T (U, S, V exact mpfr matrices from an approximate SVD of mid(A)).
//   Weyl:              |sigma_i(A) - sigma_i(B)| <= ||R||_2 <= ||R||_F <= r.
//   Factors (square):  sigma_min(U) s_i sigma_min(V) <= sigma_i(B) <= ||U||_2 s_i ||V||_2.
//   Gram:              sigma(U)^2 = lambda(I + E_U) in [1 - ||E_U||_2, 1 + ||E_U||_2], ||E_U||_2 <= e_U < 1.
// Every quantity is an interval evaluation, so the bound holds for the exact real numbers.
SingularValueEnclosure enclose_singular_values(const IMat& a) {
  require_bounded(a, "enclose_singular_values");
  const Eigen::Index m = a.rows(), n = a.cols(), p = std::min(m, n);
  SingularValueEnclosure out;
  const RealDigits same(mpfi_dynamic::thread_default_precision());
  out.residual = out.orthogonality_u = out.orthogonality_v = mpfr_dynamic(0);
  if (p == 0) return out;

  // The approximation: pivots and comparisons happen here, in mpfr, never on intervals.
  const Eigen::JacobiSVD<Mat<mpfr_dynamic>> svd(midpoint(a), Eigen::ComputeFullU | Eigen::ComputeFullV);
  if (svd.info() != Eigen::Success) throw NumericalFailure("enclose_singular_values: the approximate SVD did not converge");
  const Vec<mpfr_dynamic>& s = svd.singularValues();
  const IMat u = to_interval(svd.matrixU()), v = to_interval(svd.matrixV());
  IMat smat = IMat::Zero(m, n);
  for (Eigen::Index k = 0; k < p; ++k) smat(k, k) = point(s(k));

  const IMat residual = a - u * smat * v.transpose();
  out.residual = frobenius_norm_upper(residual);
  out.orthogonality_u = frobenius_norm_upper(IMat(u.transpose() * u - IMat::Identity(m, m)));
  out.orthogonality_v = frobenius_norm_upper(IMat(v.transpose() * v - IMat::Identity(n, n)));
  if (!(out.orthogonality_u < 1) || !(out.orthogonality_v < 1) || !mpfr_number_p(out.residual.backend().data()))
    throw std::runtime_error("approximate SVD too inaccurate to certify");

  // sigma_i(S): the |s_k| in decreasing order (Eigen already returns them so; sorting is free).
  std::vector<mpfr_dynamic> sv(s.data(), s.data() + p);
  for (auto& x : sv) x = abs(x);
  std::sort(sv.begin(), sv.end(), std::greater<>());

  const mpfi_dynamic one(1), r = point(out.residual), eu = point(out.orthogonality_u),
                     ev = point(out.orthogonality_v);
  const mpfi_dynamic shrink = sqrt(mpfi_dynamic((one - eu) * (one - ev)));
  const mpfi_dynamic grow = sqrt(mpfi_dynamic((one + eu) * (one + ev)));
  out.sigma.reserve(p);
  for (Eigen::Index k = 0; k < p; ++k) {
    const mpfi_dynamic sk = point(sv[k]);
    mpfr_dynamic lo = lower(mpfi_dynamic(sk * shrink - r));
    if (lo < 0) lo = 0;  // singular values are nonnegative
    out.sigma.push_back(make_interval(lo, upper(mpfi_dynamic(sk * grow + r))));
  }
  return out;
}

mpfi_dynamic enclose_spectral_norm(const IMat& a) {
  const SingularValueEnclosure e = enclose_singular_values(a);
  return e.sigma.empty() ? mpfi_dynamic(0) : e.sigma.front();
}

// L from an mpfr Cholesky of the symmetrized midpoint; R = S - L L^T in intervals, r >= ||R||_F.
// For any real S in the box and x != 0, with M = (S + S^T)/2:
//   x^T S x = x^T M x,  ||M - L L^T||_2 <= (||S - L L^T||_2 + ||S^T - L L^T||_2)/2 <= r,
// and by Weyl for symmetric matrices lambda_min(M) >= lambda_min(L L^T) - r = sigma_min(L)^2 - r.
// So sigma_min(L)^2 > r (with sigma_min(L) bounded below by the enclosure above) proves x^T S x > 0.
bool certify_positive_definite(const IMat& s) {
  if (s.rows() != s.cols()) throw std::invalid_argument("certify_positive_definite: matrix is not square");
  if (s.size() == 0) return true;  // vacuously
  for (Eigen::Index j = 0; j < s.cols(); ++j)
    for (Eigen::Index i = 0; i < s.rows(); ++i)
      if (!bounded(s(i, j))) return false;
  const RealDigits same(mpfi_dynamic::thread_default_precision());

  const Mat<mpfr_dynamic> mid = midpoint(s);
  const Mat<mpfr_dynamic> sym = (mid + mid.transpose()) / mpfr_dynamic(2);
  const Eigen::LLT<Mat<mpfr_dynamic>> llt(sym);
  if (llt.info() != Eigen::Success) return false;  // mid(S) not numerically PD: nothing to certify
  const IMat l = to_interval(Mat<mpfr_dynamic>(llt.matrixL()));

  const mpfi_dynamic r = point(frobenius_norm_upper(IMat(s - l * l.transpose())));
  SingularValueEnclosure sl;
  try {
    sl = enclose_singular_values(l);
  } catch (const std::runtime_error&) {
    return false;
  }
  const mpfi_dynamic sigma_min_low = point(lower(sl.sigma.back()));
  return lower(mpfi_dynamic(sigma_min_low * sigma_min_low - r)) > 0;
}

IMat interval_softmax_rows(const IMat& k) {
  // An entry that is exactly -inf (a masked key) weighs exp(-inf) = 0; every other entry must be bounded.
  const auto masked = [](const mpfi_dynamic& x) {
    const mpfr_srcptr hi = &x.backend().data()->right;
    return mpfr_inf_p(hi) != 0 && mpfr_sgn(hi) < 0;
  };
  for (Eigen::Index j = 0; j < k.cols(); ++j)
    for (Eigen::Index i = 0; i < k.rows(); ++i)
      if (!masked(k(i, j)) && !bounded(k(i, j))) throw std::invalid_argument("interval_softmax_rows: unbounded or NaN interval entry");
  const RealDigits same(mpfi_dynamic::thread_default_precision());
  const mpfi_dynamic unit = make_interval(0.0, 1.0);
  IMat out(k.rows(), k.cols());
  IVec e(k.cols());
  for (Eigen::Index j = 0; j < k.rows(); ++j) {
    bool any = false;
    mpfr_dynamic c(0);  // any constant would do; the largest midpoint avoids overflow
    for (Eigen::Index l = 0; l < k.cols(); ++l)
      if (!masked(k(j, l))) {
        c = any ? std::max(c, midpoint(k(j, l))) : midpoint(k(j, l));
        any = true;
      }
    if (!any && k.cols() > 0) throw std::invalid_argument("interval_softmax_rows: a row with every key masked");
    const mpfi_dynamic ci = point(c);
    mpfi_dynamic total(0);
    for (Eigen::Index l = 0; l < k.cols(); ++l) {
      e(l) = masked(k(j, l)) ? mpfi_dynamic(0) : mpfi_dynamic(exp(mpfi_dynamic(k(j, l) - ci)));
      total += e(l);
    }
    for (Eigen::Index l = 0; l < k.cols(); ++l) out(j, l) = bmp::intersect(mpfi_dynamic(e(l) / total), unit);
  }
  return out;
}

}  // namespace thm
