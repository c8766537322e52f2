// The pages of a report, each built once as a document (reports/page.hpp) and written as HTML and Markdown:
// the run's summary (index.html, summary.md), one page per claim (claims/<id>.html, claims/<id>.md), and an
// experiment's page of figures.
#pragma once

#include "reports/page.hpp"
#include "reports/run_result.hpp"

#include <string>
#include <vector>

namespace thm {

// The summary first (what had the expected verdict, what did not, what was undecided and why), then one row per
// claim, the findings, the proof map and one row per claim and precision.
Page summary_page(const RunResult& result);
// Top-down: the statement, the verdict, the figure of the first worst case and the tightness; then what the claim rests
// on; then per precision the slack histogram, the ladder, certificates, the shrunk counterexample, the worst case and
// the command that replays it.
Page claim_page(const ClaimResult& result);
// A page of figures for `thmcheck experiment`: each plot with its caption (what the paper claims, what was measured).
Page experiment_page(const std::string& title, const std::string& intro, std::vector<Figure> figures);

}  // namespace thm
