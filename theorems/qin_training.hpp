// [Q] claims about training the full model (the qin.pl claims are in theorems/qin/pl/).
//
//   qin.gd.descent_lemma (derived; docs/derivations/qin.gd.descent_lemma.md)
//     GD on all six blocks; Lg(rho0) the explicit gradient-Lipschitz bound of detail::all_blocks_smoothness
//     on the ball B(theta, rho0); eta <= min(1/Lg, rho0/||g||):  L(theta - eta g) <= L(theta) - (eta/2) ||g||^2.
//     Control: 3/2 in place of 1/2.
//   qin.gd.linear_rate (paper-shape; docs/derivations/qin.gd.linear_rate.md)
//     GD on all six blocks (single layer; constants of detail::all_blocks_smoothness); if J(rho) rho <= sigma0/2 and 2 sqrt(2 L0) a(rho)/alpha <= rho, alpha = sigma0^2/4,
//     then with eta = 1/Lg(rho), at every iterate: L_t <= (1 - eta alpha)^t L0,
//     sigma_{nN}(H_t) >= sigma0/2, ||theta_t - theta_0|| <= rho.
//     Control: alpha replaced by 4 ||g_0||^2 / (2 L_0), four times the best rate the first step shows.
//   qin.gd.linear_rate_multilayer (paper-shape; docs/derivations/qin.gd.linear_rate_multilayer.md)
//     L = 2..4 blocks: the same theorem for (W_1, W_2) of the last block and W_U, everything below
//     frozen, with Z the last block's attention output; per-layer sigma_min(Zs^(l)) reported.
#pragma once

#include "theorems/claim.hpp"

namespace thm {

inline constexpr const char* kDescentLemmaId = "qin.gd.descent_lemma";
inline constexpr const char* kLinearRateId = "qin.gd.linear_rate";
inline constexpr const char* kLinearRateMultilayerId = "qin.gd.linear_rate_multilayer";

inline constexpr double kDescentRadius = 1.0;   // rho0 of the descent lemma
inline constexpr int kLinearRateSteps = 60;     // iterates checked per case
// qin.gd.linear_rate: targets Y = Yhat(theta_0) + delta G, delta log-uniform in [Lo, Hi].
inline constexpr double kLinearRateTargetNoiseLo = 1e-8, kLinearRateTargetNoiseHi = 1e-6;

Instance generate_descent_lemma(ChoiceSource& src);
Instance generate_linear_rate(ChoiceSource& src);
Instance generate_linear_rate_multilayer(ChoiceSource& src);

template <class T>
Evaluation evaluate_descent_lemma(const Instance& inst, Variant variant);
template <class T>
Evaluation evaluate_linear_rate(const Instance& inst, Variant variant);
template <class T>
Evaluation evaluate_linear_rate_multilayer(const Instance& inst, Variant variant);

#define THM_QIN_TRAINING_EXTERN(T)                                                     \
  extern template Evaluation evaluate_descent_lemma<T>(const Instance&, Variant);      \
  extern template Evaluation evaluate_linear_rate<T>(const Instance&, Variant);           \
  extern template Evaluation evaluate_linear_rate_multilayer<T>(const Instance&, Variant);
THM_QIN_TRAINING_EXTERN(double)
THM_QIN_TRAINING_EXTERN(mp50)
THM_QIN_TRAINING_EXTERN(mp100)
THM_QIN_TRAINING_EXTERN(mpfr_dynamic)
#undef THM_QIN_TRAINING_EXTERN

}  // namespace thm
