// The [G] numerics (numerics/models/goel/attention_regression.hpp, factor_manifold.hpp, symmetric_roots.hpp,
// monte_carlo.hpp): closed-form gradients against 50-digit central differences, the chain rule between
// (A, B) and (P, Q), the preconditioned step, roots of Sigma, the manifold and its projection.
#include "tests/support/mp50.hpp"
#include "numerics/models/goel/factor_manifold.hpp"
#include "numerics/models/goel/monte_carlo.hpp"
#include "numerics/random_matrix.hpp"
#include "numerics/rate_fit.hpp"
#include "numerics/statistics.hpp"
#include "numerics/models/goel/population_instance.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

using namespace thm;

namespace {

GProblem<mp50> problem(int k, int d, int rank, std::uint64_t entropy, GPoint point = GPoint::random) {
  GSpec s;
  s.k = k;
  s.d = d;
  s.rank = rank;
  s.sigma_max = 2;
  s.sigma_kappa = 20;
  s.z_max = 1.5;
  s.z_kappa = 4;
  s.lambda = 0.7;
  s.noise_sd = 0.3;
  s.point = point;
  s.delta = 0.05;
  s.entropy = entropy;
  return lift_goel<mp50>(build_goel(s));
}

// Central difference of F along the (i, j) entry of X, step h.
template <class F>
mp50 central(F f, Mat<mp50> X, Eigen::Index i, Eigen::Index j, const mp50& h) {
  X(i, j) += h;
  const mp50 up = f(X);
  X(i, j) -= 2 * h;
  return (up - f(X)) / (2 * h);
}

mp50 relative(const Mat<mp50>& a, const Mat<mp50>& b) { return (a - b).norm() / b.norm(); }

}  // namespace

TEST_CASE("[G] population gradients G_A, G_B match 50-digit central differences") {
  const GProblem<mp50> g = problem(3, 4, 3, 17);
  const ParamPair<mp50> grad = population_excess_gradient(g.A, g.B, g.task);
  const mp50 h("1e-20");
  Mat<mp50> fdA(g.A.rows(), g.A.cols()), fdB(g.B.rows(), g.B.cols());
  for (Eigen::Index i = 0; i < g.A.rows(); ++i)
    for (Eigen::Index j = 0; j < g.A.cols(); ++j)
      fdA(i, j) = central([&](const Mat<mp50>& A) { return population_excess(A, g.B, g.task); }, g.A, i, j, h);
  for (Eigen::Index i = 0; i < g.B.rows(); ++i)
    for (Eigen::Index j = 0; j < g.B.cols(); ++j)
      fdB(i, j) = central([&](const Mat<mp50>& B) { return population_excess(g.A, B, g.task); }, g.B, i, j, h);
  // Central differences err by h^2 |f'''| ~ 1e-40 (truncation) plus eps |f| / h ~ 1e-30 (rounding).
  CHECK(relative(grad.A, fdA) < mp50("1e-28"));
  CHECK(relative(grad.B, fdB) < mp50("1e-28"));
}

TEST_CASE("[G] factor-objective gradients (both regularisers) match 50-digit central differences") {
  const GProblem<mp50> g = problem(4, 3, 2, 5);
  const Factors<mp50> f = to_factors(g.A, g.B, g.task.roots);
  const mp50 h("1e-20");
  for (Regularizer kind : {Regularizer::none, Regularizer::balancing, Regularizer::scale_invariant}) {
    const Factors<mp50> grad = factor_gradient(f, g.task.Z, kind, g.lambda);
    Mat<mp50> fdP(f.P.rows(), f.P.cols()), fdQ(f.Q.rows(), f.Q.cols());
    for (Eigen::Index i = 0; i < f.P.rows(); ++i)
      for (Eigen::Index j = 0; j < f.P.cols(); ++j)
        fdP(i, j) = central([&](const Mat<mp50>& P) { return factor_objective(Factors<mp50>{P, f.Q}, g.task.Z, kind, g.lambda); }, f.P, i, j, h);
    for (Eigen::Index i = 0; i < f.Q.rows(); ++i)
      for (Eigen::Index j = 0; j < f.Q.cols(); ++j)
        fdQ(i, j) = central([&](const Mat<mp50>& Q) { return factor_objective(Factors<mp50>{f.P, Q}, g.task.Z, kind, g.lambda); }, f.Q, i, j, h);
    INFO("regulariser " << static_cast<int>(kind));
    CHECK(relative(grad.P, fdP) < mp50("1e-28"));
    CHECK(relative(grad.Q, fdQ) < mp50("1e-28"));
  }
}

