// goel.optimum.excess_falls_prompts (reconstruction; docs/derivations/goel.optimum.excess_falls_prompts.md)
//
// Algorithm 1 approaches the optimum, on the reading "n prompts of T tokens" of [G]'s finite data
// (docs/derivations/goel.finite_data_prompts.md; n = 32 prompts of T = 128 context tokens): from the spectral start, after
// m = 1000 steps the population excess L(theta_m) - L* is below the start's, and the run converges (a divergence or a stall
// is a violated case), in more than half of the instances (support 1/2, the runner's one-sided binomial test at 1e-3 over
// 550 cases: the budget at which a run rejects the one-sequence reading's share of falling runs, 0.36, with probability
// at least 0.99; derivation, "Calibration"). Hypotheses: sigma_1(Z*) < 1/4 and a start above the least-squares floor, ||Z*||_F^2 + ||Z*||_*^2 >= k d s^2.
//   Negative control: the excess falls 300-fold (the comparison's constant 1 scaled by the factor whose power is 0.999;
//   derivation, "Negative control").
#include "theorems/goel/optimum.hpp"
#include "theorems/register_claim.hpp"

namespace thm::goel {

struct ExcessFallsPrompts {
  static ClaimInfo info() {
    return {
        .id = "goel.optimum.excess_falls_prompts",
        .source = "G",
        .provenance = Provenance::reconstruction,
        .kind = ClaimKind::trend,
        .statement = "reading 'n prompts of T tokens' (n = 32, T = 128): after m = 1000 steps of Algorithm 1 from the spectral start the "
                     "population excess L - L* is below the start's and the run converged, on more than half of the instances (support "
                     "1/2, binomial test at 1e-3, 550 cases); sigma_1(Z*) < 1/4, start above the least-squares floor",
        .negative_control = "the excess falls 300-fold (L(theta_m) - L* < (L(theta_0) - L*) / 300)",
        .reading = reading_id(FiniteReading::prompts),
        .uses = {"goel.init.spectral_exact", "goel.precond.equivalence"},
        .required_support = 0.5,
        .default_cases = 550,
        // 50 steps of one case at 50 digits against double (the runs are precision-independent); the statistics in double.
        .mp_cases = 1,
        .ladder_checks = 0,
        .resolving_factor = 3.82,  // thmcheck power --claims goel.optimum.excess_falls_prompts --seeds 1..20
        .alternative_support = 0.382,  // the one-sequence reading's share (95% upper bound; derivation, "Calibration")
    };
  }
  // What the generator below draws (theorems/goel/optimum.hpp).
  static InstanceSchema schema() { return detail::optimum_schema().seconds_at_limits(4); }
  static Instance generate(ChoiceSource& src) { return detail::generate_optimum(src); }
  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant variant) {
    return detail::evaluate_optimum<T>(inst, FiniteReading::prompts, variant);
  }
};

}  // namespace thm::goel

THM_REGISTER_CLAIM(thm::goel::ExcessFallsPrompts)
