// The property runner: generates a claim's instances from one seed, evaluates the same instances at
// every requested precision, and keeps every evaluation's verdict, the counts, the minimum slack and
// the worst instance. Discarded cases are never counted as passes.
#pragma once

#include "properties/certification.hpp"
#include "theorems/claim.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <vector>

namespace thm {

// The I-th of K disjoint slices of every claim's cases: case i belongs to slice i mod K (so each slice has small and
// large cases alike).
struct Shard {
  int index = 0, count = 1;
};

// Which double cases a run certifies in interval arithmetic (claims with an interval evaluation only): none; the cases
// it reports (the worst case, the first rounding artifact, the ladder's violated and inconclusive cases); every judged
// (not discarded) case.
enum class CertifyScope { none, reported, all };

struct RunOptions {
  std::vector<Precision> precisions{Precision::float64, Precision::mp50};
  int cases = -1;  // -1: the claim's default budget
  std::uint64_t seed = 1;
  Variant variant = Variant::claim;
  std::optional<int> only_case;  // replay one case of the budget (its size depends on `cases`)
  StudyBudget budget = StudyBudget::standard;  // the grids of the studies (numerics/choice_source.hpp)
  // A campaign (run --budget campaign, for clusters): the full grids, kCampaignCaseFactor times each claim's default
  // cases, and every multiprecision rung on every case (Claim::mp_cases ignored).
  bool campaign = false;
  // Shrink the first violated double case by structure (properties/structural_search.hpp), within these
  // caps, and re-check the minimal instance at mp50 and mp100. Claims with ladder_checks == 0 (long
  // training trends) are never shrunk. The evaluation cap keeps the result reproducible; the time cap
  // is a safety net (a shrink it stops says so, and then depends on the machine's speed).
  // Threads evaluating cases (and the ladder) in parallel; the results do not depend on it.
  int jobs = 1;
  Shard shard;
  // Called after each block of cases (claim, cases evaluated over every precision, of how many): progress lines.
  std::function<void(const Claim&, int done, int total)> progress;
  bool shrink = false;
  // The claim's tightness probe (ClaimRun::tightness) on its double row; the fault matrix skips it (no verdict uses it).
  bool tightness_probe = true;
  int shrink_evaluations = 200;
  double shrink_seconds = 60;
  CertifyScope certify = CertifyScope::none;
};

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
  int cases_budget = 0;  // the budget the sizes were spread over (needed to replay a case)
  StudyBudget budget = StudyBudget::standard;  // the study grids it ran with (full in a campaign)
  int cases_run = 0, cases_held = 0, cases_discarded = 0, cases_inconclusive = 0, cases_violated = 0;
  // Double violations that the ladder showed to be rounding artifacts: not counted as violated.
  int cases_rounding_artifact = 0;
  // Inconclusive double cases that hold at mp50 and mp100 (still counted as inconclusive in this row; the
  // claim's resolved verdict counts them as held).
  int cases_resolved = 0;
  std::optional<double> min_slack, min_slack_eps;  // over judged cases
  // The run's tightness factor: the smallest case strength over judged cases (claim.hpp, Condition::strength), the
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

inline constexpr int kCampaignCaseFactor = 10;
// The claim's case budget under these options: --cases, or its default (times kCampaignCaseFactor in a campaign).
int case_budget(const Claim& claim, const RunOptions& options);

// What a shard evaluates of one claim: per precision, the records of its cases in case order, and the evaluations of
// the cases its own fold would report (in memory only; finish_run evaluates again those it lacks).
struct ShardRun {
  const Claim* claim = nullptr;
  Shard shard;
  std::map<Precision, std::vector<CaseRecord>> records;
  std::map<std::pair<Precision, int>, Evaluation> kept;
};
// The case indices of options.shard (the one case of options.only_case).
std::vector<int> shard_cases(const Claim& claim, const RunOptions& options);
// Evaluates the shard's cases at every precision, and the ladder of its first ladder_checks violated and
// inconclusive double cases.
ShardRun evaluate_shard(const Claim& claim, const RunOptions& options);
// The claim's rows from all of its shards (each case in exactly one): the ladder's choices, counts and worst cases
// over all cases in case order, then shrinking and the tightness probe. The same result for any number of shards.
std::vector<ClaimRun> finish_run(const Claim& claim, const RunOptions& options, std::vector<ShardRun> parts);

// The size (0..100) of case `index` of a budget of `cases`: sizes sweep 0..100 as RapidCheck's do.
int case_size(int index, int cases);

// claim.evaluate (or evaluate_digits), with a numerical failure (numerics/numerical_failure.hpp) turned into a
// violated condition that names it: never a number from a failed decomposition, never an aborted run.
Evaluation evaluate_case(const Claim& claim, const Instance& inst, Precision p, Variant v);
Evaluation evaluate_case_digits(const Claim& claim, const Instance& inst, int digits, Variant v);

// The instance of case `index` of `claim` for `seed`: the replay primitive.
Instance generate_case(const Claim& claim, std::uint64_t seed, int index, int cases,
                       StudyBudget budget = StudyBudget::standard);

// The counts a claim-level verdict is computed from.
struct CaseCounts {
  int run = 0, held = 0, discarded = 0, inconclusive = 0, violated = 0;
};
// Empirical claims (required_support p0 < 1) are violated when a one-sided binomial test rejects
// "P(case holds) >= p0" at this level: P(Binomial(held + violated, p0) <= held) < kSupportTestLevel.
inline constexpr double kSupportTestLevel = 1e-3;
// P(Binomial(judged, p0) <= held): the p-value of the support test.
double support_p_value(int held, int judged, double p0);
// The probability that the support test at p0 rejects on `judged` cases when each holds with probability p (exact:
// Boost.Math's binomial; docs/verdicts.md, section 6). For p0 = 1 a single failure rejects: 1 - p^judged.
double support_test_power(int judged, double p0, double p);
// A run must show a finding (or a condition pinned as violated) with at least this probability for its `holds` to
// count against the finding; below it the run is underpowered for it (docs/verdicts.md, "Underpowered budgets").
inline constexpr double kPowerLevel = 0.99;
// The one-sided Clopper-Pearson upper bound at confidence kPowerLevel on a measured share: the largest rate of holding
// cases the measurement leaves plausible, under which the power is computed (the conservative side).
double share_upper_bound(const MeasuredShare& m);
// The smallest number of judged cases at which the support test at p0 shows the measured share with probability at
// least kPowerLevel (-1: none up to kMaxCasesToShow).
inline constexpr int kMaxCasesToShow = 20000;
int judged_cases_to_show(const MeasuredShare& m, double p0);
// The claim-level verdict from the counts (see docs/guide/reading-verdicts.md, "Reading a verdict").
// The support is required_support(claim, variant): a negative control with a control_factor is judged at a higher one.
ClaimVerdict aggregate_verdict(const Claim& claim, const CaseCounts& counts, Variant variant = Variant::claim);
ClaimVerdict aggregate_verdict(const Claim& claim, const ClaimRun& run);

// The verdict a variant should get by default: holds for the claim, violated for its negative control.
inline ClaimVerdict expected_verdict(Variant v) {
  return v == Variant::claim ? ClaimVerdict::holds : ClaimVerdict::violated;
}
// ... and for this claim: a documented finding is expected to be violated.
inline ClaimVerdict expected_verdict(const Claim& c, Variant v) {
  return v == Variant::claim && c.finding ? ClaimVerdict::violated : expected_verdict(v);
}

// One expected condition judged on its own: its counts over the double row's cases and the claim's support test.
struct ConditionVerdict {
  std::string name;
  ClaimVerdict expected = ClaimVerdict::holds;
  ClaimVerdict verdict = ClaimVerdict::vacuous;
  CaseCounts counts;
};

// One claim's verdict over its precision rows: the double row's cases with the ladder applied (rounding artifacts
// and resolved cases count as held, inconclusive cases violated at mp50 and mp100 as violated), then violated if
// any multiprecision row is. The exit status of `run` follows this verdict.
struct ResolvedVerdict {
  const Claim* claim = nullptr;
  Variant variant = Variant::claim;
  ClaimVerdict verdict = ClaimVerdict::vacuous;
  ClaimVerdict expected = ClaimVerdict::holds;
  CaseCounts counts;       // after the ladder
  int cases_resolved = 0;  // inconclusive in double, hold at mp50 and mp100
  int cases_rounding_artifact = 0;
  // The expected conditions (the claim variant only): each must come out as expected too.
  std::vector<ConditionVerdict> conditions;
  // Run below the claim's decided_from budget: a `holds` is reported `inconclusive` and `inconclusive` is expected;
  // a negative control caught anyway (violated), or a finding shown anyway, is as expected too. The same for each
  // expected condition: a `holds` is reported `inconclusive`, `inconclusive` is expected, and a condition pinned as
  // violated that is violated anyway stays as expected.
  bool underpowered = false;
  // Why, in one line: the claim's underpowered_reason for a study budget below decided_from; for a finding whose
  // measured share the support test cannot show at this run's number of judged cases, that power and the cases needed.
  std::string underpowered_why;
  bool underpowered_by_cases = false;
  bool conditions_as_expected() const {
    for (const ConditionVerdict& c : conditions)
      if (c.verdict != c.expected) return false;
    return true;
  }
  bool is_expected() const {
    // Below the deciding budget a violation the variant expects anyway (a negative control caught, a finding shown) is as expected.
    const bool caught_anyway = underpowered && verdict == ClaimVerdict::violated &&
                               (variant == Variant::negative_control || (claim && claim->finding && variant == Variant::claim));
    return (verdict == expected || caught_anyway) && conditions_as_expected();
  }
  bool expected_finding() const { return claim && claim->finding && variant == Variant::claim; }
};
// `rows` are one claim's runs, one per precision (non-empty).
ResolvedVerdict resolve(const std::vector<const ClaimRun*>& rows);

// One ClaimRun per requested precision, in the order requested.
std::vector<ClaimRun> run_claim(const Claim& claim, const RunOptions& options);
// Several claims: run_one(claim, options) for each, min(jobs, claims) claims at a time on the jobs between them; done(k,
// rows) is called for claim k in claim order (under a lock), as soon as it and every earlier claim are finished.
void run_claims(const std::vector<const Claim*>& claims, const RunOptions& options,
                const std::function<std::vector<ClaimRun>(const Claim&, const RunOptions&)>& run_one,
                const std::function<void(std::size_t, std::vector<ClaimRun>)>& done);

}  // namespace thm
