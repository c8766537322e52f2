#pragma once

#include "numerics/rank_correlation.hpp"
#include "theorems/detail/qin_noise.hpp"
#include "theorems/qin_instance.hpp"
#include "theorems/qin_residual.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace thm {

template <class T>
Evaluation evaluate_weyl_interlacing(const Instance& inst, Variant variant) {
  const QAttention<T> q = lift_qin_attention<T>(inst);
  const Mat<T>& X = q.X[0];
  const AttentionForward<T> f = attention_forward(X, q.w, q.beta);
  const detail::AttentionNoise<T> noise = detail::attention_noise(X, q.w, q.beta, f);
  const Vec<T> sZ = singular_values(f.Z), sX = singular_values(X), sA = singular_values(f.A);
  using std::abs;
  const T nZ = detail::singular_value_noise(f.Z, sZ(0), noise.dZ);
  const T nA = detail::singular_value_noise(f.A, sA(0), noise.dA);
  const T nX = abs(q.beta) * singular_value_error_bound<T>(X.rows(), X.cols(), sX(0));
  const int p = static_cast<int>(sZ.size());

  const T bound_noise = nZ + nX + nA;
  Evaluation e;
  bool informative = false;  // some claimed lower bound is positive beyond the noise
  // 1-based k, j as in the statement; the vectors are 0-based.
  for (int k = 1; k <= p; ++k)
    for (int j = 0; k + j <= p; ++j) {
      informative = informative || q.beta * sX(k + j - 1) - sA(j) > bound_noise;
      if (variant == Variant::negative_control && j == 0) continue;
      const int x_index = variant == Variant::claim ? k + j : k;  // the broken variant drops the shift
      const T lhs = q.beta * sX(x_index - 1) - sA(j);
      e.conditions.push_back(make_ge<T>("sigma_" + std::to_string(k) + "(Z) >= beta sigma_" + std::to_string(x_index) +
                                            "(X) - sigma_" + std::to_string(j + 1) + "(A)",
                                        sZ(k - 1), lhs, bound_noise));
    }
  // Hypothesis (shared by the claim and its control): a case whose every claimed bound is <= 0 is
  // trivially true and says nothing; it is discarded, never counted as a pass.
  if (!informative) return Evaluation::discarded("every bound beta sigma_{k+j}(X) - sigma_{j+1}(A) is <= noise: trivially true");
  if (e.conditions.empty()) return Evaluation::discarded("no index pair (k, j) in range");
  e.observations = {{"kappa(Z)", to_double(condition_number(sZ))},
                    {"kappa(X)", to_double(condition_number(sX))},
                    {"sigma_1(A)", to_double(sA(0))}};
  return e;
}

template <class T>
Evaluation evaluate_sigma_min_lower_bound(const Instance& inst, Variant variant) {
  using std::sqrt;
  using std::abs;
  const QAttention<T> q = lift_qin_attention<T>(inst);
  const Mat<T>& X = q.X[0];
  const AttentionForward<T> f = attention_forward(X, q.w, q.beta);
  const detail::AttentionNoise<T> noise = detail::attention_noise(X, q.w, q.beta, f);
  const Vec<T> sZ = singular_values(f.Z), sX = singular_values(X);
  const Eigen::Index p = sZ.size();
  const T normS = spectral_norm(f.S), normWV = spectral_norm(q.w.W_V);
  const T attention_term = normS * sX(0) * normWV;
  const T bound = q.beta * sX(p - 1) - attention_term;
  if (!(bound > 0))
    return Evaluation::discarded("beta sigma_min(X) <= ||S|| ||X|| ||W_V||: the bound is not positive, so trivially true");

  const T eps = epsilon<T>();
  const T nS = detail::singular_value_noise(f.S, normS, noise.dS);
  const T nX = singular_value_error_bound<T>(X.rows(), X.cols(), sX(0));
  const T nWV = singular_value_error_bound<T>(q.w.W_V.rows(), q.w.W_V.cols(), normWV);
  const T nZ = detail::singular_value_noise(f.Z, sZ(0), noise.dZ);
  const T n_attention = nS * sX(0) * normWV + normS * nX * normWV + normS * sX(0) * nWV + T(4) * eps * attention_term;

  Evaluation e;
  const T sqrtN = variant == Variant::claim ? sqrt(T(X.rows())) : T(1);
  e.conditions.push_back(make_le<T>(variant == Variant::claim ? "||S||_2 <= sqrt(N)" : "||S||_2 <= 1", normS, sqrtN,
                                    nS + T(2) * eps * sqrtN));
  if (variant == Variant::claim)
    e.conditions.push_back(make_ge<T>("sigma_min(Z) >= beta sigma_min(X) - ||S||_2 ||X||_2 ||W_V||_2", sZ(p - 1), bound,
                                      nZ + abs(q.beta) * nX + n_attention));
  else
    e.conditions.push_back(make_ge<T>("sigma_min(Z) >= beta sigma_min(X)", sZ(p - 1), T(q.beta * sX(p - 1)),
                                      nZ + abs(q.beta) * nX));
  e.observations = {{"norm(S)", to_double(normS)},
                    {"sigma_min(X)", to_double(sX(p - 1))},
                    {"norm(W_V)", to_double(normWV)},
                    {"bound/sigma_min(Z)", to_double(T(bound / sZ(p - 1)))}};
  return e;
}

