// [G] claims about Algorithm 1 on the finite-data objective (claims.md, "Model [G]"; the reading of
// the finite-data setting is docs/derivations/goel.finite_data.md). Algorithm 1 here: spectral start,
// then preconditioned GD on L_n + lambda/8 ||P^T P - Q^T Q||^2 (lambda = 1) with eta = 1 / (2 sigma_1(Z_hat))
// (half the stability limit of the population Hessian at S), self-attention masked; plain GD uses
// eta = 1 / (2 sigma_1(Z_hat) ||Sigma_hat||_2^2), SGD the same scaled by its batch fraction (n/8 rows).
//
//   goel.init.spectral_exact (derived): A_0 Sigma_hat B_0^T = M_hat, P_0^T P_0 = Q_0^T Q_0, P_0 Q_0^T = Z_hat,
//     each to a rounding bound. Control: the SVD of M_hat itself (Sigma_hat ignored).
//   goel.precond.equivalence (derived): one preconditioned step on L_n + R in (A, B), mapped to (P, Q),
//     equals one GD step on the same objective written in (P, Q), i.e. on whitened tokens X Sigma_hat^{-1/2}.
//     Control: the step without the preconditioner.
//   goel.init.spectral_near_manifold (paper-shape, rate + frequency): over n in a grid (64..4096) and seeds,
//     the median dist_P(theta_0, S) falls like n^{-1/2} (|slope + 1/2| <= 0.1 + bootstrap half-width), and
//     for n >= 4 n_0, n_0 = (C / rho)^2 from the fitted law, at least 75% of seeds start inside rho (a one-sided
//     binomial test at level 1e-3 over the 32 seeds).
//     Control: slope -1.
//   goel.rate.geometric_in_m (paper-shape, rate): Algorithm 1's objective gap decays geometrically for kappa(Sigma) in
//     {1, 10, 100} with the same Z*, G, Xi (tail fit: mu_hat < 1, R^2 >= 0.99 on the last 4 decades above 1e3 x the
//     rounding floor); Sigma enters only through the gauge of the start: the run at kappa v equals, to a rounding
//     allowance, the run on the kappa-1 data from the start rotated by O = X~_1^T X~_v / n (so mu_hat at v is that of
//     a gauged kappa-1 run; the spread of mu_hat over kappa is reported); plain GD from the same start needs at least
//     1.25x the steps at kappa 100 than at kappa 1 to reduce the gap 1e3-fold (capped at 10000 steps; censored
//     counts as > cap); mu_hat <= mu of the local-contraction theorem when that mu is < 1 (never, step 5).
//     At 50+ digits: the double run continued from 1e2 x its floor decreases below 1e-3 eps(double) at the same rate.
//     Control: the gauge dropped (the kappa-1 run itself must match), and plain GD as insensitive to kappa as 1.1x.
//   goel.risk.excess_bound_v1 (paper-shape, rate): hypothesis sigma_1(Z*) < 1/4 (else the finite-n attention noise has
//     infinite variance, and n (L - L*) drifts over the grid); L(theta_m) - L* <= C (n^{-2} log^6 n + mu^m): with C free, what a finite
//     grid can refute is r = excess / b(n) growing with n: one-sided Jonckheere-Terpstra test over the grid (5 draws
//     per n < 256, 3 from 256), exact under exchangeability, at level 5e-4 per instance; C and the exponent reported.
//   goel.risk.excess_bound_1_over_n (paper-shape, rate): the same with C (mu^m + 1/n).
//     mu is the run's own fitted contraction (the derived mu is within 1e-3 of 1, so mu^m ~ 1 and the bound
//     would be vacuous at any affordable m; reported). At 50+ digits: the first grid point re-run agrees
//     with double. Controls: n^{-7} alone in place of either bound.
//   goel.baseline.sgd_vs_algorithm1 (empirical, trend): same data, kappa(Sigma) in [10, 100]: the spectral start
//     has lower population excess than a random start; after m = 2000 iterations Algorithm 1's objective
//     L_n + R is below GD's and SGD's from the random start (ties within 1e-9: inconclusive). Excess ratios
//     recorded, only the ordering asserted. GD and SGD take the largest of eta, eta/2, eta/4, eta/8 that does not
//     diverge from the random start; a case where Algorithm 1 or all four diverge is discarded.
//     Control: the three orderings reversed.
#pragma once

#include "theorems/claim.hpp"
#include "theorems/goel/protocol.hpp"

#include <array>

