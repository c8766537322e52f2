// What a run produced, as every writer of its report reads it: per claim, its rows (one per precision) and its
// resolved verdict, resolved once when the claim's rows are in (properties/runner.hpp, resolve) and never again.
#pragma once

#include "properties/runner.hpp"

#include <cstdint>
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

// A `thmcheck run` (or `merge`): the claims in catalogue order.
struct RunResult {
  std::uint64_t seed = 1;
  Variant variant = Variant::claim;
  std::vector<ClaimResult> claims;
  bool all_as_expected() const;
};
// The rows of several claims, grouped by claim in order of first appearance and each group resolved.
RunResult resolve_run(std::uint64_t seed, Variant variant, std::vector<ClaimRun> runs);

}  // namespace thm
