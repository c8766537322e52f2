#include "properties/runner.hpp"
#include "properties/structural_search.hpp"

#include <algorithm>
#include <cmath>

namespace thm {

int case_size(int index, int cases) { return cases <= 1 ? 100 : static_cast<int>((100LL * index) / (cases - 1)); }

Instance generate_case(const Claim& claim, std::uint64_t seed, int index, int cases) {
  Rng rng = Rng::derive(seed, claim.id, static_cast<std::uint64_t>(index));
  RngChoices choices(rng, case_size(index, cases));  // small instances first
  return claim.generate(choices);
}

namespace {

LadderResult ladder(const Claim& claim, const Instance& inst, Variant variant) {
  const CaseVerdict v50 = judge(claim.evaluate(inst, Precision::mp50, variant), precision_epsilon(Precision::mp50)).verdict;
  const CaseVerdict v100 = judge(claim.evaluate(inst, Precision::mp100, variant), precision_epsilon(Precision::mp100)).verdict;
  return v50 == CaseVerdict::violated && v100 == CaseVerdict::violated ? LadderResult::genuine
         : v50 == CaseVerdict::holds && v100 == CaseVerdict::holds      ? LadderResult::rounding_artifact
                                                                        : LadderResult::undecided;
}

std::optional<ShrunkCase> shrink_case(const Claim& claim, const RunOptions& options, int index, int cases) {
  const RecordedCase start = record_case(claim, options.seed, index, cases);
  const ShrinkResult r = shrink_violation(claim, start, options.variant, SearchLimits{options.shrink_evaluations, options.shrink_seconds},
                                          options.seed);
  if (judge(r.evaluation, precision_epsilon(Precision::float64)).verdict != CaseVerdict::violated) return std::nullopt;
  ShrunkCase s;
  s.from_case = index;
  s.instance = r.minimal.instance;
  s.evaluation = r.evaluation;
  s.steps = r.steps;
  s.evaluations = r.evaluations;
  s.seconds = r.seconds;
  s.capped = r.capped;
  s.ladder = ladder(claim, s.instance, options.variant);
  return s;
}

}  // namespace

std::string_view to_string(LadderResult r) {
  switch (r) {
    case LadderResult::not_checked: return "not checked";
    case LadderResult::genuine: return "genuine";
    case LadderResult::rounding_artifact: return "rounding artifact";
    case LadderResult::undecided: return "undecided";
  }
  return "?";
}

ClaimVerdict aggregate_verdict(const Claim& claim, const ClaimRun& run) {
  const int judged = run.cases_run - run.cases_discarded;
  if (run.cases_run == 0 || judged == 0 || run.hypothesis_rate() < claim.min_hypothesis_rate) return ClaimVerdict::vacuous;
  // Lemmas and theorems: one violation is a counterexample. Empirical trends: the violated share
  // must stay within 1 - required_support.
  const double allowed = (1.0 - claim.required_support) * judged;
  if (run.cases_violated > allowed + 1e-9) return ClaimVerdict::violated;
  if (run.cases_held == 0 || run.cases_inconclusive > run.cases_held) return ClaimVerdict::inconclusive;
  if (claim.required_support < 1.0 && run.cases_held < claim.required_support * judged) return ClaimVerdict::inconclusive;
  return ClaimVerdict::holds;
}

std::vector<ClaimRun> run_claim(const Claim& claim, const RunOptions& options) {
  const int cases = options.cases >= 0 ? options.cases : claim.default_cases;
  // The same instances at every precision: generated once, in double.
  std::vector<int> indices;
  if (options.only_case)
    indices.push_back(*options.only_case);
  else
    for (int i = 0; i < cases; ++i) indices.push_back(i);
  std::vector<Instance> instances;
  instances.reserve(indices.size());
  for (int i : indices) instances.push_back(generate_case(claim, options.seed, i, cases));

  std::vector<ClaimRun> runs;
  for (Precision p : options.precisions) {
    ClaimRun run;
    run.claim = &claim;
    run.precision = p;
    run.variant = options.variant;
    run.seed = options.seed;
    run.cases_budget = cases;
    const double eps = precision_epsilon(p);
    bool worst_is_violation = false;
    int ladder_checks = 0;
    // MP rungs replay a prefix of the same instances when the claim says so (Claim::mp_cases).
    std::size_t count = indices.size();
    if (p != Precision::float64 && claim.mp_cases >= 0 && !options.only_case)
      count = std::min(count, static_cast<std::size_t>(claim.mp_cases));
    for (std::size_t k = 0; k < count; ++k) {
      const int i = indices[k];
      Evaluation e = claim.evaluate(instances[k], p, options.variant);
      CaseRecord rec;
      rec.index = i;
      rec.outcome = judge(e, eps);
      rec.discard_reason = e.discard_reason;
      if (p == Precision::float64 && rec.outcome.verdict == CaseVerdict::violated && ladder_checks < claim.ladder_checks) {
        ++ladder_checks;
        rec.ladder = ladder(claim, instances[k], options.variant);
      }
      ++run.cases_run;
      switch (rec.outcome.verdict) {
        case CaseVerdict::holds: ++run.cases_held; break;
        case CaseVerdict::violated:
          if (rec.ladder == LadderResult::rounding_artifact) {
            ++run.cases_rounding_artifact;
            if (!run.artifact_case) {
              run.artifact_case = i;
              run.artifact_instance = instances[k];
              run.artifact_evaluation = e;
            }
          }
          else
            ++run.cases_violated;
          break;
        case CaseVerdict::discarded: ++run.cases_discarded; break;
        case CaseVerdict::inconclusive: ++run.cases_inconclusive; break;
      }
      if (rec.outcome.verdict != CaseVerdict::discarded) {
        const double s = rec.outcome.min_slack;
        const bool violation = rec.outcome.verdict == CaseVerdict::violated && rec.ladder != LadderResult::rounding_artifact;
        // The worst case is the first violation if there is one, else the smallest slack.
        const bool better = !run.worst_case || (violation && !worst_is_violation) ||
                            (violation == worst_is_violation && !worst_is_violation && s < *run.min_slack);
        if (!run.min_slack || s < *run.min_slack || (std::isnan(*run.min_slack) && !std::isnan(s))) {
          run.min_slack = s;
          run.min_slack_eps = rec.outcome.min_slack_eps;
        }
        if (better) {
          run.worst_case = i;
          run.worst_instance = instances[k];
          run.worst_evaluation = std::move(e);
          worst_is_violation = violation;
        }
      }
      run.records.push_back(std::move(rec));
    }
    if (p == Precision::float64 && options.shrink && worst_is_violation && claim.ladder_checks > 0)
      run.shrunk = shrink_case(claim, options, *run.worst_case, cases);
    if (p == Precision::float64 && options.variant == Variant::claim && claim.tightness && !options.only_case)
      run.tightness = claim.tightness(options.seed);
    run.verdict = aggregate_verdict(claim, run);
    runs.push_back(std::move(run));
  }
  return runs;
}

}  // namespace thm
