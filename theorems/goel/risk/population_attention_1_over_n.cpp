// goel.risk.population_attention_1_over_n (reconstruction; docs/derivations/goel.risk.population_attention_1_over_n.md)
//
// The later abstract's rate for Algorithm 1 on the third reading of the finite data: n prompts whose attention output is its
// T -> infinity limit A Sigma B^T q (goel.finite_data_limit_attention.md), which isolates the statistical error of n
// training prompts from the finite-T attention noise.
//
//   sigma_1(Z*) < 1/4 (the instances of the other risk claims); L(theta_m) - L* <= C (mu^m + 1/n), judged by the protocol of
//   goel.risk.excess_bound_1_over_n (the one-sided Jonckheere-Terpstra test that excess / b(n) does not grow with n; the
//   fitted exponent of the converged runs' excess <= -1 + t SE, level 1e-4, decided where t SE <= 1/2) on the grid
//   n = 512..65536 with 128 draws per n (theorems/goel/algorithm.hpp), which decides it at the standard budget.
//   Negative control: n^{-7} alone in the trend test, the exponent -2 (v1's asymptotic one) in the exponent test.
#include "theorems/goel/algorithm.hpp"
#include "theorems/goel/risk.hpp"
#include "theorems/register_claim.hpp"

namespace thm::goel {

struct PopulationAttention1OverN {
  static ClaimInfo info() {
    return {
        .id = "goel.risk.population_attention_1_over_n",
        .source = "G",
        .provenance = Provenance::reconstruction,
        .kind = ClaimKind::rate,
        .statement = "Algorithm 1 on n prompts with the attention at its T -> infinity limit: L(theta_m) - L* <= C (mu^m + 1/n), by the "
                     "protocol of goel.risk.excess_bound_1_over_n (one-sided Jonckheere-Terpstra test that excess / b(n) does not grow "
                     "with n; fitted exponent <= -1 + t SE, level 1e-4, decided where t SE <= 1/2) over n = 512..65536, 128 draws per n",
        .negative_control = "n^{-7} alone in the trend test, the exponent -2 (v1's) in the exponent test",
        .reading = reading_id(FiniteReading::population_attention),
        .uses = {"goel.population.tilting_identity", "goel.geometry.local_contraction", "goel.init.spectral_near_manifold"},
        .default_cases = 2,
        .ladder_checks = 0,
        .power_knob = detail::kRiskExponentKnob,
        .resolving_factor = 1.226,  // thmcheck power --claims goel.risk.population_attention_1_over_n --seeds 1..20
    };
  }

  // The attention limit's grid and draws (theorems/goel/algorithm.cpp).
  static InstanceSchema schema() { return excess_bound_limit_schema().seconds_at_limits(4); }
  static Instance generate(ChoiceSource& src) { return generate_excess_bound_limit(src); }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant variant) {
    return detail::evaluate_1_over_n<T>(inst, variant, detail::RiskAlgorithm::algorithm1, FiniteReading::population_attention);
  }
};

}  // namespace thm::goel

THM_REGISTER_CLAIM(thm::goel::PopulationAttention1OverN)
