// summary.json: one resolved verdict per claim, and one entry per claim and precision with its worst case.
#pragma once

#include "properties/runner.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <vector>

namespace thm {

nlohmann::json instance_json(const Instance& inst);
nlohmann::json evaluation_json(const Evaluation& e);
nlohmann::json claim_run_json(const ClaimRun& run);

// One claim's resolved verdict: counts after the ladder, expected verdict, the finding if it is one.
nlohmann::json resolved_json(const ResolvedVerdict& v);
// {"seed": S, "variant": ..., "all_as_expected": b, "verdicts": [...], "findings": [ids], "claims": [...]}.
// Deterministic: same runs, same bytes.
nlohmann::json summary_json(std::uint64_t seed, Variant variant, const std::vector<ClaimRun>& runs);

}  // namespace thm
