// The JSON of a run: summary.json (one resolved verdict per claim, and one entry per claim and precision with its
// worst case) and claims/<id>.json; the instance and evaluation objects the counterexample files share.
#pragma once

#include "reports/run_result.hpp"

#include <nlohmann/json.hpp>

namespace thm {

nlohmann::json instance_json(const Instance& inst);
nlohmann::json evaluation_json(const Evaluation& e);
nlohmann::json claim_run_json(const ClaimRun& run);

// One claim's resolved verdict: counts after the ladder, expected verdict, the finding if it is one.
nlohmann::json resolved_json(const ResolvedVerdict& v);
// {"seed": S, "variant": ..., "all_as_expected": b, "verdicts": [...], "findings": [ids], "claims": [...]}.
// Deterministic: same runs, same bytes.
nlohmann::json summary_json(const RunResult& result);
// claims/<id>.json: the resolved verdict, every row with its replay command, the environment stamp.
nlohmann::json claim_json(const ClaimResult& result);

}  // namespace thm
