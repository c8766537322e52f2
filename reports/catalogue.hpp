// The catalogue (thmcheck catalogue; docs/catalogue.md): the claims, experiments and faults tables written from their
// registries (theorems/registry.hpp, experiments/experiment.hpp, numerics/fault.hpp) and a fault matrix's JSON, so
// that no table of those facts is typed by hand.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace thm {

// The whole Markdown page, around the rendered fault table (fault_matrix_table of the committed docs/faults.json) and
// power table (power_table below, of docs/power.json).
std::string catalogue_markdown(const std::string& faults_md, const std::string& power_md);

// The resolving-power table of a `thmcheck power --out` file's text (docs/power.json): one row per claim of the registry,
// measured or why not; ReportError where the file is malformed.
std::string power_table(const std::string& power_json);

// The claim registry as `thmcheck list --json` prints it and thmcheck.claims() returns it: one object per claim.
nlohmann::json claims_json();

}  // namespace thm
