// What a run produced, as every writer of its report reads it: per claim, its rows and its resolved verdict
// (properties/claim_result.hpp), in catalogue order.
#pragma once

#include "properties/claim_result.hpp"

#include <cstdint>
#include <vector>

namespace thm {

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
