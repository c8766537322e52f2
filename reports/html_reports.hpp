// Self-contained HTML reports (inline CSS and SVG, no scripts, no network): index.html with one row
// per claim and precision and the proof map, and claims/<id>.html per claim.
#pragma once

#include "reports/run_result.hpp"

#include <string>
#include <vector>

namespace thm {

std::string index_html(const RunResult& result);
std::string claim_html(const ClaimResult& result);

// An evaluation's series as plots, one per variable (in order of first appearance), trajectories (t) and wide
// ranges on a log axis. Used by the claim pages and tested on its own.
std::vector<std::string> series_plots(const std::vector<Series>& series, const std::string& title);

// A page of figures for `thmcheck experiment`: inline SVG plots, each with its caption (what the paper claims,
// what was measured).
struct Figure {
  std::string svg, caption;
};
std::string experiment_html(const std::string& title, const std::string& intro, const std::vector<Figure>& figures);

}  // namespace thm
