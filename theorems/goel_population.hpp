// [G] claims about the population loss (claims.md, "Model [G]").
//
//   goel.population.tilting_identity (derived; docs/derivations/goel.population.tilting_identity.md)
//     Monte-Carlo, query q fixed: m_T = E||A (sum_j softmax_j(q^T B x_j) x_j - Sigma B^T q)||^2 -> 0 like
//     c1 / T, c1 = e^{w^T Sigma w} (tr(A Sigma A^T) + ||A Sigma w||^2), w = B^T q: the OLS log-log slope over
//     kTiltingTokens is -1 within its bias allowance plus z standard errors (delta method), and log(T m_T / c1)
//     -> 0 at the largest T (z times the per-draw relative SD pooled over the four T). The one-dimensional identity E[e^{wx} x] / E[e^{wx}] = sigma^2 w is checked by
//     quadrature at working precision along each eigendirection of Sigma (it tightens with the digits).
//     Negative control: the limit without Sigma, B^T q (and w in place of sigma^2 w).
//
//   goel.population.matrix_factorization (paper; docs/derivations/goel.population.matrix_factorization.md)
//     The Monte-Carlo population loss at two lengths T1 < T2 on the same draws (nested tokens), extrapolated
//     to T = infinity by the 1/T law (Richardson), equals the closed form 1/2 ||(A Sigma B^T - M) Sigma^{1/2}||^2
//     + k s^2/2 within the kappa2 bias allowance plus z standard errors;
//     A Sigma B^T Sigma^{1/2} = P Q^T and L - L* = 1/2 ||P Q^T - Z*||_F^2 to working precision.
//     Negative control: the closed form without the Sigma^{1/2} weight, and Q = Sigma^{1/2} B (one root).
//
//   goel.population.invariances (derived; docs/derivations/goel.population.invariances.md)
//     L(P G, Q G^{-T}) = L(P, Q) for invertible G; L(cA, B/c) = L(A, B); R_bal(P O, Q O) = R_bal(P, Q) for
//     orthogonal O; R_si(cA, B/c) = R_si(A, B); c in {1e-2, 1, 1e2}; each to a rounding bound.
//     Negative control: (PG, QG), (cA, cB), (PG, QG) for R_bal, and R_bal in place of R_si.
#pragma once

#include "numerics/attention_regression.hpp"
#include "theorems/claim.hpp"

#include <array>

namespace thm {

inline constexpr const char* kTiltingIdentityId = "goel.population.tilting_identity";
inline constexpr const char* kMatrixFactorizationId = "goel.population.matrix_factorization";
inline constexpr const char* kInvariancesId = "goel.population.invariances";

// The statistical protocols (derivations, "Protocol"); change them here and only here. A run judges up
// to 20 instances per claim; each may fail falsely with probability <= 5e-6 (1e-4 per run, Bonferroni).
inline constexpr std::array<int, 4> kTiltingTokens = {8, 32, 128, 512};
inline constexpr int kTiltingDraws = 512;
inline constexpr double kTiltingZ = 5.5;          // measured: the heavy tails of chi-square-like means need 5.5
inline constexpr double kTiltingSlopeBias = 0.06; // the O(1/T^2) term moves the OLS slope by [0, 0.0552]
inline constexpr double kTiltingC1Bias = 0.007;   // ... and T m_T / c1 at T = 512 by [-0.0069, 0]
inline constexpr double kTiltingLogitVarMin = 0.125, kTiltingLogitVarMax = 0.5;  // (H1): a = w^T Sigma w
inline constexpr int kFactorizationShort = 32, kFactorizationLong = 128;  // Richardson on nested tokens
inline constexpr int kFactorizationDraws = 2880;
inline constexpr double kFactorizationZ = 5.0;
inline constexpr double kFactorizationRhoMax = 1.0 / 16;  // (H1): ||Sigma^{1/2} B Sigma^{1/2}||_2^2
// (H2), the control's power: |L_inf - L_ctrl| >= 10 SE_pred (derivation, "Predicted SE").
inline constexpr double kFactorizationControlGapSE = 10.0;
static_assert(kFactorizationLong == 4 * kFactorizationShort, "the predicted SE's third coefficient, 3/4, assumes T2 = 4 T1");
inline constexpr std::array<double, 3> kInvarianceScales = {1e-2, 1.0, 1e2};

Instance generate_tilting_identity(ChoiceSource& src);
Instance generate_matrix_factorization(ChoiceSource& src);
Instance generate_invariances(ChoiceSource& src);

template <class T>
Evaluation evaluate_tilting_identity(const Instance& inst, Variant variant);
template <class T>
Evaluation evaluate_matrix_factorization(const Instance& inst, Variant variant);
template <class T>
Evaluation evaluate_invariances(const Instance& inst, Variant variant);

// The predicted standard error of the Richardson estimate of L_inf (goel.population.matrix_factorization.md,
// "Predicted SE"): sqrt(V / N), closed form, no Monte Carlo; f = to_factors(A, B, task.roots).
template <class T>
T factorization_predicted_se(const Factors<T>& f, const RegressionTask<T>& task);

#define THM_GOEL_POPULATION_EXTERN(T)                                                    \
  extern template Evaluation evaluate_tilting_identity<T>(const Instance&, Variant);     \
  extern template Evaluation evaluate_matrix_factorization<T>(const Instance&, Variant); \
  extern template Evaluation evaluate_invariances<T>(const Instance&, Variant);         \
  extern template T factorization_predicted_se<T>(const Factors<T>&, const RegressionTask<T>&);
THM_GOEL_POPULATION_EXTERN(double)
THM_GOEL_POPULATION_EXTERN(mp50)
THM_GOEL_POPULATION_EXTERN(mp100)
THM_GOEL_POPULATION_EXTERN(mpfr_dynamic)
#undef THM_GOEL_POPULATION_EXTERN

}  // namespace thm
