// summary.json: one entry per claim and precision (issue 2's schema), plus the worst case.
#pragma once

#include "properties/runner.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <vector>

namespace thm {

nlohmann::json instance_json(const Instance& inst);
nlohmann::json evaluation_json(const Evaluation& e);
nlohmann::json claim_run_json(const ClaimRun& run);

// {"seed": S, "variant": ..., "claims": [...]}. Deterministic: same runs, same bytes.
nlohmann::json summary_json(std::uint64_t seed, Variant variant, const std::vector<ClaimRun>& runs);

}  // namespace thm
