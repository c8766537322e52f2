// The resolved verdict of every selected claim on each of many seeds (`thmcheck stability`): seeds run in worker
// processes, each with its own MPFR state and nothing shared; the table comes back in seed order, so it does not depend
// on the number of workers.
#pragma once

#include "properties/runner.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace thm {

// One claim on one seed: the resolved verdict, the expected one, and ResolvedVerdict::is_expected(), the rule run's exit
// status follows (an underpowered claim expects inconclusive, a finding its pinned conditions too).
struct SeedVerdict {
  ClaimVerdict verdict = ClaimVerdict::vacuous;
  ClaimVerdict expected = ClaimVerdict::holds;
  bool as_expected = false;
};

struct SeedSweep {
  std::vector<std::uint64_t> seeds;
  std::vector<const Claim*> claims;
  std::vector<std::vector<SeedVerdict>> verdicts;  // verdicts[k][c]: claims[c] on seeds[k]
  // Claim c's seeds whose resolved verdict is not as expected, in seed order, with that verdict.
  std::vector<std::pair<std::uint64_t, ClaimVerdict>> unexpected(std::size_t c) const;
  int unexpected_total() const;
};

// Called in the parent while the workers run (about every 0.2 s): claim runs done, of total, and the number of workers.
using SweepProgress = std::function<void(std::size_t done, std::size_t total, int workers)>;

// Runs `claims` on every seed with `options` (its seed replaced), in min(jobs, seeds) worker processes: seed k in worker
// k mod jobs, each worker writing its lines to its own file in a scratch directory, read back in seed order. Throws
// std::runtime_error when a worker cannot start or fails (its error is on stderr).
SeedSweep sweep_seeds(const std::vector<const Claim*>& claims, const std::vector<std::uint64_t>& seeds, const RunOptions& options,
                      int jobs, const SweepProgress& progress = {});

}  // namespace thm
