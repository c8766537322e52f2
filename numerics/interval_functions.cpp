// The generic kernels on intervals (numerics/interval_functions.hpp); the argument is
// docs/derivations/interval_enclosure.md.
#include "numerics/interval_functions.hpp"

#include "numerics/symmetric_roots.hpp"

#include <Eigen/LU>

#include <stdexcept>

namespace thm {

namespace {

bool positive_midpoint(const mpfi_dynamic& x) { return midpoint(x) > 0; }

// [lo, hi] of the hull of {0} and x's positive part: ReLU over a box that contains 0.
mpfi_dynamic relu_hull(const mpfi_dynamic& x) { return make_interval(mpfr_dynamic(0), upper(x)); }

void require_square(const IMat& a, const char* who) {
  if (a.rows() != a.cols()) throw std::invalid_argument(std::string(who) + ": matrix is not square");
}

// Every entry widened by [-r, r].
IMat widened(const Mat<mpfr_dynamic>& centre, const mpfr_dynamic& r) {
  IMat out = to_interval(centre);
  const mpfi_dynamic ball = make_interval(mpfr_dynamic(-r), r);
  for (Eigen::Index j = 0; j < out.cols(); ++j)
    for (Eigen::Index i = 0; i < out.rows(); ++i) out(i, j) += ball;
  return out;
}

mpfr_dynamic frobenius_norm_upper(const Mat<mpfr_dynamic>& m) { return thm::frobenius_norm_upper(to_interval(m)); }

}  // namespace

template <>
Mat<mpfi_dynamic> product(const Mat<mpfi_dynamic>& a, const Mat<mpfi_dynamic>& b, Trans ta, Trans tb) {
  const bool at = ta == Trans::transpose, bt = tb == Trans::transpose;
  const Eigen::Index rows = at ? a.cols() : a.rows(), inner = at ? a.rows() : a.cols();
  const Eigen::Index cols = bt ? b.rows() : b.cols();
  if (inner != (bt ? b.cols() : b.rows())) throw std::invalid_argument("product: inner dimensions differ");
  Mat<mpfi_dynamic> c(rows, cols);
  mpfi_dynamic acc, term;  // reused: no temporaries
  for (Eigen::Index j = 0; j < cols; ++j)
    for (Eigen::Index i = 0; i < rows; ++i) {
      mpfi_set_si(acc.backend().data(), 0);
      for (Eigen::Index k = 0; k < inner; ++k) {
        const mpfi_dynamic& x = at ? a(k, i) : a(i, k);
        const mpfi_dynamic& y = bt ? b(j, k) : b(k, j);
        mpfi_mul(term.backend().data(), x.backend().data(), y.backend().data());
        mpfi_add(acc.backend().data(), acc.backend().data(), term.backend().data());
      }
      c(i, j) = acc;
    }
  return c;
}

template <>
Mat<mpfi_dynamic> softmax_rows(const Mat<mpfi_dynamic>& logits) {
  return interval_softmax_rows(logits);
}

template <>
mpfi_dynamic activate(Activation a, const mpfi_dynamic& x) {
  switch (a) {
    case Activation::softplus:  // log(1 + e^x) = x + log(1 + e^-x): either form is the same real function
      return positive_midpoint(x) ? mpfi_dynamic(x + log(mpfi_dynamic(1) + exp(mpfi_dynamic(-x))))
                                  : mpfi_dynamic(log(mpfi_dynamic(1) + exp(x)));
    case Activation::tanh:
      return tanh(x);
    case Activation::gelu: {  // numerics/activation.hpp's tanh form
      const mpfi_dynamic k = sqrt(mpfi_dynamic(2) / (mpfi_dynamic(4) * atan(mpfi_dynamic(1))));
      return mpfi_dynamic(mpfi_dynamic(0.5) * x * (mpfi_dynamic(1) + tanh(mpfi_dynamic(k * (x + mpfi_dynamic(mpfi_dynamic(44715) / mpfi_dynamic(1000000)) * x * x * x)))));
    }
    case Activation::relu:
      if (lower(x) >= 0) return x;
      if (upper(x) <= 0) return mpfi_dynamic(0);
      return relu_hull(x);
  }
  return x;
}

template <>
mpfi_dynamic activate_prime(Activation a, const mpfi_dynamic& x) {
  switch (a) {
    case Activation::softplus: {  // the logistic function, 1 / (1 + e^-x) = e^x / (1 + e^x)
      if (positive_midpoint(x)) return mpfi_dynamic(mpfi_dynamic(1) / (mpfi_dynamic(1) + exp(mpfi_dynamic(-x))));
      const mpfi_dynamic e = exp(x);
      return mpfi_dynamic(e / (mpfi_dynamic(1) + e));
    }
    case Activation::tanh: {
      const mpfi_dynamic t = tanh(x);
      return mpfi_dynamic(mpfi_dynamic(1) - t * t);
    }
    case Activation::gelu: {
      const mpfi_dynamic k = sqrt(mpfi_dynamic(2) / (mpfi_dynamic(4) * atan(mpfi_dynamic(1))));
      const mpfi_dynamic c = mpfi_dynamic(44715) / mpfi_dynamic(1000000);  // the exact decimal enclosed, not a double
      const mpfi_dynamic t = tanh(mpfi_dynamic(k * (x + c * x * x * x)));
      return mpfi_dynamic(mpfi_dynamic(0.5) * (mpfi_dynamic(1) + t) +
                          mpfi_dynamic(0.5) * x * (mpfi_dynamic(1) - t * t) * k * (mpfi_dynamic(1) + mpfi_dynamic(3) * c * x * x));
    }
    case Activation::relu:  // the a.e. derivative, [0, 1] on a box containing 0
      if (lower(x) > 0) return mpfi_dynamic(1);
      if (upper(x) < 0) return mpfi_dynamic(0);
      return make_interval(0.0, 1.0);
  }
  return mpfi_dynamic(1);
}

IMat enclose_inverse(const IMat& a) {
  require_square(a, "enclose_inverse");
  const Eigen::Index n = a.rows();
  if (n == 0) return IMat(0, 0);
  const Mat<mpfr_dynamic> mid = midpoint(a);
  const Mat<mpfr_dynamic> x = mid.partialPivLu().inverse();
  const IMat residual = IMat::Identity(n, n) - a * to_interval(x);
  const mpfr_dynamic r = frobenius_norm_upper(residual);
  if (!(r < 1)) throw std::runtime_error("approximate inverse too inaccurate to certify (||I - A X||_F >= 1)");
  // ||A^{-1} - X||_2 = ||X R (I - R)^{-1}||_2 <= ||X||_2 r / (1 - r); every entry is within the spectral norm.
  const mpfi_dynamic radius = mpfi_dynamic(frobenius_norm_upper(x)) * mpfi_dynamic(r) / (mpfi_dynamic(1) - mpfi_dynamic(r));
  return widened(x, upper(radius));
}

IntervalRoots enclose_spd_roots(const IMat& sigma) {
  require_square(sigma, "enclose_spd_roots");
  const Eigen::Index n = sigma.rows();
  IntervalRoots out;
  if (n == 0) return {IMat(0, 0), IMat(0, 0), IMat(0, 0)};
  Mat<mpfr_dynamic> mid = midpoint(sigma);
  mid = (mid + mid.transpose().eval()) / mpfr_dynamic(2);
  Mat<mpfr_dynamic> s;
  try {
    s = symmetric_roots(mid).sqrt;
  } catch (const std::domain_error& e) {
    throw std::runtime_error(std::string("no approximate square root to certify: ") + e.what());
  }
  s = (s + s.transpose().eval()) / mpfr_dynamic(2);
  const IMat si = to_interval(s);
  if (!certify_positive_definite(si)) throw std::runtime_error("approximate square root not certified positive definite");
  const SingularValueEnclosure sv = enclose_singular_values(si);  // = the eigenvalues of the SPD S
  const mpfr_dynamic lambda_min = lower(sv.sigma.back());
  if (!(lambda_min > 0)) throw std::runtime_error("approximate square root too close to singular to certify");
  const mpfr_dynamic e = frobenius_norm_upper(IMat(si * si - sigma));
  out.sqrt = widened(s, upper(mpfi_dynamic(mpfi_dynamic(e) / mpfi_dynamic(lambda_min))));
  out.inv_sqrt = enclose_inverse(out.sqrt);
  out.inv = enclose_inverse(sigma);
  return out;
}

IMat enclose_polar_factor(const IMat& o) {
  require_square(o, "enclose_polar_factor");
  return o * enclose_spd_roots(IMat(o.transpose() * o)).inv_sqrt;
}

}  // namespace thm
