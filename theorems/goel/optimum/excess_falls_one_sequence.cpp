// goel.optimum.excess_falls_one_sequence (reconstruction, finding; docs/derivations/goel.optimum.excess_falls_one_sequence.md)
//
// Algorithm 1 approaches the optimum, on the reading "one sequence of n tokens" of [G]'s finite data
// (docs/derivations/goel.finite_data.md; n = 32, query i masked from its own key): the statement, protocol and test of
// goel.optimum.excess_falls_prompts (theorems/goel/optimum.hpp) on instances of the same generator, over
// 700 cases (power 0.999 against the measured share of falling runs). A finding: the excess rises with m in about 64% of
// the instances (docs/findings/goel.optimum.excess_falls_one_sequence.md); pinned: the runs converge (holds), the excess
// falls (violated).
//   Negative control: the excess falls 300-fold, as for the prompts.
#include "theorems/goel/optimum.hpp"
#include "theorems/register_claim.hpp"

namespace thm::goel {

struct ExcessFallsOneSequence {
  static ClaimInfo info() {
    return {
        .id = "goel.optimum.excess_falls_one_sequence",
        .source = "G",
        .provenance = Provenance::reconstruction,
        .kind = ClaimKind::trend,
        .statement = "reading 'one sequence of n tokens' (n = 32, query masked from its own key): after m = 1000 steps of Algorithm 1 from "
                     "the spectral start the population excess L - L* is below the start's and the run converged, on more than half of "
                     "the instances (support 1/2, binomial test at 1e-3, 700 cases); sigma_1(Z*) < 1/4, start above the least-squares floor",
        .negative_control = "the excess falls 300-fold (L(theta_m) - L* < (L(theta_0) - L*) / 300)",
        .reading = reading_id(FiniteReading::one_sequence),
        .uses = {"goel.init.spectral_exact", "goel.precond.equivalence", "goel.finite.masked_loss"},
        .required_support = 0.5,
        .finding = Finding{"on one sequence of n = 32 tokens the population excess after Algorithm 1 exceeds the spectral start's in about 64% "
                           "of instances (median ratio 1.6): the keys are the queries, so training adds attention noise and removes no "
                           "error of the start",
                           "", MeasuredShare{355, 996}},  // the finding's document, its table
        .expected_conditions = {{detail::optimum_converged_name(FiniteReading::one_sequence), ClaimVerdict::holds},
                                {detail::optimum_falls_name(FiniteReading::one_sequence), ClaimVerdict::violated, MeasuredShare{357, 996}}},
        .default_cases = 700,
        .mp_cases = 1,
        .ladder_checks = 0,
    };
  }
  // What the generator below draws (theorems/goel/optimum.hpp).
  static InstanceSchema schema() { return detail::optimum_schema().seconds_at_limits(4); }
  static Instance generate(ChoiceSource& src) { return detail::generate_optimum(src); }
  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant variant) {
    return detail::evaluate_optimum<T>(inst, FiniteReading::one_sequence, variant);
  }
};

}  // namespace thm::goel

THM_REGISTER_CLAIM(thm::goel::ExcessFallsOneSequence)
