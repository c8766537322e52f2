// [Q] empirical claims about training, judged statistically (required support 0.9); qin.gd.residual_speeds_convergence
// is in theorems/qin/gd/.
//
//   qin.depth.residual_prevents_collapse (empirical; docs/derivations/qin.depth.residual_prevents_collapse.md)
//     forward at initialisation through 1..6 blocks: (D1) beta = 0: median_i 1/kappa(Z_i^(l)) < 1e-8 by layer 3;
//     (D2) beta = 1: it stays > 1e-3 through layer 6; after training (same budget per depth):
//     (D3) with residuals the final loss decreases with depth, Spearman(L, loss) <= -0.8;
//     (D4) without residuals it does not, Spearman(L, loss) > -0.8.
//     Control: (D2) claimed for beta = 0 instead.
#pragma once

#include "theorems/claim.hpp"

#include <array>

namespace thm {

inline constexpr const char* kDepthCollapseId = "qin.depth.residual_prevents_collapse";


// Budgets that make the findings' `violated` reliable under the binomial support test (P >= 1 - 1e-3 at
// the 99.9% upper bound of the measured hold rate; docs/findings/<id>.md, "Reliability").
inline constexpr int kDepthCollapseCases = 10;    // hold rate 0.010, upper bound 0.025

inline constexpr int kDepthLayers = 6;
inline constexpr int kDepthCollapseBy = 3;
inline constexpr double kDepthCollapsed = 1e-8, kDepthHealthy = 1e-3;
inline constexpr int kDepthTrainSteps = 300;
inline constexpr double kDepthRho = -0.8;

Instance generate_depth_collapse(ChoiceSource& src);

template <class T>
Evaluation evaluate_depth_collapse(const Instance& inst, Variant variant);

#define THM_QIN_TRENDS_EXTERN(T)                                                     \
  extern template Evaluation evaluate_depth_collapse<T>(const Instance&, Variant);
THM_QIN_TRENDS_EXTERN(double)
THM_QIN_TRENDS_EXTERN(mp50)
THM_QIN_TRENDS_EXTERN(mp100)
THM_QIN_TRENDS_EXTERN(mpfr_dynamic)
#undef THM_QIN_TRENDS_EXTERN

}  // namespace thm
