// [Q] claims about the residual connection Z = A + beta X of the attention block.
//
//   qin.residual.weyl_interlacing (derived; docs/derivations/qin.residual.weyl_interlacing.md)
//     sigma_k(Z) >= beta sigma_{k+j}(X) - sigma_{j+1}(A)  for k >= 1, j >= 0, k + j <= p.
//     Negative control: the index shift dropped, sigma_k(Z) >= beta sigma_k(X) - sigma_{j+1}(A), j >= 1.
//
//   qin.residual.sigma_min_lower_bound (derived; docs/derivations/qin.residual.sigma_min_lower_bound.md)
//     ||S||_2 <= sqrt(N)  and  sigma_p(Z) >= beta sigma_p(X) - ||S||_2 ||X||_2 ||W_V||_2.
//     Hypothesis: the bound is positive (else it is trivially true and the case is discarded).
//     Negative control: ||S||_2 <= 1 and sigma_p(Z) >= beta sigma_p(X) (attention term dropped).
//
//   qin.residual.conditioning_trend (empirical; docs/derivations/qin.residual.conditioning_trend.md)
//     small logits, beta over {0, .1, .25, .5, .75, 1}: kappa(Zs) >= 1e6 at beta = 0,
//     Spearman(beta, kappa(Zs)) <= -0.9, Spearman(beta, min_i sigma_min(Z_i)^2 / max_i ||Z_i||^2) >= 0.9.
//     Hypothesis (derived regime): gamma = ||As(0)||_2 / ||Xs||_2 >= 1, attention dominates over the
//     grid; below it kappa has an interior minimum in [0, 1] and the case is discarded, and counted.
//     Negative control: the reversed trend, Spearman(beta, kappa(Zs)) >= +0.9.
#pragma once

#include "theorems/claim.hpp"

#include <array>

namespace thm {

inline constexpr const char* kWeylInterlacingId = "qin.residual.weyl_interlacing";
inline constexpr const char* kSigmaMinLowerBoundId = "qin.residual.sigma_min_lower_bound";
inline constexpr const char* kConditioningTrendId = "qin.residual.conditioning_trend";

// The trend claim's grid and thresholds (claims.md); change them here and only here.
inline constexpr std::array<double, 6> kTrendBetaGrid = {0.0, 0.1, 0.25, 0.5, 0.75, 1.0};
inline constexpr double kTrendKappaAtZero = 1e6;
inline constexpr double kTrendRhoKappa = -0.9;
inline constexpr double kTrendRhoRatio = 0.9;
inline constexpr double kTrendSupport = 0.9;
inline constexpr double kTrendGammaMin = 1.0;  // ||As(0)|| / ||Xs||: the grid's end, beta = 1
// W_V entries N(0, gain^2/d), gain log-uniform in [0.3, 10] around the standard initialisation (1).
inline constexpr double kTrendGainLo = 0.3, kTrendGainHi = 10.0;

Instance generate_weyl_interlacing(ChoiceSource& src);
Instance generate_sigma_min_lower_bound(ChoiceSource& src);
Instance generate_conditioning_trend(ChoiceSource& src);

template <class T>
Evaluation evaluate_weyl_interlacing(const Instance& inst, Variant variant);
template <class T>
Evaluation evaluate_sigma_min_lower_bound(const Instance& inst, Variant variant);
template <class T>
Evaluation evaluate_conditioning_trend(const Instance& inst, Variant variant);

#define THM_QIN_RESIDUAL_EXTERN(T)                                                      \
  extern template Evaluation evaluate_weyl_interlacing<T>(const Instance&, Variant);    \
  extern template Evaluation evaluate_sigma_min_lower_bound<T>(const Instance&, Variant); \
  extern template Evaluation evaluate_conditioning_trend<T>(const Instance&, Variant);
THM_QIN_RESIDUAL_EXTERN(double)
THM_QIN_RESIDUAL_EXTERN(mp50)
THM_QIN_RESIDUAL_EXTERN(mp100)
THM_QIN_RESIDUAL_EXTERN(mpfr_dynamic)
#undef THM_QIN_RESIDUAL_EXTERN

}  // namespace thm
