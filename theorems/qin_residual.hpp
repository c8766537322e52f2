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
//     small logits, beta over {0, .1, .25, .5, .75, 1}, 7 draws per case: kappa(Zs) >= 1e6 at beta = 0
//     in every draw; over the median curve of the draws, Spearman(beta, kappa(Zs)) <= -0.9 and
//     Spearman(beta, min_i sigma_min(Z_i)^2 / max_i ||Z_i||^2) >= 0.9.
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
inline constexpr double kTrendWvGain = 1.0;  // W_V entries N(0, gain^2/d): the standard initialisation
inline constexpr int kTrendDraws = 7;  // independent draws per case; the trend is read off their median

Instance generate_weyl_interlacing(ChoiceSource& src);
Instance generate_sigma_min_lower_bound(ChoiceSource& src);
// `wv_gain` other than the claim's constant serves the tests that map where the trend holds.
Instance generate_conditioning_trend(ChoiceSource& src, double wv_gain = kTrendWvGain);

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
#undef THM_QIN_RESIDUAL_EXTERN

}  // namespace thm
