// The interval kernels the certificates are built from (numerics/interval_functions.hpp,
// numerics/models/qin/transformer_interval.hpp): the inverse, the symmetric roots and the polar factor, the
// activations and the [Q] transformer's loss and exact gradient on intervals each contain their reference computed at
// many more digits; an enclosure narrowed on purpose misses it (the comparison can fail); boxes contain their samples.
// References are computed and compared inside their own precision scope, so no copy rounds them.
#include "numerics/interval_functions.hpp"
#include "numerics/models/goel/attention_regression_interval.hpp"
#include "numerics/models/qin/transformer_interval.hpp"
#include "numerics/random.hpp"
#include "numerics/random_matrix.hpp"
#include "numerics/scalar.hpp"
#include "numerics/symmetric_roots.hpp"

#include <doctest/doctest.h>

#include <Eigen/LU>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

using namespace thm;

namespace {

// Every entry of `enclosure` contains the matching entry of `reference`.
bool contains_all(const IMat& enclosure, const Mat<mpfr_dynamic>& reference) {
  if (enclosure.rows() != reference.rows() || enclosure.cols() != reference.cols()) return false;
  for (Eigen::Index i = 0; i < enclosure.size(); ++i)
    if (!contains(enclosure(i), reference(i))) return false;
  return true;
}

// The enclosure with its first entry shrunk to its midpoint: a deliberately wrong (too narrow) enclosure.
IMat narrowed(IMat m) {
  m(0) = mpfi_dynamic(midpoint(m(0)));
  return m;
}

MatD spd(Rng& rng, int n, double kappa) {
  const MatD q = random_orthogonal(rng, n);
  VecD l(n);
  for (int i = 0; i < n; ++i) l(i) = std::pow(kappa, double(i) / std::max(1, n - 1));
  MatD s = q * l.asDiagonal() * q.transpose();
  return (s + s.transpose()) / 2;  // exactly symmetric
}

}  // namespace

TEST_CASE("interval models: inverse, symmetric roots and polar factor contain their 1000-digit references, a narrowed one does not") {
  for (std::uint64_t seed : {11u, 12u, 13u}) {
    Rng rng(seed);
    const int n = 2 + static_cast<int>(seed % 4);
    const MatD sigma = spd(rng, n, 50.0), g = gaussian_matrix(rng, n, n), o = gaussian_matrix(rng, n, n);
    IMat inv, root, inv_root, sig_inv, polar;
    {
      const IntervalPrecision guard(40);
      inv = enclose_inverse(to_interval(g));
      const IntervalRoots r = enclose_spd_roots(to_interval(sigma));
      root = r.sqrt;
      inv_root = r.inv_sqrt;
      sig_inv = r.inv;
      polar = enclose_polar_factor(to_interval(o));
      CHECK(width_double(root(0)) < 1e-30);
      CHECK(width_double(polar(0)) < 1e-30);
    }
    const IntervalPrecision guard(1000);
    const Mat<mpfr_dynamic> G = lift<mpfr_dynamic>(g), S = lift<mpfr_dynamic>(sigma), O = lift<mpfr_dynamic>(o);
    const SymmetricRoots<mpfr_dynamic> ref = symmetric_roots(S);
    const Mat<mpfr_dynamic> Ginv = G.partialPivLu().inverse();
    const Mat<mpfr_dynamic> OtO_inv_sqrt = symmetric_roots(Mat<mpfr_dynamic>(O.transpose() * O)).inv_sqrt;
    const Mat<mpfr_dynamic> P = O * OtO_inv_sqrt;
    INFO("seed " << seed << ", n = " << n);
    CHECK(contains_all(inv, Ginv));
    CHECK(contains_all(root, ref.sqrt));
    CHECK(contains_all(inv_root, ref.inv_sqrt));
    CHECK(contains_all(sig_inv, ref.inv));
    CHECK(contains_all(polar, P));
    CHECK_FALSE(contains_all(narrowed(root), ref.sqrt));
    CHECK_FALSE(contains_all(narrowed(inv), Ginv));
  }
  const IntervalPrecision guard(30);
  CHECK_THROWS_AS(enclose_inverse(to_interval(MatD(MatD::Zero(3, 3)))), std::runtime_error);
  CHECK_THROWS_AS(enclose_spd_roots(to_interval(MatD(MatD::Identity(2, 2) * -1.0))), std::runtime_error);
  CHECK_THROWS_AS(enclose_inverse(to_interval(MatD(MatD::Ones(2, 3)))), std::invalid_argument);
}

