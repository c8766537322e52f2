// The fault matrix as JSON (thmcheck faults --out FILE; README, "Fault matrix"):
//   {"seed", "precisions", "cases", "claims": [ids], "baseline_unexpected": [{"id", "verdict"|"exception"}],
//    "faults": [{"name", "where", "description", "caught_by": [ids], "exceptions": [{"id", "what"}]}],
//    "caught": k, "total": M}
// No wall-clock times: the same seed and build give the same bytes.
#pragma once

#include "properties/fault_matrix.hpp"

#include <string>

namespace thm {

std::string fault_matrix_json(const FaultMatrix& m);

}  // namespace thm
