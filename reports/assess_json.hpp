// thmcheck assess --json and thmcheck.assess in Python: one document for both (docs/guide/python.md, "assess").
#pragma once

#include "properties/assess.hpp"

#include <nlohmann/json.hpp>

#include <vector>

namespace thm {

// {"family", "claims": [{"id", "applicable", "not_applicable"?, "classification", "rungs": [{"precision", "digits",
// "verdict", "condition", "measured", "relation", "bound", "margin", "agreeing_digits"}], "quantities": [{"name",
// "values": [one per rung, null where absent]}], "certification"?: {"verdict", "digits", "note", "conditions":
// [{"name", "margin_lower", "margin_upper", "verdict"}]}}]}. Numbers that are not finite are the strings "nan", "inf".
nlohmann::ordered_json assess_json(const Instance& inst, const std::vector<ClaimAssessment>& assessments);

}  // namespace thm
