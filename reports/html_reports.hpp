// Self-contained HTML reports (inline CSS and SVG, no scripts, no network): index.html with one row
// per claim and precision and the proof map, and claims/<id>.html per claim.
#pragma once

#include "properties/runner.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace thm {

std::string index_html(std::uint64_t seed, Variant variant, const std::vector<ClaimRun>& runs);
std::string claim_html(const std::vector<const ClaimRun*>& runs);

// Observations named "series[var=x]" (or "series[x]") grouped into plot series per variable:
// variable -> series name -> (x, y). Used by the claim pages and tested on its own.
using ObservationSeries = std::map<std::string, std::map<std::string, std::pair<std::vector<double>, std::vector<double>>>>;
ObservationSeries observation_series(const std::vector<std::pair<std::string, double>>& observations);

// A page around inline SVG plots, for `thmcheck experiment`.
std::string experiment_html(const std::string& title, const std::string& intro, const std::vector<std::string>& svgs);

}  // namespace thm