TEST_CASE("interval models: every activation and its derivative enclose the 1000-digit values at points and every sample of a box") {
  Rng rng(31);
  for (Activation a : {Activation::softplus, Activation::tanh, Activation::gelu, Activation::relu})
    for (double x : {-30.0, -2.5, -1e-3, 0.0, 1e-3, 0.7, 4.0, 30.0}) {
      mpfi_dynamic v, d, box_v, box_d;
      const double rad = 0.05;
      {
        const IntervalPrecision guard(40);
        v = activate(a, mpfi_dynamic(x));
        d = activate_prime(a, mpfi_dynamic(x));
        box_v = activate(a, make_interval(x - rad, x + rad));
        box_d = activate_prime(a, make_interval(x - rad, x + rad));
      }
      const IntervalPrecision guard(1000);
      INFO(activation_name(a) << " at " << x);
      CHECK(contains(v, activate(a, mpfr_dynamic(x))));
      if (a != Activation::relu || x != 0.0) CHECK(contains(d, activate_prime(a, mpfr_dynamic(x))));
      CHECK(width_double(v) < 1e-30);
      for (int t = 0; t < 10; ++t) {
        const mpfr_dynamic p(x + rng.uniform(-rad, rad));
        CHECK(contains(box_v, activate(a, p)));
        CHECK(contains(box_d, activate_prime(a, p)));
      }
    }
}

TEST_CASE("interval models: the [Q] transformer's loss, trace and exact gradient on intervals contain their 1000-digit values") {
  for (int L : {1, 2})
    for (Activation act : {Activation::softplus, Activation::gelu, Activation::tanh}) {
      QModelSpec s;
      s.n = 2;
      s.N = 3;
      s.d = 5;
      s.m = 4;
      s.d_y = 2;
      s.L = L;
      s.config.activation = act;
      s.config.beta = 0.5;
      s.entropy = 900 + static_cast<std::uint64_t>(L) * 10 + static_cast<std::uint64_t>(act);
      const Instance inst = build_qin_model(s);
      mpfi_dynamic loss;
      TransformerParams<mpfi_dynamic> g;
      IMat H;
      {
        const IntervalPrecision guard(40);
        const QModel<mpfi_dynamic> q = interval_qin_model(inst);
        g = transformer_gradient(q.params, q.config, q.X, q.Y, &loss);
        H = stack_rows(transformer_forward(q.params, q.config, q.X, q.Y).H.back());
        CHECK(width_double(loss) < 1e-25 * (1 + upper_double(loss)));
      }
      const DigitsGuard guard(1000);
      const QModel<mpfr_dynamic> q = lift_qin_model<mpfr_dynamic>(inst);
      mpfr_dynamic ref_loss;
      const TransformerParams<mpfr_dynamic> ref = transformer_gradient(q.params, q.config, q.X, q.Y, &ref_loss);
      INFO("L = " << L << ", " << activation_name(act));
      CHECK(contains(loss, ref_loss));
      CHECK(contains_all(H, stack_rows(transformer_forward(q.params, q.config, q.X, q.Y).H.back())));
      for (std::size_t k = 0; k < ref.block_count(); ++k) {
        INFO("block " << k);
        CHECK(contains_all(g.block(k), ref.block(k)));
      }
      CHECK_FALSE(contains_all(narrowed(g.W_U), ref.W_U));
    }
}

TEST_CASE("interval models: a masked key (-inf logit) weighs exactly 0 in the interval softmax, and a row of masked keys is refused") {
  const IntervalPrecision guard(40);
  IMat k = to_interval(MatD((MatD(2, 3) << 0.5, -1.0, 2.0, 1.0, 0.0, -3.0).finished()));
  k(0, 1) = mpfi_dynamic(-std::numeric_limits<double>::infinity());
  const IMat s = interval_softmax_rows(k);
  CHECK(lower(s(0, 1)) == 0);
  CHECK(upper(s(0, 1)) == 0);
  const double e0 = std::exp(0.5), e2 = std::exp(2.0);
  CHECK(std::abs(midpoint(s(0, 0)).convert_to<double>() - e0 / (e0 + e2)) < 1e-15);  // the masked key is left out
  CHECK(contains(IMat(s.row(1)).sum(), 1.0));
  IMat all = k;
  for (Eigen::Index l = 0; l < 3; ++l) all(1, l) = mpfi_dynamic(-std::numeric_limits<double>::infinity());
  CHECK_THROWS_AS(interval_softmax_rows(all), std::invalid_argument);
}

TEST_CASE("interval models: the [G] finite-data loss and gradient on intervals (masked) contain their 1000-digit values, and differ from the unmasked ones") {
  Rng rng(77);
  const MatD X = gaussian_matrix(rng, 6, 3), Y = gaussian_matrix(rng, 6, 2), A = gaussian_matrix(rng, 2, 3), B = gaussian_matrix(rng, 3, 3, 0.5);
  mpfi_dynamic loss, unmasked;
  ParamPair<mpfi_dynamic> g;
  {
    const IntervalPrecision guard(40);
    g = finite_gradient(to_interval(A), to_interval(B), to_interval(X), to_interval(Y), true, nullptr, &loss);
    unmasked = finite_loss(to_interval(A), to_interval(B), to_interval(X), to_interval(Y), false);
  }
  const DigitsGuard guard(1000);
  mpfr_dynamic ref;
  const ParamPair<mpfr_dynamic> r = finite_gradient(lift<mpfr_dynamic>(A), lift<mpfr_dynamic>(B), lift<mpfr_dynamic>(X), lift<mpfr_dynamic>(Y), true,
                                                    nullptr, &ref);
  CHECK(contains(loss, ref));
  CHECK(contains_all(g.A, r.A));
  CHECK(contains_all(g.B, r.B));
  CHECK_FALSE(contains(unmasked, ref));
}