TEST_CASE("[G] chain rule: the (P, Q) gradient pulled back to (A, B) is the closed-form gradient, L - L* = 1/2 ||P Q^T - Z*||^2") {
  const GProblem<mp50> g = problem(3, 3, 3, 23);
  const Factors<mp50> f = to_factors(g.A, g.B, g.task.roots);
  const ParamPair<mp50> pulled = gradient_to_params(factor_gradient(f, g.task.Z, Regularizer::none, g.lambda), g.task.roots);
  const ParamPair<mp50> direct = population_excess_gradient(g.A, g.B, g.task);
  CHECK(relative(pulled.A, direct.A) < mp50("1e-45"));
  CHECK(relative(pulled.B, direct.B) < mp50("1e-45"));
  using std::abs;
  CHECK(abs(factor_objective(f, g.task.Z, Regularizer::none, g.lambda) - population_excess(g.A, g.B, g.task)) <
        mp50("1e-45") * population_excess(g.A, g.B, g.task));
}

TEST_CASE("[G] the preconditioned step in (A, B) is plain GD in (P, Q)") {
  const GProblem<mp50> g = problem(2, 4, 2, 31);
  const mp50 eta("0.01");
  const ParamPair<mp50> G = population_excess_gradient(g.A, g.B, g.task);
  const Mat<mp50> A1 = g.A - eta * G.A * g.task.roots.inv, B1 = g.B - eta * g.task.roots.inv * G.B * g.task.roots.inv;
  const Factors<mp50> f = to_factors(g.A, g.B, g.task.roots);
  const Factors<mp50> gf = factor_gradient(f, g.task.Z, Regularizer::none, g.lambda);
  const Factors<mp50> stepped = to_factors(A1, B1, g.task.roots);
  CHECK(relative(stepped.P, Mat<mp50>(f.P - eta * gf.P)) < mp50("1e-45"));
  CHECK(relative(stepped.Q, Mat<mp50>(f.Q - eta * gf.Q)) < mp50("1e-45"));
}

TEST_CASE("[G] symmetric roots of Sigma: (Sigma^{1/2})^2 = Sigma, tighter with precision, bad Sigma refused") {
  const GProblem<mp50> g = problem(2, 5, 2, 3);
  const SymmetricRoots<mp50> r50 = symmetric_roots<mp50>(g.task.Sigma);
  CHECK(relative(Mat<mp50>(r50.sqrt * r50.sqrt), g.task.Sigma) < mp50("1e-47"));
  CHECK(relative(Mat<mp50>(r50.inv_sqrt * g.task.Sigma * r50.inv_sqrt), Mat<mp50>::Identity(5, 5)) < mp50("1e-46"));
  const MatD sd = g.task.Sigma.cast<double>();
  const SymmetricRoots<double> r64 = symmetric_roots<double>(sd);
  CHECK((r64.sqrt * r64.sqrt - sd).norm() / sd.norm() < 1e-14);
  MatD bad = sd;
  bad(0, 1) += 1e-3;
  CHECK_THROWS_AS(symmetric_roots<double>(bad), std::domain_error);
  MatD indefinite = -sd;
  CHECK_THROWS_AS(symmetric_roots<double>(indefinite), std::domain_error);
}