namespace thm {


// Protocols (docs/derivations/<id>.md); change them here and only here.
inline constexpr double kAlgorithmLambda = 1.0;
inline constexpr int kNearSeeds = 32, kBootstrap = 400;
inline constexpr double kNearSlopeTolerance = 0.1, kNearInsideFraction = 0.75, kNearBinomialLevel = 1e-3;
// The frequency is judged at n >= 4 n_0: there the limit fraction inside rho is >= 0.823 for every number of
// effective dimensions (0.66 at 2 n_0 for one; goel.init.spectral_near_manifold.md, step 6).
inline constexpr double kNearThresholdFactor = 4.0;
inline constexpr std::array<double, 3> kRateKappas = {1.0, 10.0, 100.0};
inline constexpr int kRateTokens = 32, kRateIterations = 1500, kRateIterationsMp = 2500, kRateIterationsMpCap = 6000;
inline constexpr double kRateInsensitive = 1.1, kRateSlowdown = 1.25;
// The tail window of the geometric fit: the last 4 decades above 1e3 times the rounding floor.
inline constexpr double kRateTailDecades = 4.0;
// Plain GD from the spectral start: steps to reduce the objective gap kRateGdReduction-fold, capped.
inline constexpr double kRateGdReduction = 1e3;
inline constexpr int kRateGdCap = 10000;
// Excess-risk studies: kRiskSeeds data draws per n below kRiskLargeN, kRiskSeedsLarge from there on (the runs cost
// n^2 per step); judged by a one-sided Jonckheere-Terpstra trend test at level kRiskLevel per instance
// (goel.risk.excess_bound_v1.md, Calibration).
inline constexpr int kRiskSeeds = 5, kRiskSeedsLarge = 3, kRiskLargeN = 256, kRiskIterations = 300;
inline constexpr double kRiskLevel = 5e-4;
// Hypothesis sigma_1(Z*) < 1/4 (finite variance of the per-query attention noise; goel.risk.excess_bound_v1.md, step 4).
inline constexpr double kRiskSigmaMax = 0.25;
inline constexpr int kBaselineTokens = 64, kBaselineIterations = 2000, kBaselineIterationsMp = 20;

// The study budget: `standard` (make run) or `full` (thmcheck run --budget full): the largest n of the
// grids. The generator writes the grid into the instance, so a replay uses the grid it was run with.
enum class StudyBudget { standard, full };
void set_study_budget(StudyBudget b);
StudyBudget study_budget();

Instance generate_spectral_exact(ChoiceSource& src);
Instance generate_precond_equivalence(ChoiceSource& src);
Instance generate_spectral_near_manifold(ChoiceSource& src);
Instance generate_geometric_in_m(ChoiceSource& src);
Instance generate_excess_bound(ChoiceSource& src);
Instance generate_baseline(ChoiceSource& src);

template <class T>
Evaluation evaluate_spectral_exact(const Instance& inst, Variant variant);
template <class T>
Evaluation evaluate_precond_equivalence(const Instance& inst, Variant variant);
template <class T>
Evaluation evaluate_spectral_near_manifold(const Instance& inst, Variant variant);
template <class T>
Evaluation evaluate_geometric_in_m(const Instance& inst, Variant variant);
template <class T>
Evaluation evaluate_excess_bound_v1(const Instance& inst, Variant variant);
template <class T>
Evaluation evaluate_excess_bound_1_over_n(const Instance& inst, Variant variant);
template <class T>
Evaluation evaluate_baseline(const Instance& inst, Variant variant);

#define THM_GOEL_ALGORITHM_EXTERN(T)                                                       \
  extern template Evaluation evaluate_spectral_exact<T>(const Instance&, Variant);         \
  extern template Evaluation evaluate_precond_equivalence<T>(const Instance&, Variant);    \
  extern template Evaluation evaluate_spectral_near_manifold<T>(const Instance&, Variant); \
  extern template Evaluation evaluate_geometric_in_m<T>(const Instance&, Variant);         \
  extern template Evaluation evaluate_excess_bound_v1<T>(const Instance&, Variant);        \
  extern template Evaluation evaluate_excess_bound_1_over_n<T>(const Instance&, Variant);  \
  extern template Evaluation evaluate_baseline<T>(const Instance&, Variant);
THM_GOEL_ALGORITHM_EXTERN(double)
THM_GOEL_ALGORITHM_EXTERN(mp50)
THM_GOEL_ALGORITHM_EXTERN(mp100)
THM_GOEL_ALGORITHM_EXTERN(mpfr_dynamic)
#undef THM_GOEL_ALGORITHM_EXTERN

}  // namespace thm
