// The fault matrix (mutation score): which claims catch each planted bug of numerics/fault.hpp. The selected claims
// run once with no fault (the baseline), one claim at a time, recording which fault points each one reaches; then per
// fault, the claims that reached its points run again with it active. A claim that never reaches a fault's points
// runs the same code with it active, so its cell is the baseline's (reported as not reached, never as caught).
// A fault is caught by a claim whose resolved verdict differs from its expected one (an exception in the claim
// counts, and is reported as such). A checker fault (a bug in a claim's own bound, allowance or statistics) is also
// caught by a negative control that stops being caught: the baseline then runs every claim's control too.
// A claim or control that is already not as expected in the baseline would catch everything: it is reported and never
// counted.
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

// The cases a claim runs in the matrix: min(cases, its default cases) when given; otherwise a quarter of its
// default cases, at least 1 and at most kFaultDefaultMaxCases, so that the long studies (a few cases of tens of
// seconds each) run one case and the cheap identities and bounds ten.
inline constexpr int kFaultCaseDivisor = 4, kFaultDefaultMaxCases = 10;
int fault_matrix_cases(const Claim& claim, std::optional<int> cases);

// One claim (or its negative control) under one fault, or in the baseline: its resolved verdict, or the exception that
// stopped it.
struct FaultCell {
  const Claim* claim = nullptr;
  std::optional<ClaimVerdict> verdict;  // absent when the claim threw
  std::string exception;
  bool resolved_as_expected = false;  // ResolvedVerdict::is_expected(): the verdict and every expected condition
  bool as_expected() const { return verdict && resolved_as_expected; }
};

struct FaultOutcome {
  FaultInfo fault;
  std::vector<FaultCell> cells;                 // the claims, one per claim, in claim order
  std::vector<FaultCell> control_cells;         // checker faults: the negative controls, in claim order (else empty)
  std::vector<const Claim*> caught_by;          // claims as expected in the baseline and not under this fault
  std::vector<const Claim*> caught_by_control;  // checker faults: controls caught in the baseline and not under it
  std::vector<const Claim*> reached_by;         // claims (or their controls) that reached its points
  double seconds = 0;                           // wall clock (terminal only)
  bool caught() const { return !caught_by.empty() || !caught_by_control.empty(); }
  // Catching claims not written for this fault (FaultInfo::written_for).
  std::vector<const Claim*> caught_by_general() const;
};

struct FaultMatrix {
  std::uint64_t seed = 0;
  std::vector<Precision> precisions;
  std::optional<int> cases;
  std::vector<const Claim*> claims;
  std::vector<FaultCell> baseline;          // no fault active
  std::vector<FaultCell> control_baseline;  // no fault active, the negative controls (when a checker fault is selected)
  std::vector<FaultOutcome> faults;
  int caught() const;
  int caught(FaultKind kind) const;
  int total(FaultKind kind) const;
};

// Runs the baseline and every fault in order; `progress(outcome, k, total)` after each fault (k from 1), and
// `progress(baseline-as-outcome, 0, total)` after the baseline. The active fault is reset to none on return.
FaultMatrix run_fault_matrix(const FaultMatrixOptions& options,
                             const std::function<void(const FaultOutcome&, std::size_t, std::size_t)>& progress = {});

}  // namespace thm
