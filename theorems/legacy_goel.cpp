#include "theorems/legacy_registry.hpp"

#include "theorems/goel_algorithm.hpp"

namespace thm::legacy {

void goel_claims(std::vector<Claim>& claims) {
  using P = Provenance;
  using K = ClaimKind;
  const auto g_entry = [&](const char* id, Provenance provenance, ClaimKind kind, std::string statement, std::string control,
                           int cases, Generator generate, Evaluator evaluate, DigitsEvaluator digits) {
    Claim c = entry(id, provenance, kind, std::move(statement), std::move(control), cases, std::move(generate), std::move(evaluate),
                    std::move(digits));
    c.source = "G";
    return c;
  };
  // [G]: Algorithm 1 and the rates.
  Claim geometric = g_entry(kGeometricInMId, P::paper_shape, K::rate,
                            "Algorithm 1's objective gap decays geometrically (mu_hat < 1, R^2 >= 0.99 on the tail window) for "
                            "kappa(Sigma) in {1, 10, 100}; the kappa runs equal the gauged kappa-1 run to rounding (Sigma enters only "
                            "through the start's rotation), while plain GD from the same start needs >= 1.25x the steps at kappa 100 to "
                            "cut the gap 1e3-fold; mu_hat <= mu(eta) when that is < 1; at 50+ digits the run continues past double's "
                            "floor at the same rate",
                            "the gauge dropped (kappa runs must equal the plain kappa-1 run); plain GD within 1.1x", 3, generate_geometric_in_m,
                            THM_EVALUATORS(evaluate_geometric_in_m));
  geometric.mp_cases = 1;
  geometric.ladder_checks = 0;
  claims.push_back(geometric);
  Claim v1 = g_entry(kExcessBoundV1Id, P::paper_shape, K::rate,
                     "sigma_1(Z*) < 1/4: L(theta_m) - L* <= C (n^{-2} log^6 n + mu^m) for some C: a one-sided Jonckheere-Terpstra "
                     "test (level 5e-4) that excess / b(n) does not grow with n over n = 32..256; the measured exponent reported",
                     "n^{-7} alone (faster rate, optimisation term dropped)", 2, generate_excess_bound, THM_EVALUATORS(evaluate_excess_bound_v1));
  v1.mp_cases = 1;
  v1.ladder_checks = 0;
  claims.push_back(v1);
  Claim v2 = g_entry(kExcessBound1OverNId, P::paper_shape, K::rate,
                     "L(theta_m) - L* <= C (mu^m + 1/n): the v1 protocol (sigma_1(Z*) < 1/4, one-sided Jonckheere-Terpstra test that "
                     "excess / b(n) does not grow with n)",
                     "n^{-7} alone (faster rate, optimisation term dropped)", 2, generate_excess_bound, THM_EVALUATORS(evaluate_excess_bound_1_over_n));
  v2.mp_cases = 1;
  v2.ladder_checks = 0;
  claims.push_back(v2);
  Claim baseline = g_entry(kBaselineId, P::empirical, K::trend,
                           "same data (n = 64, kappa(Sigma) in [10, 100]): population excess at the spectral start < at a random start; "
                           "after 2000 steps Algorithm 1's objective L_n + R < GD's and SGD's from the random start (ratios recorded, "
                           "ordering asserted)",
                           "the three orderings reversed", 5, generate_baseline, THM_EVALUATORS(evaluate_baseline));
  baseline.required_support = 0.8;
  baseline.mp_cases = 5;  // at 20 steps at mp50 (goel.baseline.sgd_vs_algorithm1.md); one case cannot reject the control
  baseline.ladder_checks = 0;
  claims.push_back(baseline);
}

}  // namespace thm::legacy
