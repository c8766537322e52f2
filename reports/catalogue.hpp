// The catalogue (thmcheck catalogue; docs/catalogue.md): the claims, experiments and faults tables written from their
// registries (theorems/registry.hpp, experiments/experiment.hpp, numerics/fault.hpp) and a fault matrix's JSON, so
// that no table of those facts is typed by hand.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace thm {

// The whole Markdown page. `fault_matrix` is a `thmcheck faults --out` file's text (the committed docs/faults.json),
// `power` a `thmcheck power --out` file's (docs/power.json); ReportError where either is malformed.
std::string catalogue_markdown(const std::string& fault_matrix, const std::string& power);

// The claim registry as `thmcheck list --json` prints it and thmcheck.claims() returns it: one object per claim.
nlohmann::json claims_json();

}  // namespace thm
