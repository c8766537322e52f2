// Resolving power (thmcheck power; docs/verdicts.md, "Resolving power"): how much stronger than stated a claim
// would have to be before a default run notices. Each case's strength (Condition::strength) is the largest factor
// the claim's knob could be strengthened by with that case still holding; over seeds, the pooled strengths give
// the probability that a default-budget run of the claim strengthened by k says `violated`.
#pragma once

#include "properties/runner.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace thm {

struct PowerOptions {
  std::vector<std::uint64_t> seeds;  // one default-budget run per seed
  RunOptions run;                    // precisions, budget, jobs, cases (the variant is always the claim)
};

struct PowerPoint {
  double factor = 1;
  double power = 0;         // P(a run of the claim strengthened by `factor` says violated), conservative estimate
  double seeds_caught = 0;  // share of the measured runs that would have said violated
};

struct ClaimPower {
  const Claim* claim = nullptr;
  std::string knob;    // what a factor scales: the claim's power_knob, or the tolerated failure share (trends)
  std::string status;  // "measured", "finding" (the claim is expected violated), "not scalable" (no condition has a
                       // strength: its control drops a hypothesis instead)
  int seeds = 0;
  int judged_per_run = 0;  // the fewest judged cases of one run (cases for trends: held + violated)
  // t: the largest factor every judged case of every run survives (+inf: none could be caught at any factor).
  double strength = 0;
  // k*: the smallest factor a default run catches with probability >= 0.99; k_999 likewise for 0.999 (the power a
  // negative control must have). +inf when no factor reaches it.
  double resolving_factor = 0, factor_999 = 0;
  std::vector<double> run_strength;  // per seed
  std::vector<PowerPoint> grid;       // kPowerGrid
  double control_factor = 0, control_power = 0;  // the claim's control_factor and its power, when it has one
};

// What a strength factor scales for `claim`: an empirical trend's tolerated failure share, else its power_knob.
std::string power_knob_of(const Claim& claim);

// The factors every report prints the power at.
inline const std::vector<double> kPowerGrid{1.1, 1.25, 1.5, 2, 4, 10, 100, 1e3, 1e4, 1e6, 1e10, 1e20, 1e50, 1e100};
// The power a resolving factor stands for, and the power a negative control must have (docs/verdicts.md).
inline constexpr double kResolvingPower = 0.99, kControlPower = 0.999;
// The confidence of the bounds the estimates use (the hit share's lower bound, the hold rate's upper bound).
inline constexpr double kPowerConfidence = 0.95;

// Cases: the pooled strengths of judged cases over `runs` of `judged` cases each. The power at k is
// 1 - (1 - F(k))^judged, F(k) the share of cases with strength below k, taken at its lower 95% Clopper-Pearson bound.
double case_power(const std::vector<double>& pooled_strengths, int judged, double factor);
// Trends: the support test at p'(k) = 1 - (1 - p0)/k over `judged` cases, with the hold rate at its upper 95% bound
// from `held` of `pooled` cases.
double support_power(int held, int pooled, int judged, double p0, double factor);
// The largest factor a trend run with `held` of `judged` cases survives: (1 - p0) / (1 - p_up), p_up the largest
// support the one-sided binomial test does not reject at kSupportTestLevel.
double support_strength(int held, int judged, double p0);

// The power of a default run to rule out the claim's named alternative (ClaimInfo::alternative_support): the support
// test over the default cases, all judged, when the true hold rate is the alternative's. NaN where none is named.
double alternative_power(const Claim& claim);
// "hold rate 0.7 (power 0.995 at 120 cases)", or empty where none is named.
std::string describe_alternative(const Claim& claim);
// A finding's power to show at its default cases (a default run's support test rejects p0): the share its document
// measured, at its 95% upper bound (share_upper_bound, properties/verdicts.hpp), the one a run's expectation uses. NaN for a
// finding that no case count decides (no measured share: a study's grid does) and for a claim that is not a finding.
double finding_power(const Claim& claim);
// "shows with probability 0.97 at 600 cases (measured share 2142/3000)", or why there is none; empty for a claim.
std::string describe_finding_power(const Claim& claim);

// Runs the claim (never its control) on every seed at the run options' budget and estimates its resolving power.
// progress(seed index) after each seed.
ClaimPower measure_power(const Claim& claim, const PowerOptions& options, const std::function<void(int)>& progress = {});

}  // namespace thm
