// The protocols of [G]'s Algorithm-1 claims (the finite-data objective; docs/derivations/goel.finite_data.md) and their
// generators, which the [G] experiments reuse. Algorithm 1 itself and its studies (data draws, step sizes, baselines,
// gap fits) are numerics/models/goel/algorithm1_studies.hpp; the exponent fits numerics/statistics.hpp.
#pragma once

#include "numerics/models/goel/algorithm1_studies.hpp"
#include "numerics/statistics.hpp"
#include "theorems/claim.hpp"

#include <array>
#include <string>
#include <vector>

namespace thm {

// The readings of [G]'s finite data (docs/derivations/goel.finite_data_limit_attention.md, "Readings"): what a claim that trains on
// data trains on (ClaimInfo::reading is reading_id of one of them).
enum class FiniteReading {
  one_sequence,          // one sequence of n tokens, query i attends over the other n - 1 (goel.finite_data.md)
  prompts,               // n prompts of T context tokens and a query each (goel.finite_data_prompts.md)
  population_attention,  // n prompts whose attention output is its T -> infinity limit (goel.finite_data_limit_attention.md)
};
// The name in `thmcheck list --json` and the reports.
inline const char* reading_id(FiniteReading r) {
  switch (r) {
    case FiniteReading::one_sequence: return "one_sequence";
    case FiniteReading::prompts: return "prompts";
    case FiniteReading::population_attention: return "population_attention";
  }
  return "";
}
// The `reading` of a claim whose quantity is the same under every reading: the spectral start reads the queries' moments
// only, and every reading draws the same queries and labels (draw_goel_data).
inline constexpr const char* kEveryReading = "every";
// As printed in condition names.
inline const char* reading_name(FiniteReading r) {
  switch (r) {
    case FiniteReading::one_sequence: return "one sequence of n tokens";
    case FiniteReading::prompts: return "n prompts of T tokens";
    case FiniteReading::population_attention: return "n prompts, attention at its T -> infinity limit";
  }
  return "";
}

// Protocols (docs/derivations/<id>.md); change them here and only here.
inline constexpr std::array<double, 3> kRateKappas = {1.0, 10.0, 100.0};
inline constexpr int kRateTokens = 32, kRateIterations = 1500, kRateIterationsMp = 2500;
// Plain GD from the spectral start: steps to reduce the objective gap kRateGdReduction-fold, capped.
inline constexpr double kRateGdReduction = 1e3;
inline constexpr int kRateGdCap = 10000;
// Excess-risk studies: kRiskSeeds data draws per n below kRiskLargeN, kRiskSeedsLarge from there on (the runs cost
// n^2 per step); judged by a one-sided Jonckheere-Terpstra trend test at level kRiskLevel per instance
// (goel.risk.excess_bound_v1.md, Calibration).
inline constexpr int kRiskSeeds = 5, kRiskSeedsLarge = 3, kRiskLargeN = 256, kRiskIterations = 300;
inline constexpr double kRiskLevel = 5e-4;
// The exponent test of the risk claims (goel.risk.excess_bound_1_over_n.md, "The exponent" and "Reach"): at the full
// budget's grid n = 32..kRiskNMaxFull, max(kRiskSeedsLargeFull, kRiskDrawsScaleFull / n) draws per n below the top and
// kRiskSeedsTopFull at the top (2048, 1024, 512, 256 and 128: the cheap small n carry the leverage; a run on one sequence
// costs n^2 per step, so the grid stops where a run decides within reach); one-sided at kRiskExponentLevel per instance,
// decided only where t SE <= kRiskExponentDecided (the grid then separates the exponents -1 and -2); a run's optimisation
// term counts as gone when its fitted mu^m <= kRiskConverged.
inline constexpr int kRiskNMaxFull = 512, kRiskDrawsScaleFull = 65536, kRiskSeedsLargeFull = 4, kRiskSeedsTopFull = 128;
inline constexpr double kRiskExponentLevel = 1e-4, kRiskExponentDecided = 0.5, kRiskConverged = 1e-6;
// The risk claims on the attention limit (goel.risk.population_attention_*; goel.risk.population_attention_1_over_n.md, "Calibration: the design"):
// the grid n = kLimitRiskNMin, 2 kLimitRiskNMin, ..., kLimitRiskNMax with kLimitRiskDraws data draws at each n
// (kLimitRiskDrawsFull at the full budget). A step costs O(k d^2) whatever n (the draws cost O(n d)), so the grid lies
// where the shapes 1/n and n^-2 log^6 n part: the latter's local slope -2 + 6 / ln n is below -1 from n = e^6 = 403 on,
// and its fitted slope over the grid is -1.293.
inline constexpr int kLimitRiskNMin = 512, kLimitRiskNMax = 1 << 16, kLimitRiskDraws = 128, kLimitRiskDrawsFull = 512;
inline constexpr int kBaselineTokens = 64, kBaselineIterations = 2000;

// The study budget (ChoiceSource::budget(): `standard` for make run, `full` for thmcheck run --budget full) sets the
// largest n of the risk claims' grid. The generator writes the grid into the instance, so a replay uses the grid it was
// run with.

// The generators of goel.rate.geometric_in_m, of the two risk claims and of goel.baseline.sgd_vs_algorithm1
// (also the cli experiments' instances).
Instance generate_geometric_in_m(ChoiceSource& src);
Instance generate_excess_bound(ChoiceSource& src);
Instance generate_excess_bound_limit(ChoiceSource& src);
Instance generate_baseline(ChoiceSource& src);
// What they hold: finite_spec's d <= d_cap, k <= d + 1, Sigma^{1/2}; the kappa(Sigma) variants of the rate instances; the
// risk claims' n grid and draws (the standard budget's: the full budget's grid, to n = 512 with 3968 draws, takes minutes per case,
// so its instances need explore --patient); the baseline's tokens.
inline InstanceSchema finite_schema(int d_cap, std::vector<std::string> suffixes = {""}) {
  return goel_population_schema({d_cap + 1, d_cap, false, false, true, std::move(suffixes)});
}
inline InstanceSchema geometric_in_m_schema() { return finite_schema(3, {"_k1", "_k10", "_k100"}); }
inline InstanceSchema excess_bound_schema() {
  return finite_schema(3).integer("n_min", 4, 32).integer("n_max", 32, 256).integer("seeds", 1, kRiskSeeds).integer("seeds_large", 1, kRiskSeeds)
      .integer("n_large", 1, 1 << 16).integer("iterations", 1, kRiskIterations);
}
inline InstanceSchema excess_bound_limit_schema() {
  return finite_schema(3).integer("n_min", 4, 1 << 16).integer("n_max", 4, 1 << 16).integer("seeds", 1, 4096).integer("iterations", 1, kRiskIterations);
}
inline InstanceSchema baseline_schema() { return finite_schema(3).integer("n", 8, kBaselineTokens); }

namespace detail {

// The population problem of the Algorithm-1 claims: Z* of full rank d with chosen singular values, Sigma
// spectrum-first, lambda = kAlgorithmLambda, and Sigma^{1/2} stored for the training data.
GSpec finite_spec(ChoiceSource& src, int d_cap, double kappa_max, int d_min = 1, double kappa_min = 1.0);

// The spectral start's instances (goel.init.spectral_exact, goel.init.step_rule): finite_spec's problems (d <= 4,
// kappa(Sigma) <= 100) with k in 1..4 drawn on its own (so k < d occurs), rank min(k, d), and "n" uniform in
// [max(8, 2 d + 2), 64] (few tokens: where the step's cap acts).
Instance spectral_start_instance(ChoiceSource& src);

// The identity claims' instances: finite_spec's problems (d <= 4, kappa(Sigma) <= 100) at a random point (A and B
// Gaussian, entries N(0, (0.5 / sqrt d)^2)), and "n" (tokens or prompts) uniform in [max(8, 2 d + 2), n_max].
Instance random_point_finite_instance(ChoiceSource& src, int n_max);

}  // namespace detail

}  // namespace thm
