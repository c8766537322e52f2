// goel.risk.population_attention_later (reconstruction; docs/derivations/goel.risk.population_attention_1_over_n.md)
//
// The later abstract's rate for the later abstract's algorithm (R_si and the renormalisation ||P_hat|| = ||Q_hat|| after every
// step; goel.risk.later_algorithm_1_over_n) on the third reading: n prompts, the attention at its T -> infinity limit.
//
//   L(theta_m) - L* <= C (mu^m + 1/n) by the protocol and on the grid of goel.risk.population_attention_1_over_n.
//   Negative control: as that claim's (n^{-7} alone in the trend test, the exponent -2).
#include "theorems/goel/algorithm.hpp"
#include "theorems/goel/risk.hpp"
#include "theorems/register_claim.hpp"

namespace thm::goel {

struct PopulationAttentionLater {
  static ClaimInfo info() {
    return {
        .id = "goel.risk.population_attention_later",
        .source = "G",
        .provenance = Provenance::reconstruction,
        .kind = ClaimKind::rate,
        .statement = "the later algorithm (R_si and the renormalisation ||P_hat|| = ||Q_hat|| after every step) on n prompts with the "
                     "attention at its T -> infinity limit: L(theta_m) - L* <= C (mu^m + 1/n), by the protocol and grid of "
                     "goel.risk.population_attention_1_over_n",
        .negative_control = "n^{-7} alone in the trend test, the exponent -2 (v1's) in the exponent test",
        .reading = reading_id(FiniteReading::population_attention),
        .uses = {"goel.risk.population_attention_1_over_n", "goel.population.invariances"},
        .default_cases = 2,
        .ladder_checks = 0,
        .power_knob = detail::kRiskExponentKnob,
        .resolving_factor = 1.229,  // thmcheck power --claims goel.risk.population_attention_later --seeds 1..20
    };
  }

  static InstanceSchema schema() { return excess_bound_limit_schema().seconds_at_limits(4); }
  static Instance generate(ChoiceSource& src) { return generate_excess_bound_limit(src); }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant variant) {
    return detail::evaluate_1_over_n<T>(inst, variant, detail::RiskAlgorithm::later, FiniteReading::population_attention);
  }
};

}  // namespace thm::goel

THM_REGISTER_CLAIM(thm::goel::PopulationAttentionLater)
