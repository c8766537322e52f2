// The fault matrix (mutation score): which claims catch each planted bug of numerics/fault.hpp. The selected claims
// run once with no fault (the baseline), then once per fault with that fault active; a fault is caught by a claim
// whose resolved verdict differs from its expected one (an exception in the claim counts, and is reported as such).
// A claim that is already not as expected in the baseline would catch everything: it is reported and never counted.
#pragma once

#include "numerics/fault.hpp"
#include "properties/runner.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace thm {

struct FaultMatrixOptions {
  std::vector<Fault> faults;
  std::vector<const Claim*> claims;
  RunOptions run;        // precisions, seed, jobs, budget (variant: the claims; no shrinking, no tightness probe)
  std::optional<int> cases;  // per claim: fault_matrix_cases(claim, cases)
};

// The cases a claim runs in the matrix: min(cases, its default budget) when given; otherwise a quarter of its
// default budget, at least 1 and at most kFaultDefaultMaxCases, so that the long studies (a few cases of tens of
// seconds each) run one case and the cheap identities and bounds ten.
inline constexpr int kFaultCaseDivisor = 4, kFaultDefaultMaxCases = 10;
int fault_matrix_cases(const Claim& claim, std::optional<int> cases);

// One claim under one fault (or the baseline): its resolved verdict, or the exception that stopped it.
struct FaultCell {
  const Claim* claim = nullptr;
  std::optional<ClaimVerdict> verdict;  // absent when the claim threw
  std::string exception;
  bool resolved_as_expected = false;  // ResolvedVerdict::is_expected(): the verdict and every expected condition
  bool as_expected() const { return verdict && resolved_as_expected; }
};

struct FaultOutcome {
  FaultInfo fault;
  std::vector<FaultCell> cells;            // one per claim, in claim order
  std::vector<const Claim*> caught_by;     // claims as expected in the baseline and not under this fault
  double seconds = 0;                      // wall clock (terminal only)
};

struct FaultMatrix {
  std::uint64_t seed = 0;
  std::vector<Precision> precisions;
  std::optional<int> cases;
  std::vector<const Claim*> claims;
  std::vector<FaultCell> baseline;         // no fault active
  std::vector<FaultOutcome> faults;
  int caught() const;
};

// Runs the baseline and every fault in order; `progress(outcome, k, total)` after each fault (k from 1), and
// `progress(baseline-as-outcome, 0, total)` after the baseline. The active fault is reset to none on return.
FaultMatrix run_fault_matrix(const FaultMatrixOptions& options,
                             const std::function<void(const FaultOutcome&, std::size_t, std::size_t)>& progress = {});

}  // namespace thm
