// goel.risk.later_algorithm_1_over_n (reconstruction; docs/derivations/goel.risk.later_algorithm_1_over_n.md)
//
// The excess risk of the later abstract's algorithm, in the later abstract's rate: Algorithm 1 with the scale-invariant
// regulariser R_si and the renormalisation (A, B) -> (cA, B/c), ||P_hat|| = ||Q_hat||, after every step
// (docs/derivations/goel.model.md), beside Algorithm 1 (R_bal) in goel.risk.excess_bound_1_over_n.
//
//   L(theta_m) - L* <= C (mu^m + 1/n), judged by the protocol of goel.risk.excess_bound_1_over_n on the same instances
//   (sigma_1(Z*) < 1/4; the one-sided Jonckheere-Terpstra test that excess / b(n) does not grow with n; the fitted
//   exponent of the converged runs' excess <= -1 + t SE, level 1e-4, decided where t SE <= 1/2: at the full budget).
//   Negative control: as goel.risk.excess_bound_1_over_n's (n^{-7} alone in the trend test, the exponent -2).
#include "theorems/goel/algorithm.hpp"
#include "theorems/goel/risk.hpp"
#include "theorems/register_claim.hpp"

namespace thm::goel {

struct LaterAlgorithm1OverN {
  static ClaimInfo info() {
    return {
        .id = "goel.risk.later_algorithm_1_over_n",
        .source = "G",
        .provenance = Provenance::reconstruction,
        .kind = ClaimKind::rate,
        .statement = "the later algorithm (R_si and the renormalisation ||P_hat|| = ||Q_hat|| after every step): L(theta_m) - L* <= "
                     "C (mu^m + 1/n), by the protocol of goel.risk.excess_bound_1_over_n (one-sided Jonckheere-Terpstra test that "
                     "excess / b(n) does not grow with n; fitted exponent <= -1 + t SE, level 1e-4, decided where t SE <= 1/2); "
                     "underpowered (inconclusive, as expected) at the standard grid n = 32..256",
        .negative_control = "n^{-7} alone in the trend test, the exponent -2 (v1's) in the exponent test",
        .reading = reading_id(FiniteReading::one_sequence),
        .uses = {"goel.risk.excess_bound_1_over_n", "goel.population.invariances"},
        .default_cases = 2,
        .ladder_checks = 0,
        .power_knob = detail::kRiskExponentKnob,
        .decided_from = StudyBudget::full,
        .underpowered_reason = detail::kRiskUnderpowered,
    };
  }

  // The instances of goel.risk.excess_bound_1_over_n (theorems/goel/algorithm.cpp).
  static InstanceSchema schema() { return excess_bound_schema().seconds_at_limits(4); }
  static Instance generate(ChoiceSource& src) { return generate_excess_bound(src); }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant variant) {
    return detail::evaluate_1_over_n<T>(inst, variant, detail::RiskAlgorithm::later);
  }
};

}  // namespace thm::goel

THM_REGISTER_CLAIM(thm::goel::LaterAlgorithm1OverN)
