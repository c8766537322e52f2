// The fault matrix as JSON (thmcheck faults --out FILE; docs/guide/fault-matrix.md, "Fault matrix"):
//   {"seed", "precisions", "cases", "claims": [ids], "baseline_unexpected": [{"id", "verdict"|"exception"}],
//    "control_baseline_unexpected": [...],
//    "faults": [{"name", "kind", "description", "location", "written_for", "checks", "reached_by": [ids],
//                "caught_by": [ids], "caught_by_control": [ids], "caught_by_general": [ids], "exceptions": [{"id", "what"}]}],
//    "caught": k, "total": M, "model": {"caught", "total"}, "checker": {"caught", "total"}}
// No wall-clock times: the same seed and build give the same bytes.
#pragma once

#include "properties/fault_matrix.hpp"

#include <string>

namespace thm {

std::string fault_matrix_json(const FaultMatrix& m);

// The fault table of docs/catalogue.md (thmcheck faults --table FILE, thmcheck catalogue) from a matrix's JSON: one row per fault of this build's
// catalogue (numerics/fault.hpp: kind, description, the files its points are in, found by scanning), with the claims
// that caught it in that matrix ("not measured" for a fault the matrix did not run). ReportError on a malformed file.
std::string fault_matrix_table(const std::string& matrix_json);

}  // namespace thm
