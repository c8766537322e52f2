// Exact gradients of the [Q] model: the hand-written reverse mode agrees with Eigen's
// forward-mode AutoDiff at double and mp50, and with central finite differences at mp100 (step
// 1e-30) to at least 25 significant digits; every block, beta in {0, 0.5, 1}, every activation,
// L = 1 and 3. These tests are what lets every other [Q] claim trust the gradients.
#include "tests/support/mp50.hpp"
#include "numerics/models/qin/detail/transformer_impl.hpp"
#include "numerics/random.hpp"
#include "numerics/random_matrix.hpp"
#include "numerics/models/qin/model_instance.hpp"

#include <doctest/doctest.h>
#include <unsupported/Eigen/AutoDiff>

#include <cmath>

namespace Eigen {
// AutoDiff has no atan; the GELU constant sqrt(2/pi) uses atan(1).
template <class D>
AutoDiffScalar<typename internal::remove_all<D>::type::PlainObject> atan(const AutoDiffScalar<D>& x) {
  using std::atan;
  using Scalar = typename internal::traits<typename internal::remove_all<D>::type>::Scalar;
  return MakeAutoDiffScalar(atan(x.value()), x.derivatives() * (Scalar(1) / (Scalar(1) + x.value() * x.value())));
}
}  // namespace Eigen

using namespace thm;

namespace {

QModelSpec spec(int L, double beta, Activation act, std::uint64_t entropy) {
  QModelSpec s;
  s.n = 2;
  s.N = 3;
  s.d = 4;
  s.m = 5;
  s.d_y = 2;
  s.L = L;
  s.config.beta = beta;
  s.config.activation = act;
  s.attn_scale = 1.5;  // logits of order one: softmax far from uniform
  s.entropy = entropy;
  return s;
}

// A random direction supported on block `only` (or on all blocks when only < 0).
TransformerParams<double> direction(const TransformerParams<double>& p, Rng& rng, int only) {
  TransformerParams<double> v = p;
  for (std::size_t k = 0; k < v.block_count(); ++k) {
    MatD& b = v.block(k);
    b = (only < 0 || static_cast<std::size_t>(only) == k) ? gaussian_matrix(rng, b.rows(), b.cols()) : MatD::Zero(b.rows(), b.cols());
  }
  return v;
}

template <class Real>
using AD = Eigen::AutoDiffScalar<Eigen::Matrix<Real, 1, 1>>;

// d/dt L(theta + t v) at t = 0 by forward-mode AutoDiff.
template <class Real>
Real autodiff_directional(const QModel<double>& m, const TransformerParams<double>& v) {
  using A = AD<Real>;
  auto lift_ad = [](const MatD& value, const MatD& dir) {
    Mat<A> r(value.rows(), value.cols());
    for (Eigen::Index i = 0; i < value.size(); ++i) {
      r.data()[i].value() = Real(value.data()[i]);
      r.data()[i].derivatives() = Eigen::Matrix<Real, 1, 1>::Constant(Real(dir.data()[i]));
    }
    return r;
  };
  TransformerParams<A> p;
  for (std::size_t l = 0; l < m.params.blocks.size(); ++l)
    p.blocks.push_back({Mat<A>(), Mat<A>(), Mat<A>(), Mat<A>(), Mat<A>()});
  for (std::size_t k = 0; k < m.params.block_count(); ++k) p.block(k) = lift_ad(m.params.block(k), v.block(k));
  std::vector<Mat<A>> X, Y;
  for (const MatD& x : m.X) X.push_back(lift_ad(x, MatD::Zero(x.rows(), x.cols())));
  for (const MatD& y : m.Y) Y.push_back(lift_ad(y, MatD::Zero(y.rows(), y.cols())));
  return transformer_loss<A>(p, m.config, X, Y).derivatives()(0);
}

template <class T>
TransformerParams<T> lift_params(const TransformerParams<double>& p) {
  TransformerParams<T> r;
  for (const auto& b : p.blocks) r.blocks.push_back({lift<T>(b.W_Q), lift<T>(b.W_K), lift<T>(b.W_V), lift<T>(b.W_1), lift<T>(b.W_2)});
  r.W_U = lift<T>(p.W_U);
  return r;
}

template <class T>
std::vector<Mat<T>> lift_all(const std::vector<MatD>& xs) {
  std::vector<Mat<T>> r;
  for (const MatD& x : xs) r.push_back(lift<T>(x));
  return r;
}

// <grad L(theta), v> from the hand-written reverse mode at precision T.
template <class T>
T reverse_directional(const QModel<double>& m, const TransformerParams<double>& v) {
  const TransformerParams<T> g = transformer_gradient<T>(lift_params<T>(m.params), m.config, lift_all<T>(m.X), lift_all<T>(m.Y));
  return params_dot<T>(g, lift_params<T>(v));
}

template <class Real>
void check_against_autodiff(double tolerance) {
  int checks = 0;
  for (int L : {1, 3})
    for (double beta : {0.0, 0.5, 1.0})
      for (Activation act : {Activation::softplus, Activation::tanh, Activation::gelu, Activation::relu}) {
        const QModel<double> m = qin_model_double(build_qin_model(spec(L, beta, act, 1000 + L)));
        Rng rng(7 + L);
        for (int only = -1; only < static_cast<int>(m.params.block_count()); ++only) {
          const TransformerParams<double> v = direction(m.params, rng, only);
          const Real ad = autodiff_directional<Real>(m, v);
          const Real rev = reverse_directional<Real>(m, v);
          using std::abs;
          const double rel = to_double(Real(abs(Real(ad - rev)) / std::max<Real>(abs(ad), Real(1e-300))));
          INFO("L=" << L << " beta=" << beta << " " << activation_name(act) << " block "
                    << (only < 0 ? std::string("all") : transformer_block_names(L)[only]) << ": autodiff "
                    << exact_decimal(ad) << ", reverse " << exact_decimal(rev) << ", rel " << rel);
          CHECK(rel < tolerance);
          ++checks;
        }
      }
  CHECK(checks == 3 * 4 * (1 + 6) + 3 * 4 * (1 + 16));  // every direction of every configuration
}

}  // namespace

