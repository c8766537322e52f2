#include "reports/describe.hpp"

#include <cmath>
#include <cstdio>

namespace thm {

std::string scientific(double x) {
  if (!std::isfinite(x)) return std::isnan(x) ? "nan" : (x > 0 ? "inf" : "-inf");
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3e", x);
  return buf;
}

std::string describe_counts(const ClaimRun& r) {
  return std::to_string(r.cases_run) + " run, " + std::to_string(r.cases_held) + " held, " + std::to_string(r.cases_discarded) +
         " discarded, " + std::to_string(r.cases_inconclusive) + " inconclusive, " + std::to_string(r.cases_violated) + " violated" +
         (r.cases_rounding_artifact ? ", " + std::to_string(r.cases_rounding_artifact) + " rounding artifacts" : std::string()) +
         (r.cases_resolved ? ", " + std::to_string(r.cases_resolved) + " resolved at mp50/mp100" : std::string());
}

std::vector<std::pair<std::string, std::string>> ladder_outcomes(const ClaimRun& r) {
  std::string genuine, artifacts, resolved, undecided;
  for (const CaseRecord& rec : r.records) {
    std::string* out = rec.ladder == LadderResult::genuine             ? &genuine
                       : rec.ladder == LadderResult::rounding_artifact ? &artifacts
                       : rec.ladder == LadderResult::resolved          ? &resolved
                       : rec.ladder == LadderResult::undecided         ? &undecided
                                                                        : nullptr;
    if (out) *out += (out->empty() ? "cases " : ", ") + std::to_string(rec.index);
  }
  std::vector<std::pair<std::string, std::string>> lines;
  if (!artifacts.empty()) lines.emplace_back("rounding artifacts (violated in double, hold at mp50 and mp100; not counted as violations)", artifacts);
  if (!resolved.empty()) lines.emplace_back("resolved (inconclusive in double, hold at mp50 and mp100)", resolved);
  if (!genuine.empty()) lines.emplace_back("genuine (violated or inconclusive in double, violated at mp50 and at mp100)", genuine);
  if (!undecided.empty()) lines.emplace_back("undecided (the rungs disagree)", undecided);
  return lines;
}

std::vector<std::string> describe_conditions(const ResolvedVerdict& v) {
  std::vector<std::string> lines;
  for (const ConditionVerdict& c : v.conditions)
    lines.push_back(c.name + ": " + std::string(to_string(c.verdict)) + " (held " + std::to_string(c.counts.held) + " of " +
                    std::to_string(c.counts.held + c.counts.violated) + " judged; expected " + std::string(to_string(c.expected)) + ")" +
                    (c.verdict == c.expected ? "" : "   <-- unexpected"));
  return lines;
}

std::string describe_certified(const ClaimRun& run) {
  if (run.certifications.empty()) return {};
  int holds = 0, violated = 0;
  for (const CaseCertification& c : run.certifications) {
    holds += c.certification.verdict == CertifiedVerdict::holds;
    violated += c.certification.verdict == CertifiedVerdict::violated;
  }
  std::string out = "certified " + std::to_string(holds + violated) + " of " + std::to_string(run.certifications.size());
  if (holds + violated) {
    out += " (";
    if (holds) out += std::to_string(holds) + " holds";
    if (holds && violated) out += ", ";
    if (violated) out += std::to_string(violated) + (violated == 1 ? " certified counterexample" : " certified counterexamples");
    out += ")";
  }
  return out;
}

int tightest_certified(const Certification& c) {
  int best = -1;
  for (std::size_t i = 0; i < c.conditions.size(); ++i)
    if (best < 0 || c.conditions[i].margin_lower < c.conditions[static_cast<std::size_t>(best)].margin_lower) best = static_cast<int>(i);
  return best;
}

std::string describe_resolved(const ResolvedVerdict& v) {
  std::string line(to_string(v.verdict));
  if (v.underpowered && v.is_expected() && v.verdict == ClaimVerdict::inconclusive)
    return line + (v.underpowered_by_cases ? " (underpowered at this number of cases, as expected: " + v.underpowered_why + ")"
                                           : " (underpowered at this budget, as expected: " + v.underpowered_why + "; run --budget full to decide)");
  if (v.underpowered && v.is_expected() && v.verdict == ClaimVerdict::violated && v.expected != ClaimVerdict::violated)
    return line + " (underpowered at this budget, where " + std::string(to_string(v.expected)) + " is expected; caught anyway, as expected)";
  if (v.verdict == v.expected && !v.conditions_as_expected())
    line += " (as expected, but a condition's verdict changed: see below)   <-- unexpected";
  else if (v.expected_finding() && v.is_expected())
    line += " (expected: finding: " + v.claim->finding->reason + "; " + v.claim->finding->doc + ")";
  else if (!v.is_expected())
    line += " (expected " + std::string(to_string(v.expected)) +
            (v.expected_finding() ? ": the finding of " + v.claim->finding->doc + " no longer shows" : std::string()) +
            ")   <-- unexpected";
  return line;
}

std::string describe_expected(const ResolvedVerdict& v) {
  const std::string expected(to_string(v.expected));
  return v.is_expected() && v.verdict != v.expected ? expected + " or " + std::string(to_string(v.verdict)) + " (underpowered)" : expected;
}

RunSummary summarize_run(const RunResult& result) {
  RunSummary out;
  std::size_t expected = 0, findings = 0;
  for (const ClaimResult& c : result.claims) {
    const ResolvedVerdict& v = c.verdict;
    expected += v.is_expected();
    findings += v.expected_finding() && v.is_expected();
    if (!v.is_expected())
      out.unexpected.emplace_back(v.claim->id, describe_resolved(v));
    else if (v.verdict == ClaimVerdict::inconclusive || v.verdict == ClaimVerdict::vacuous)
      out.undecided.emplace_back(v.claim->id, describe_resolved(v));
  }
  out.headline = std::to_string(expected) + " of " + std::to_string(result.claims.size()) + " claims have the expected verdict" +
                 (findings ? " (" + std::to_string(findings) + " of them documented findings)" : "") + ".";
  return out;
}

std::vector<std::size_t> leading_conditions(const std::vector<Condition>& conditions) {
  const std::size_t n = conditions.size();
  std::vector<std::size_t> rows;
  if (n <= 2 * kLeadingEdge + 1) {
    for (std::size_t i = 0; i < n; ++i) rows.push_back(i);
    return rows;
  }
  const auto rank = [](CaseVerdict v) { return v == CaseVerdict::violated ? 0 : v == CaseVerdict::inconclusive ? 1 : 2; };
  std::size_t tightest = 0;
  for (std::size_t i = 1; i < n; ++i) {
    const Condition &a = conditions[i], &b = conditions[tightest];
    if (rank(a.verdict) < rank(b.verdict) || (rank(a.verdict) == rank(b.verdict) && a.relative_slack < b.relative_slack)) tightest = i;
  }
  for (std::size_t i = 0; i < n; ++i)
    if (i < kLeadingEdge || i + kLeadingEdge >= n || i == tightest) rows.push_back(i);
  return rows;
}

std::map<std::string, int> discard_reasons(const ClaimRun& r) {
  std::map<std::string, int> reasons;
  for (const CaseRecord& rec : r.records)
    if (rec.outcome.verdict == CaseVerdict::discarded) ++reasons[rec.discard_reason];
  return reasons;
}

std::string replay_command(const ClaimRun& r) {
  std::string cmd = "thmcheck run --claims " + r.claim->id + " --seed " + std::to_string(r.seed) + " --cases " +
                    std::to_string(r.case_count) + " --precision " + std::string(precision_name(r.precision));
  // The study budget sets the instance's grid (the generators read it), so a case of a full budget replays only with it;
  // a campaign's cases are full-budget cases of its case count.
  if (r.budget == StudyBudget::full) cmd += " --budget full";
  if (r.worst_case) cmd += " --case " + std::to_string(*r.worst_case);
  if (r.variant == Variant::negative_control) cmd += " --negative-control";
  return cmd;
}

}  // namespace thm
