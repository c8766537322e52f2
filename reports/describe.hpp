// What every format of a report says about a run in the same words: counts, the ladder's outcomes, a resolved verdict
// and its conditions, certificates, discard reasons, the rows a worst-case table leads with, and the one command that
// replays a run's worst case. The writers (json_reports, pages, junit_xml) and the terminal
// (cli/) format these; none computes them again.
#pragma once

#include "properties/runner.hpp"
#include "reports/run_result.hpp"

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace thm {

// A number as every page prints it: four significant digits (%.3e), and nan, inf, -inf.
std::string scientific(double x);
// A row's counts: "N run, H held, D discarded, I inconclusive, V violated" (and rounding artifacts, resolved cases).
std::string describe_counts(const ClaimRun& run);
// The precision ladder's outcome as (what, "cases i, j, ...") lines: rounding artifacts, genuine, undecided.
std::vector<std::pair<std::string, std::string>> ladder_outcomes(const ClaimRun& run);
// A claim's resolved verdict in words: "holds", "violated (expected: finding: REASON; DOC)", or the verdict with
// "(expected X)   <-- unexpected".
std::string describe_resolved(const ResolvedVerdict& v);
// The verdict a claim was expected to get, as the summary's "expected" column shows it: "inconclusive or violated
// (underpowered)" where a run below the deciding budget caught a control (or showed a finding) anyway.
std::string describe_expected(const ResolvedVerdict& v);
// What a reader needs first about a run, the opening of every summary page (index.html, summary.md): how many claims
// have the expected verdict and how many of those are documented findings; then each claim whose verdict is not the
// expected one, and each other claim left undecided (inconclusive or vacuous, as expected), as (id, describe_resolved)
// pairs, in run order: a claim is listed once.
struct RunSummary {
  std::string headline;  // "N of M claims have the expected verdict (F of them documented findings)."
  std::vector<std::pair<std::string, std::string>> unexpected, undecided;
};
RunSummary summarize_run(const RunResult& result);
// A finding's conditions, one line each: verdict, held of judged, expected.
std::vector<std::string> describe_conditions(const ResolvedVerdict& v);
// The rows of a worst case's condition table a claim page shows up front, in order: the first and the last
// kLeadingEdge conditions and the tightest one (the worst verdict, then the smallest relative slack); every row when
// there are few. The pages fold the full table under <details> when rows are left out.
inline constexpr std::size_t kLeadingEdge = 3;
std::vector<std::size_t> leading_conditions(const std::vector<Condition>& conditions);
// The double row's interval certificates in words: "certified K of N (H holds, V violated)", with "certified
// counterexample" for a certified violation; empty without certificates.
std::string describe_certified(const ClaimRun& run);
// The condition of a certificate with the smallest enclosed margin (its lower end): the one closest to failing; -1 when
// the certificate has no condition.
int tightest_certified(const Certification& c);
// Why cases were discarded, with counts (hypothesis false; never a pass).
std::map<std::string, int> discard_reasons(const ClaimRun& run);
// The command that replays a run's worst case (or the run itself when it has none):
// thmcheck run --claims ID --seed S --cases N --precision P [--case I] [--negative-control]. Every report that shows a
// replay command shows this one.
std::string replay_command(const ClaimRun& run);

}  // namespace thm
