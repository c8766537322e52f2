// The third reading's loss (numerics/models/goel/limit_attention.hpp; docs/derivations/goel.finite_data_limit_attention.md)
// against its defining sum 1/(2n) sum_p ||A Sigma B^T q_p - y_p||^2, written out here with plain loops (no numerics/ code),
// its gradient against central differences of that sum, and the objective Algorithm 1 records on it.
#include "numerics/models/goel/algorithm1_loop.hpp"
#include "numerics/models/goel/limit_attention.hpp"
#include "numerics/random.hpp"
#include "numerics/random_matrix.hpp"
#include "theorems/goel/algorithm.hpp"
#include "theorems/registry.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

namespace {

using thm::MatD;

// 1/(2n) sum_p sum_i (sum_{a,b,c} A_ia Sigma_ab B_cb q_pc - y_pi)^2, term by term.
double defining_sum(const MatD& A, const MatD& B, const MatD& Sigma, const MatD& Qry, const MatD& Y) {
  const long n = Qry.rows(), d = Qry.cols(), k = Y.cols();
  double total = 0;
  for (long p = 0; p < n; ++p)
    for (long i = 0; i < k; ++i) {
      double pred = 0;
      for (long a = 0; a < d; ++a)
        for (long b = 0; b < d; ++b)
          for (long c = 0; c < d; ++c) pred += A(i, a) * Sigma(a, b) * B(c, b) * Qry(p, c);
      total += (pred - Y(p, i)) * (pred - Y(p, i));
    }
  return total / (2.0 * double(n));
}

struct Fixture {
  MatD A, B, Sigma, Qry, Y;
};
Fixture fixture(int n, int d, int k, std::uint64_t seed) {
  thm::Rng rng(seed);
  Fixture f;
  const MatD G = thm::gaussian_matrix(rng, d, d);
  f.Sigma = G * G.transpose() / double(d) + MatD::Identity(d, d);
  f.A = thm::gaussian_matrix(rng, k, d);
  f.B = thm::gaussian_matrix(rng, d, d);
  f.Qry = thm::gaussian_matrix(rng, n, d);
  const MatD M = thm::gaussian_matrix(rng, k, d);
  f.Y = f.Qry * M.transpose() + thm::gaussian_matrix(rng, n, k, 0.3);
  return f;
}

}  // namespace

TEST_CASE("limit attention: the loss is the defining sum over the prompts and the gradient its central differences") {
  for (int d = 1; d <= 3; ++d) {
    const int k = d + 1, n = 40;
    const Fixture f = fixture(n, d, k, 17 + static_cast<std::uint64_t>(d));
    const thm::EmpiricalMoments<double> m = thm::empirical_moments(f.Qry, f.Y);
    const thm::LimitAttentionData<double> data = thm::limit_attention_data(f.Sigma, f.Qry, f.Y, m);
    double loss = 0;
    const thm::ParamPair<double> g = thm::limit_attention_gradient(f.A, f.B, data, &loss);
    const double want = defining_sum(f.A, f.B, f.Sigma, f.Qry, f.Y);
    CHECK(std::fabs(loss - want) <= 1e-12 * want);
    // Central differences of the defining sum, step 1e-5: truncation error O(h^2) times the third derivative (a quartic in
    // the entries), below 1e-7 relative here.
    const double h = 1e-5;
    for (int which = 0; which < 2; ++which) {
      const MatD& W = which == 0 ? f.A : f.B;
      const MatD& G = which == 0 ? g.A : g.B;
      for (Eigen::Index j = 0; j < W.size(); ++j) {
        MatD plus = W, minus = W;
        plus.data()[j] += h;
        minus.data()[j] -= h;
        const double fp = which == 0 ? defining_sum(plus, f.B, f.Sigma, f.Qry, f.Y) : defining_sum(f.A, plus, f.Sigma, f.Qry, f.Y);
        const double fm = which == 0 ? defining_sum(minus, f.B, f.Sigma, f.Qry, f.Y) : defining_sum(f.A, minus, f.Sigma, f.Qry, f.Y);
        CHECK(std::fabs((fp - fm) / (2 * h) - G.data()[j]) <= 1e-6 * std::max(1.0, G.norm()));
      }
    }
  }
}

TEST_CASE("limit attention: Algorithm 1 records the defining sum plus R and converges to the least-squares fit") {
  const int d = 2, k = 3, n = 200;
  Fixture f = fixture(n, d, k, 5);
  const thm::EmpiricalMoments<double> m = thm::empirical_moments(f.Qry, f.Y);
  const thm::LimitAttentionData<double> data = thm::limit_attention_data(f.Sigma, f.Qry, f.Y, m);
  const thm::RegressionTask<double> task = thm::make_regression_task(f.Sigma, MatD(MatD::Zero(k, d)), 0.3);
  const thm::ParamPair<double> start = thm::spectral_init(m, d);
  thm::TrainOptions o = thm::algorithm_options(m, 3000, true);
  o.eta = thm::hessian_step_cap(thm::limit_attention_hat_hessian(data, m, start, o), o.eta);
  const thm::TrainRun<double> run = thm::train_algorithm1(
      start, [&](const MatD& A, const MatD& B, double* loss) { return thm::limit_attention_gradient(A, B, data, loss); }, m, task, o);
  REQUIRE_FALSE(run.diverged);
  // At t = 0 the recorded objective is the defining sum plus R at the start (balanced: R = 0 to rounding).
  CHECK(std::fabs(run.record.objective.front() - defining_sum(start.A, start.B, f.Sigma, f.Qry, f.Y)) <= 1e-10);
  // The minimum of L_n^inf + R: A Sigma B^T = M_hat (the derivation, "What it predicts").
  const MatD product = run.final.A * f.Sigma * run.final.B.transpose();
  INFO("objective end ", run.record.objective.back(), " residual ", data.residual);
  CHECK(run.record.objective.back() - data.residual <= 1e-10 * data.residual);
  CHECK((product - m.M_hat).norm() <= 1e-6 * m.M_hat.norm());
}

TEST_CASE("readings: every [G] claim that trains on data names its reading, the population_attention claims theirs") {
  int named = 0;
  for (const thm::Claim& c : thm::all_claims()) {
    if (c.id.rfind("goel.risk.", 0) == 0 || c.id.rfind("goel.optimum.", 0) == 0 || c.id.rfind("goel.baseline.", 0) == 0 ||
        c.id.rfind("goel.rate.", 0) == 0 || c.id.rfind("goel.init.", 0) == 0) {
      CHECK_MESSAGE(!c.reading.empty(), c.id);
      ++named;
    }
    if (c.id.rfind("goel.risk.population_attention", 0) == 0) CHECK(c.reading == thm::reading_id(thm::FiniteReading::population_attention));
  }
  CHECK(named >= 12);
}
