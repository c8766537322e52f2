// The verdict statistics: a claim's verdict from its counts (the support test and its power), and the one resolved
// verdict of a claim from its precision rows (docs/verdicts.md; docs/guide/reading-verdicts.md).
#pragma once

#include "properties/claim_run.hpp"

#include <string>
#include <vector>

namespace thm {

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

}  // namespace thm
