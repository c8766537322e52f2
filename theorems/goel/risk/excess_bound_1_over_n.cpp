// goel.risk.excess_bound_1_over_n (reconstruction; docs/derivations/goel.risk.excess_bound_1_over_n.md)
//
// The excess risk of Algorithm 1's output, in the rate of the paper's later version.
//
//   L(theta_m) - L* <= C (mu^m + 1/n), judged by the protocol of goel.risk.excess_bound_v1 (sigma_1(Z*) < 1/4, the
//   one-sided Jonckheere-Terpstra test that excess / b(n) does not grow with n) and by its exponent: the fitted exponent
//   of the converged runs' excess must not exceed -1 + t SE (level 1e-4, decided where t SE <= 1/2: at the full budget;
//   theorems/goel/risk.hpp). The study is recomputed at each evaluation (no cache).
//   Negative control: n^{-7} alone in the trend test (faster rate, optimisation term dropped), the exponent -2 (v1's)
//   in the exponent test.
#include "theorems/goel/algorithm.hpp"
#include "theorems/goel/risk.hpp"
#include "theorems/register_claim.hpp"

namespace thm::goel {

struct ExcessBound1OverN {
  static ClaimInfo info() {
    return {
        .id = "goel.risk.excess_bound_1_over_n",
        .source = "G",
        .provenance = Provenance::reconstruction,
        .kind = ClaimKind::rate,
        .statement = "L(theta_m) - L* <= C (mu^m + 1/n): the v1 protocol (sigma_1(Z*) < 1/4, one-sided Jonckheere-Terpstra test that "
                     "excess / b(n) does not grow with n) and the fitted exponent of the excess <= -1 + t SE (level 1e-4, decided where "
                     "t SE <= 1/2); underpowered (inconclusive, as expected) at the standard grid n = 32..256",
        .negative_control = "n^{-7} alone in the trend test, the exponent -2 (v1's) in the exponent test",
        .reading = reading_id(FiniteReading::one_sequence),
        .uses = {"goel.geometry.local_contraction", "goel.init.spectral_near_manifold"},
        .default_cases = 2,
        .ladder_checks = 0,
        .power_knob = detail::kRiskExponentKnob,
        .decided_from = StudyBudget::full,
        .underpowered_reason = detail::kRiskUnderpowered,
    };
  }

  // Sigma_1(Z*) < 1/4 and the n grid of the study budget (theorems/goel/algorithm.cpp).
  // The instances it reads (numerics/instance_schema.hpp): what the generator below draws.
  static InstanceSchema schema() {
    return excess_bound_schema().seconds_at_limits(4);
  }
  static Instance generate(ChoiceSource& src) { return generate_excess_bound(src); }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant variant) {
    return detail::evaluate_1_over_n<T>(inst, variant, detail::RiskAlgorithm::algorithm1);
  }
};

}  // namespace thm::goel

THM_REGISTER_CLAIM(thm::goel::ExcessBound1OverN)
