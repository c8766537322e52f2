#include "reports/junit_xml.hpp"

#include "reports/describe.hpp"
#include "reports/environment.hpp"
#include "reports/escape.hpp"

namespace thm {

// One test case per claim, from its resolved verdict: a failure when it is not the expected one, `skipped` with the
// finding's reason for a documented finding that is violated as expected; the precision rows in system-out.
std::string junit_xml(const RunResult& result) {
  int failures = 0, skipped = 0;
  std::string cases;
  for (const ClaimResult& claim : result.claims) {
    const ResolvedVerdict& v = claim.verdict;
    const Claim& c = claim.claim();
    cases += "    <testcase classname=\"" + xml_escape(c.id) + "\" name=\"" + xml_escape(c.id) + "\">\n";
    if (!v.is_expected()) {
      ++failures;
      const ClaimRun& first = claim.rows.front();
      cases += "      <failure message=\"" + xml_escape("verdict " + describe_resolved(v) + "; replay: " + replay_command(first)) + "\"/>\n";
    } else if (v.expected_finding()) {
      ++skipped;
      cases += "      <skipped message=\"" + xml_escape("finding (expected violated): " + c.finding->reason + "; " + c.finding->doc) + "\"/>\n";
    } else if (v.underpowered && v.verdict != ClaimVerdict::violated) {
      ++skipped;
      cases += "      <skipped message=\"" + xml_escape(std::string(v.underpowered_by_cases ? "underpowered at this number of cases: " : "underpowered at this budget: ") + v.underpowered_why) + "\"/>\n";
    }
    std::string out;
    for (const ClaimRun& r : claim.rows) out += std::string(precision_name(r.precision)) + ": " + std::string(to_string(r.verdict)) + ", " + describe_counts(r) + "\n";
    cases += "      <system-out>" + xml_escape(out + c.statement) + "</system-out>\n    </testcase>\n";
  }
  const std::string totals = "tests=\"" + std::to_string(result.claims.size()) + "\" failures=\"" + std::to_string(failures) + "\" skipped=\"" +
                             std::to_string(skipped) + "\"";
  std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x += "<testsuites name=\"thmcheck\" " + totals + ">\n";
  x += "  <testsuite name=\"thmcheck." + std::string(to_string(result.variant)) + "\" " + totals + ">\n";
  x += "    <properties>\n      <property name=\"seed\" value=\"" + std::to_string(result.seed) + "\"/>\n";
  for (const auto& [k, v] : environment_stamp())
    x += "      <property name=\"" + xml_escape(k) + "\" value=\"" + xml_escape(v) + "\"/>\n";
  x += "    </properties>\n" + cases + "  </testsuite>\n</testsuites>\n";
  return x;
}

}  // namespace thm
