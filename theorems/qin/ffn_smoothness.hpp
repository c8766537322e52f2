// Explicit constants of docs/derivations/qin.gd.linear_rate.md for f(W_1, W_2, W_U) with the
// attention frozen: on the ball B(theta0, rho) in the Frobenius parameter norm,
//   a(rho)  >= sup ||dYhat||  (unit direction),   b(rho) >= sup ||d^2 Yhat||,
//   Lg(rho) = a^2 + Rmax b    (gradient-Lipschitz bound),   J(rho) >= Lipschitz constant of theta -> H.
#pragma once

#include "numerics/activation.hpp"
#include "numerics/spectral.hpp"
#include "numerics/models/qin/transformer.hpp"

#include <cmath>
#include <optional>
#include <vector>

namespace thm::detail {

// s1 = sup |sigma'|, s2 = sup |sigma''| (qin.model.md); nullopt for activations without certified
// constants (GELU, ReLU), which the smoothness-based claims do not cover.
template <class T>
std::optional<std::pair<T, T>> activation_smoothness(Activation a) {
  using std::sqrt;
  switch (a) {
    case Activation::softplus: return std::pair<T, T>{T(1), T(1) / T(4)};
    case Activation::tanh: return std::pair<T, T>{T(1), T(4) / (T(3) * sqrt(T(3)))};
    default: return std::nullopt;
  }
}

template <class T>
struct FfnSmoothness {
  T a, b, r_max, Lg, J, phi_max;
};

template <class T>
struct FfnPoint {
  T z;          // ||Zs||_2 (frozen attention output)
  T w1_fro;     // ||W_1||_F at theta0
  T w2, wU;     // spectral norms at theta0
  T f0;         // loss at theta0
  T gamma;      // FFN residual weight
  T rows_m;     // nN m (entries of Phi)
  Activation activation;
};

template <class T>
FfnSmoothness<T> ffn_smoothness(const FfnPoint<T>& p, const T& rho) {
  using std::log;
  using std::sqrt;
  const auto s = activation_smoothness<T>(p.activation);
  const T s1 = s->first, s2 = s->second;
  const T w1 = p.w1_fro + rho, w2 = p.w2 + rho, wU = p.wU + rho;
  FfnSmoothness<T> r;
  if (p.activation == Activation::softplus)
    r.phi_max = p.z * w1 + log(T(2)) * sqrt(p.rows_m);
  else
    r.phi_max = std::min<T>(sqrt(p.rows_m), T(p.z * w1));
  using std::abs;
  const T h_max = r.phi_max * w2 + abs(p.gamma) * p.z;
  const T s1zw2 = s1 * p.z * w2;
  r.a = sqrt(s1zw2 * s1zw2 * wU * wU + r.phi_max * r.phi_max * wU * wU + h_max * h_max);
  r.J = sqrt(s1zw2 * s1zw2 + r.phi_max * r.phi_max);
  r.b = (s2 * p.z * p.z * w2 + s1 * p.z) * wU + r.J;
  r.r_max = sqrt(T(2) * p.f0) + r.a * rho;
  r.Lg = r.a * r.a + r.r_max * r.b;
  return r;
}

// All six blocks of a single-layer model trained (docs/derivations/qin.gd.linear_rate.md, "All
// blocks"). Per sample i, with the norms of the initial weights plus rho (every weight on the ball):
//   dK  <= c x^2 (k e_Q + q e_K),  d2K <= c x^2,  dS <= dK / 2,  d2S <= d2K / 2 + 2 dK^2  (row softmax:
//   ||diag(s) - s s^T|| <= 1/2, second-order term <= 2 ||dk_row||^2),  ||S||_2 <= sqrt(N),
// then V = S X W_V + beta X, P = V W_1, H = sigma(P) W_2 + gamma V, Yhat = H W_U, each derivative a
// linear form in the block norms (e_Q, ..., e_U) bounded by Cauchy-Schwarz, cross terms 2 e_i e_j <= 1.
template <class T>
struct AllBlocksPoint {
  std::vector<T> x;            // ||X_i||_2 per sample
  T N, m, c, beta, gamma;      // tokens, FFN width, softmax scale, residual weights
  T q, k, v;                   // ||W_Q||_2, ||W_K||_2, ||W_V||_2 at theta0
  T w1_fro, w2, wU;            // ||W_1||_F, ||W_2||_2, ||W_U||_2 at theta0
  T f0;
  Activation activation;
};

template <class T>
FfnSmoothness<T> all_blocks_smoothness(const AllBlocksPoint<T>& p, const T& rho) {
  using std::abs;
  using std::log;
  using std::sqrt;
  const auto sm = activation_smoothness<T>(p.activation);
  const T s1 = sm->first, s2 = sm->second;
  const T q = p.q + rho, k = p.k + rho, v = p.v + rho, w1 = p.w1_fro + rho, w2 = p.w2 + rho, wU = p.wU + rho;
  const T beta = abs(p.beta), gamma = abs(p.gamma);
  T a2 = 0, b2 = 0, j2 = 0, phi2 = 0;
  for (const T& x : p.x) {
    const T dK = p.c * x * x * sqrt(k * k + q * q), d2K = p.c * x * x;
    const T dS = dK / T(2), d2S = d2K / T(2) + T(2) * dK * dK;
    const T dA = sqrt(dS * dS * x * x * v * v + p.N * x * x), d2A = d2S * x * v + dS * x;
    const T v_max = sqrt(p.N) * x * v + beta * x;
    const T dP = sqrt(dA * dA * w1 * w1 + v_max * v_max), d2P = d2A * w1 + dA;
    const T phi_max = p.activation == Activation::softplus ? T(v_max * w1 + log(T(2)) * sqrt(p.N * p.m))
                                                           : std::min<T>(sqrt(p.N * p.m), T(v_max * w1));
    const T att = s1 * dA * w1 * w2 + gamma * dA;
    const T dH = sqrt(att * att + s1 * s1 * v_max * v_max * w2 * w2 + phi_max * phi_max);
    const T d2H = (s2 * dP * dP + s1 * d2P) * w2 + s1 * dP + gamma * d2A;
    const T h_max = phi_max * w2 + gamma * v_max;
    const T dY2 = dH * dH * wU * wU + h_max * h_max, d2Y = d2H * wU + dH;
    a2 += dY2;
    b2 += d2Y * d2Y;
    j2 += dH * dH;
    phi2 += phi_max * phi_max;
  }
  FfnSmoothness<T> r;
  r.a = sqrt(a2);
  r.b = sqrt(b2);
  r.J = sqrt(j2);
  r.phi_max = sqrt(phi2);
  r.r_max = sqrt(T(2) * p.f0) + r.a * rho;
  r.Lg = r.a * r.a + r.r_max * r.b;
  return r;
}

}  // namespace thm::detail