namespace detail {

template <class T>
struct TrendCurve {
  std::vector<double> kappa, ratio;  // per beta of kTrendBetaGrid
  T kappa_lower_at_zero;             // certified lower bound of kappa(Zs) at beta = 0
  T gamma;                           // ||As(0)||_2 / ||Xs||_2: how much attention dominates
};

// kappa(Zs) and min_i sigma_min(Z_i)^2 / max_i ||Z_i||_2^2 over the beta grid, for one draw.
template <class T>
TrendCurve<T> trend_curve(const QAttention<T>& q) {
  using std::sqrt;
  TrendCurve<T> c;
  for (double beta : kTrendBetaGrid) {
    std::vector<Mat<T>> Z;
    T min_sigma_min2 = std::numeric_limits<T>::infinity(), max_norm2 = 0;
    T dZs2 = 0;  // squared noise of the stacked matrix (blocks are independent); needed at beta = 0 only
    for (const Mat<T>& X : q.X) {
      const AttentionForward<T> f = attention_forward(X, q.w, T(beta));
      const Vec<T> s = singular_values(f.Z);
      if (beta == 0.0) {
        const AttentionNoise<T> noise = attention_noise(X, q.w, T(beta), f);
        dZs2 += noise.dZ * noise.dZ;
      }
      min_sigma_min2 = std::min<T>(min_sigma_min2, T(s(s.size() - 1) * s(s.size() - 1)));
      max_norm2 = std::max<T>(max_norm2, T(s(0) * s(0)));
      Z.push_back(f.Z);
    }
    const Mat<T> Zs = stack_rows(Z);
    const Vec<T> s = singular_values(Zs);
    if (beta == 0.0) {
      c.gamma = s(0) / spectral_norm(stack_rows(q.X));  // at beta = 0, Zs = As
      // The exact s_1 is >= s_1 - err and the exact s_min is <= s_min + err.
      const T err = singular_value_noise(Zs, s(0), T(sqrt(dZs2)));
      c.kappa_lower_at_zero = (s(0) - err) / (s(s.size() - 1) + err);
    }
    c.kappa.push_back(to_double(condition_number(s)));
    c.ratio.push_back(to_double(T(min_sigma_min2 / max_norm2)));
  }
  return c;
}

}  // namespace detail

template <class T>
Evaluation evaluate_conditioning_trend(const Instance& inst, Variant variant) {
  const QAttention<T> q = lift_qin_attention<T>(inst);
  const std::vector<double> betas(kTrendBetaGrid.begin(), kTrendBetaGrid.end());
  const detail::TrendCurve<T> curve = detail::trend_curve(q);
  if (!(curve.gamma >= T(kTrendGammaMin)))
    return Evaluation::discarded("gamma = ||As(0)||_2 / ||Xs||_2 < " + exact_decimal(kTrendGammaMin) +
                                 ": outside the attention-dominated regime");
  const double rho_kappa = spearman_rho(betas, curve.kappa), rho_ratio = spearman_rho(betas, curve.ratio);

  Evaluation e;
  e.conditions.push_back(
      make_ge<T>("kappa(Zs) at beta = 0 (certified lower bound) >= 1e6", curve.kappa_lower_at_zero, T(kTrendKappaAtZero), T(0)));
  if (variant == Variant::claim)
    e.conditions.push_back(make_le<double>("Spearman(beta, kappa(Zs)) <= -0.9", rho_kappa, kTrendRhoKappa, 0.0));
  else
    e.conditions.push_back(make_ge<double>("Spearman(beta, kappa(Zs)) >= +0.9", rho_kappa, -kTrendRhoKappa, 0.0));
  e.conditions.push_back(
      make_ge<double>("Spearman(beta, min_i sigma_min(Z_i)^2 / max_i ||Z_i||^2) >= 0.9", rho_ratio, kTrendRhoRatio, 0.0));
  e.observations.emplace_back("gamma = ||As(0)|| / ||Xs||", to_double(curve.gamma));
  for (std::size_t b = 0; b < betas.size(); ++b) {
    e.observations.emplace_back("kappa(Zs)[beta=" + exact_decimal(betas[b]) + "]", curve.kappa[b]);
    e.observations.emplace_back("min sigma_min(Z_i)^2 / max ||Z_i||^2[beta=" + exact_decimal(betas[b]) + "]", curve.ratio[b]);
  }
  return e;
}

}  // namespace thm