TEST_CASE("gradients qin.model: reverse mode equals AutoDiff at double (1e-10 relative)") { check_against_autodiff<double>(1e-10); }

TEST_CASE("gradients qin.model: reverse mode equals AutoDiff at mp50 (1e-40 relative)") { check_against_autodiff<mp50>(1e-40); }

TEST_CASE("gradients qin.model: reverse mode equals central differences at mp100 (step 1e-30, >= 25 digits)") {
  const DigitsGuard at100(mp100_digits);  // the mp100 rung: mpfr_dynamic at 100 digits
  const mpfr_dynamic h("1e-30");
  int checks = 0;
  double worst = 0;
  for (int L : {1, 3})
    for (double beta : {0.0, 0.5, 1.0})
      for (Activation act : {Activation::softplus, Activation::tanh, Activation::gelu, Activation::relu}) {
        const QModel<double> m = qin_model_double(build_qin_model(spec(L, beta, act, 2000 + L)));
        const TransformerParams<mpfr_dynamic> p = lift_params<mpfr_dynamic>(m.params);
        const auto X = lift_all<mpfr_dynamic>(m.X), Y = lift_all<mpfr_dynamic>(m.Y);
        const TransformerParams<mpfr_dynamic> g = transformer_gradient<mpfr_dynamic>(p, m.config, X, Y);
        Rng rng(31 + L);
        for (int only = -1; only < static_cast<int>(m.params.block_count()); ++only) {
          const TransformerParams<mpfr_dynamic> v = lift_params<mpfr_dynamic>(direction(m.params, rng, only));
          const mpfr_dynamic fd = (transformer_loss<mpfr_dynamic>(params_axpy<mpfr_dynamic>(p, h, v), m.config, X, Y) -
                            transformer_loss<mpfr_dynamic>(params_axpy<mpfr_dynamic>(p, mpfr_dynamic(-h), v), m.config, X, Y)) /
                           (2 * h);
          const mpfr_dynamic rev = params_dot<mpfr_dynamic>(g, v);
          const double rel = to_double(mpfr_dynamic(abs(mpfr_dynamic(fd - rev)) / abs(rev)));
          worst = std::max(worst, rel);
          INFO("L=" << L << " beta=" << beta << " " << activation_name(act) << " direction " << only << ": fd "
                    << exact_decimal(fd) << ", reverse " << exact_decimal(rev));
          CHECK(rel < 1e-25);
          ++checks;
        }
      }
  MESSAGE("worst relative disagreement with central differences at mp100: " << worst);
  CHECK(checks == 3 * 4 * (1 + 6) + 3 * 4 * (1 + 16));
}

TEST_CASE("gradients qin.model: loss from the trace equals the loss function and shapes are checked") {
  const QModel<double> m = qin_model_double(build_qin_model(spec(3, 0.5, Activation::gelu, 9)));
  const TransformerTrace<double> tr = transformer_forward(m.params, m.config, m.X, m.Y);
  double loss = 0;
  transformer_gradient(m.params, m.config, m.X, m.Y, &loss);
  CHECK(tr.loss == transformer_loss(m.params, m.config, m.X, m.Y));
  CHECK(loss == doctest::Approx(tr.loss).epsilon(1e-14));
  CHECK(tr.V.size() == 3);
  CHECK(tr.H[2].size() == m.X.size());
  std::vector<MatD> bad_y = m.Y;
  bad_y[0] = MatD::Zero(1, 1);
  CHECK_THROWS_AS(transformer_loss(m.params, m.config, m.X, bad_y), std::invalid_argument);
}
