// [Q] claims about softmax attention alone.
//
//   qin.softmax.rank_collapse (derived; docs/derivations/qin.softmax.rank_collapse.md)
//     (a) every row of K constant  =>  rank(A) <= 1: sigma_2(A) at the rounding level;
//     (b) eps = max|K_jk|:  ||S - 11^T/N||_2 <= exp(2 eps) - 1  and
//                           sigma_2(A) <= (exp(2 eps) - 1) ||X W_V||_2.
//     Negative control: the bounds of (b) divided by 4.
#pragma once

#include "theorems/claim.hpp"

namespace thm {

inline constexpr const char* kRankCollapseId = "qin.softmax.rank_collapse";
// The factor the negative control divides the bounds of (b) by.
inline constexpr double kRankCollapseBrokenFactor = 4.0;
// Share of the general branch (probability 0.7) drawn as column-sign logits, the family where (b1)
// is tight; 0.7 * 0.4 = 0.28 of all cases, each of which violates the control (derivation,
// "Calibration"), and eps = max|K| there is log-uniform in [1e-6, kRankCollapseSignPatternEpsMax].
inline constexpr double kRankCollapseSignPatternShare = 0.4;
inline constexpr double kRankCollapseSignPatternEpsMax = 0.2;

Instance generate_rank_collapse(ChoiceSource& src);

template <class T>
Evaluation evaluate_rank_collapse(const Instance& inst, Variant variant);

extern template Evaluation evaluate_rank_collapse<double>(const Instance&, Variant);
extern template Evaluation evaluate_rank_collapse<mp50>(const Instance&, Variant);
extern template Evaluation evaluate_rank_collapse<mp100>(const Instance&, Variant);
extern template Evaluation evaluate_rank_collapse<mpfr_dynamic>(const Instance&, Variant);

}  // namespace thm
