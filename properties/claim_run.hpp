// What a run keeps of one claim at one precision: every case's verdict and ladder result, the counts, the worst case and
// its evaluation, the shrunk case, the certificates (properties/runner.hpp fills it; properties/verdicts.hpp judges it).
#pragma once

#include "properties/certification.hpp"
#include "theorems/claim.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace thm {

// The precision ladder: a double case that is violated or inconclusive is re-checked on the same instance at
// mp50 and mp100. genuine: violated at both; rounding artifact: a violation that holds at both; resolved: an
// inconclusive case that holds at both; undecided otherwise.
enum class LadderResult { not_checked, genuine, rounding_artifact, resolved, undecided };
std::string_view to_string(LadderResult r);
// The one classification of a case, used by run's ladder and by explore: from its verdict in double and its verdicts at
// the higher precisions. genuine: violated at every higher precision; rounding artifact: violated in double, holds at
// every higher one; resolved: otherwise not held in double, holds at every higher one; undecided otherwise.
LadderResult classify_case(CaseVerdict in_double, const std::vector<CaseVerdict>& higher);

struct CaseRecord {
  int index = 0;  // case number; with the seed and claim id it regenerates the instance
  CaseOutcome outcome;
  std::string discard_reason;
  LadderResult ladder = LadderResult::not_checked;
  // The claim's expected conditions (ClaimInfo::expected_conditions), each judged on its own: their verdicts on this
  // case, in that order (empty for other claims and for negative controls).
  std::vector<CaseVerdict> expected_conditions;
};

// A violating instance minimised by structure, then re-checked at mp50 and mp100.
struct ShrunkCase {
  int from_case = 0;
  Instance instance;
  Evaluation evaluation;           // in double
  std::vector<std::string> steps;  // the accepted changes
  int evaluations = 0;
  double seconds = 0;
  bool capped = false;
  LadderResult ladder = LadderResult::not_checked;
};

struct ClaimRun {
  const Claim* claim = nullptr;
  Precision precision = Precision::float64;
  Variant variant = Variant::claim;
  std::uint64_t seed = 0;
  int case_count = 0;  // the cases the sizes were spread over (needed to replay a case)
  StudyBudget budget = StudyBudget::standard;  // the study grids it ran with (full in a campaign)
  int cases_run = 0, cases_held = 0, cases_discarded = 0, cases_inconclusive = 0, cases_violated = 0;
  // Double violations that the ladder showed to be rounding artifacts: not counted as violated.
  int cases_rounding_artifact = 0;
  // Inconclusive double cases that hold at mp50 and mp100 (still counted as inconclusive in this row; the
  // claim's resolved verdict counts them as held).
  int cases_resolved = 0;
  std::optional<double> min_slack, min_slack_eps;  // over judged cases
  // The run's strength: the smallest case strength over judged cases (claim.hpp, Condition::strength), the
  // largest factor the claim's knob could be strengthened by with every judged case of this run still holding.
  std::optional<double> strength;
  ClaimVerdict verdict = ClaimVerdict::vacuous;
  // The case with the smallest slack (the first violated one if any), with its full evaluation.
  std::optional<int> worst_case;
  std::optional<Instance> worst_instance;
  std::optional<Evaluation> worst_evaluation;
  std::vector<CaseRecord> records;
  // The claim's tightness probe (double runs of the claim variant only).
  std::vector<Tightness> tightness;
  std::optional<ShrunkCase> shrunk;
  // The first double violation that the ladder showed to be a rounding artifact (kept for its file).
  std::optional<int> artifact_case;
  std::optional<Instance> artifact_instance;
  std::optional<Evaluation> artifact_evaluation;
  // Interval certificates of the double row's cases (RunOptions::certify), in case order.
  std::vector<CaseCertification> certifications;
  int cases_certified() const {
    int k = 0;
    for (const CaseCertification& c : certifications) k += c.decided();
    return k;
  }

  double hypothesis_rate() const { return cases_run ? double(cases_run - cases_discarded) / cases_run : 0.0; }
};

}  // namespace thm
