// Calibration of a real statistical claim by simulation: goel.population.matrix_factorization judges each instance by
// |L_inf - closed form| <= bias + 5 max(SE, SE_pred), so its false-failure probability per default run (10 instances)
// is about 10 x 2 (1 - Phi(5)) = 5.7e-6 *if* the Monte-Carlo standard error is right. Here the standardised error
// z = |L_inf - closed| / SE is collected over 100 generated instances (10 seeds) and its tails are compared with
// the normal's: more instances beyond 1.645 or 2.576 than a Binomial(100, 0.1 or 0.01) count allows with
// probability 1 - 1e-6 means the SE is too small (the claim would fail falsely more often than it states).
#include "properties/runner.hpp"
#include "theorems/goel/protocol.hpp"
#include "theorems/registry.hpp"

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/normal.hpp>
#include <doctest/doctest.h>

#include <cmath>

using namespace thm;

TEST_CASE("calibration: goel.population.matrix_factorization's Monte-Carlo SE has normal tails (100 instances)") {
  const Claim& c = *select_claims("goel.population.matrix_factorization").front();
  std::vector<double> z;
  for (std::uint64_t seed = 7001; seed < 7011; ++seed)
    for (int i = 0; i < c.default_cases; ++i) {
      const Evaluation e = evaluate_case(c, generate_case(c, seed, i, c.default_cases), Precision::float64, Variant::claim);
      if (!e.hypotheses_hold) continue;
      for (const auto& [name, v] : e.observations)
        if (name == "|L_inf - closed| / SE") z.push_back(v);
    }
  REQUIRE(z.size() >= 80);
  const boost::math::normal_distribution<double> normal;
  for (const double q : {0.9, 0.99}) {
    const double cut = boost::math::quantile(normal, 0.5 + q / 2);  // two-sided: P(|Z| > cut) = 1 - q
    int beyond = 0;
    for (double x : z) beyond += x > cut;
    const double allowed = boost::math::quantile(boost::math::complement(boost::math::binomial_distribution<double>(z.size(), 1 - q), 1e-6));
    INFO("|z| > " << cut << ": " << beyond << " of " << z.size() << " (at most " << allowed << ")");
    CHECK(beyond <= allowed);
  }
  // What the claim states: the per-run false-failure probability from its z = 5 threshold.
  const double per_run = 1 - std::pow(1 - 2 * boost::math::cdf(boost::math::complement(normal, kFactorizationZ)), c.default_cases);
  CHECK(per_run < 1e-3);
}
