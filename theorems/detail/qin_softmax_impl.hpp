#pragma once

#include "theorems/detail/qin_noise.hpp"
#include "theorems/qin_instance.hpp"
#include "theorems/qin_softmax.hpp"

#include <boost/math/special_functions/expm1.hpp>

namespace thm {

template <class T>
Evaluation evaluate_rank_collapse(const Instance& inst, Variant variant) {
  const QAttention<T> q = lift_qin_attention<T>(inst);
  const Mat<T>& X = q.X[0];
  const Eigen::Index N = X.rows(), d = X.cols();
  if (std::min(N, d) < 2) return Evaluation::discarded("min(N, d) < 2: sigma_2(A) does not exist");

  const AttentionForward<T> f = attention_forward(X, q.w, q.beta);
  const detail::AttentionNoise<T> noise = detail::attention_noise(X, q.w, q.beta, f);
  const Vec<T> sA = singular_values(f.A);
  const T sigma2_noise = detail::singular_value_noise(f.A, sA(0), noise.dA);

  Evaluation e;
  if (inst.param("row_constant_logits") != 0.0) {
    // (a) S = 11^T/N exactly, so A has identical rows: sigma_2(A) is pure rounding.
    e.conditions.push_back(make_le<T>("(a) sigma_2(A) <= noise(sigma_2(A))  [row-constant logits => rank(A) <= 1]",
                                      sA(1), sigma2_noise, T(0)));
  }

  // (b) eps = max |K_jk|; bound = exp(2 eps) - 1 (derivation, step 1).
  const T logit_eps = f.K.cwiseAbs().maxCoeff();
  T bound = boost::math::expm1(T(2) * logit_eps);
  if (variant == Variant::negative_control) bound /= T(kRankCollapseBrokenFactor);
  using std::exp;
  const T bound_noise = T(4) * epsilon<T>() * bound + T(2) * exp(T(2) * logit_eps) * noise.dK;

  const Mat<T> E = f.S - Mat<T>::Constant(N, N, T(1) / T(N));
  const T normE = spectral_norm(E);
  e.conditions.push_back(make_le<T>("(b) ||S - 11^T/N||_2 <= exp(2 eps) - 1", normE, bound,
                                    detail::singular_value_noise(E, normE, noise.dS) + bound_noise));

  const Mat<T> XV = X * q.w.W_V;
  const T normXV = spectral_norm(XV);
  const T rhs = bound * normXV;
  const T rhs_noise = bound_noise * normXV + bound * detail::singular_value_noise(XV, normXV, noise.dXV);
  e.conditions.push_back(make_le<T>("(b) sigma_2(A) <= (exp(2 eps) - 1) ||X W_V||_2", sA(1), rhs, sigma2_noise + rhs_noise));

  e.observations = {{"max_abs_logit", to_double(logit_eps)},
                    {"sigma_1(A)", to_double(sA(0))},
                    {"sigma_2(A)", to_double(sA(1))},
                    {"norm(S - 11^T/N)", to_double(normE)}};
  return e;
}

}  // namespace thm
