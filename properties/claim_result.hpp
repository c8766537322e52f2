// One claim's result: its rows (one per precision) and its verdict, resolved once when the rows are in
// (properties/verdicts.hpp, resolve) and never again. Every engine that judges a claim (run, merge, stability, power,
// the fault matrix, assess) builds one through resolve_claim.
#pragma once

#include "properties/claim_run.hpp"
#include "properties/verdicts.hpp"

#include <vector>

namespace thm {

// One claim of a run.
struct ClaimResult {
  std::vector<ClaimRun> rows;  // one per precision, in the order requested (non-empty)
  ResolvedVerdict verdict;     // resolve(rows)
  const Claim& claim() const { return *verdict.claim; }
  std::vector<const ClaimRun*> row_pointers() const;
};
// Resolves `rows` (one claim's, non-empty): the one place a run's resolved verdict is computed.
ClaimResult resolve_claim(std::vector<ClaimRun> rows);

}  // namespace thm