TEST_CASE("[G] manifold S: points of S project to themselves, have zero loss, and the projection beats random gauges") {
  for (int rank : {1, 2, 3}) {
    const GProblem<mp50> g = problem(4, 3, rank, 40 + rank, GPoint::random_direction);
    const FactorManifold<mp50> S = factor_manifold(g.task.Z, rank);
    Rng rng(100 + rank);
    const Mat<mp50> O = polar_factor<mp50>(lift<mp50>(random_orthogonal(rng, 3)));
    const Factors<mp50> star = manifold_point(S, O);
    CHECK((star.P * star.Q.transpose() - g.task.Z).norm() < mp50("1e-45"));
    const Projection<mp50> p = project_onto_manifold(S, star);
    CHECK(p.distance < mp50("1e-45"));
    const Factors<mp50> theta = to_factors(g.A, g.B, g.task.roots);
    const Projection<mp50> q = project_onto_manifold(S, theta);
    for (int i = 0; i < 5; ++i) {
      const Factors<mp50> other = manifold_point(S, polar_factor<mp50>(lift<mp50>(random_orthogonal(rng, 3))));
      CHECK(q.distance <= mp50(std::sqrt(to_double(squared_norm(theta - other)))));
    }
  }
}

TEST_CASE("slope_test: OLS slope, its residual standard error and Student's t critical value (Boost.Math)") {
  // Hand-computed: slope 0.99, intercept 0.04, SE = sqrt(SSR / 3 / Sxx) = 0.0597215762238965; t_{0.95, 3} = 2.3533634.
  const SlopeTest f = slope_test({0, 1, 2, 3, 4}, {0.1, 0.9, 2.2, 2.8, 4.1}, 0.05);
  CHECK(f.slope == doctest::Approx(0.99).epsilon(1e-14));
  CHECK(f.intercept == doctest::Approx(0.04).epsilon(1e-12));
  CHECK(f.se == doctest::Approx(0.059721576223896435).epsilon(1e-12));
  CHECK(f.df == 3);
  CHECK(f.t == doctest::Approx(2.3533634).epsilon(1e-7));
  CHECK(f.upper() == doctest::Approx(0.99 + 2.3533634 * 0.059721576223896435).epsilon(1e-7));
  // An exact line has no residual: SE 0. Fewer than three points: nothing fitted (df 0).
  const SlopeTest line = slope_test({1, 2, 3, 4}, {2.5, 1.0, -0.5, -2.0}, 1e-4);
  CHECK(line.slope == doctest::Approx(-1.5));
  CHECK(line.se == doctest::Approx(0.0).scale(1));
  CHECK(slope_test({1, 2}, {1, 2}, 0.05).df == 0);
}

TEST_CASE("[G] Monte-Carlo summaries and weighted line fits") {
  const McEstimate e = summarize({1.0, 2.0, 3.0, 4.0});
  CHECK(e.mean == doctest::Approx(2.5));
  CHECK(e.std_error == doctest::Approx(std::sqrt(5.0 / 3.0 / 4.0)));
  const WeightedLineFit f = fit_line_weighted({0, 1, 2, 3}, {1, -1, -3, -5}, {1, 2, 1, 4});
  CHECK(f.slope == doctest::Approx(-2.0));
  CHECK(f.intercept == doctest::Approx(1.0));
  CHECK(f.r2 == doctest::Approx(1.0));
  CHECK(f.slope_se > 0);
  CHECK_THROWS_AS(fit_line_weighted({0, 1}, {0, 1}, {1, 0}), std::invalid_argument);
}

TEST_CASE("[G] instance files: wrong shapes and bad parameters are refused with an InstanceError") {
  GSpec s;
  s.k = 3;
  s.d = 2;
  s.rank = 2;
  s.entropy = 1;
  Instance inst = build_goel(s);
  CHECK_NOTHROW(lift_goel<double>(inst));
  Instance wrong = inst;
  wrong.matrices["A"] = MatD::Zero(2, 2);
  CHECK_THROWS_AS(lift_goel<double>(wrong), InstanceError);
  Instance nan = inst;
  nan.matrices["Sigma"](0, 0) = NAN;
  CHECK_THROWS_AS(lift_goel<double>(nan), InstanceError);
  Instance asym = inst;
  asym.matrices["Sigma"](0, 1) += 1;
  CHECK_THROWS_AS(lift_goel<double>(asym), InstanceError);
  Instance rank = inst;
  rank.params["rank"] = 7;
  CHECK_THROWS_AS(lift_goel<double>(rank), InstanceError);
  GSpec absurd = s;
  absurd.d = 100000;
  CHECK_THROWS_AS(build_goel(absurd), std::invalid_argument);
}
