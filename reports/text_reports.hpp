// Reports for people and CI systems, from the same runs as summary.json: a Markdown summary (fits a
// CI job summary), JUnit XML (one test case per claim and precision), and one Markdown + JSON page
// per claim with the worst case and the command that replays it.
#pragma once

#include "properties/runner.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace thm {

std::string summary_markdown(std::uint64_t seed, Variant variant, const std::vector<ClaimRun>& runs);
std::string junit_xml(std::uint64_t seed, Variant variant, const std::vector<ClaimRun>& runs);

// `runs` are the runs of one claim (one per precision).
std::string claim_markdown(const std::vector<const ClaimRun*>& runs);
nlohmann::json claim_json(const std::vector<const ClaimRun*>& runs);

// The command that replays a run's worst case (or the run itself when it has none).
std::string replay_command(const ClaimRun& run);

std::string xml_escape(const std::string& s);

// The precision ladder's outcome as (what, "cases i, j, ...") lines: rounding artifacts, genuine, undecided.
std::vector<std::pair<std::string, std::string>> ladder_outcomes(const ClaimRun& run);
// A claim's resolved verdict in words: "holds", "violated (expected: finding: REASON; DOC)", or the verdict with
// "(expected X)   <-- unexpected".
std::string describe_resolved(const ResolvedVerdict& v);
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

}  // namespace thm
