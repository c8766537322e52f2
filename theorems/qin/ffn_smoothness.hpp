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

// The sharper constants (docs/derivations/qin.gd.linear_rate.md, "Sharper constants", and
// qin.gd.linear_rate_multilayer.md for the propagation through the layers): every norm that the products of
// norms above bound a priori is instead the instance's own at theta_0 plus what the ball can add to it
// (Lipschitz bound times rho), spectral norms where a Frobenius norm was used, the softmax Jacobian bounded by
// the largest attention weight on the ball, and the rows of dS, d2S (which sum to zero) applied to centred
// values. The layers are either every block of the stack, all trained (the input U of layer l >= 2 moves with
// the layers below: its derivative bounds are the J and D2H of the layer below), or the last block alone with
// its attention frozen (dV = 0; the FFN and the head trained).
template <class T>
struct SharpSample {
  T x, xc;    // ||U_i||_2, ||C U_i||_2 (C = I - 1 1^T / N, the centring) of the layer's input at theta_0
  T qx, kx;   // ||U_i W_Q||_2, ||U_i W_K||_2 at theta_0
  T vc;       // ||C U_i W_V||_2 at theta_0
  T sx, s2;   // ||S_i U_i||_2, ||S_i||_2 at theta_0
  T smax;     // largest attention weight max_rj (S_i)_rj at theta_0
};

template <class T>
struct SharpLayer {
  std::vector<SharpSample<T>> samples;  // used when the attention is trained
  bool attention_trained = true;
  T q{}, k{}, v{};   // ||W_Q||_2, ||W_K||_2, ||W_V||_2 at theta_0 (attention trained)
  T v0;              // ||Vs||_2 (stacked attention output with residual) at theta_0
  T w1, w2;          // ||W_1||_2, ||W_2||_2 at theta_0
  T phi0, h0;        // ||Phi||_2, ||Hs||_2 at theta_0
};

template <class T>
struct SharpPoint {
  std::vector<SharpLayer<T>> layers;  // bottom to top; the head reads the last
  T N, c, beta, gamma, nNm;
  T wU, f0;
  Activation activation;
};

template <class T>
FfnSmoothness<T> sharp_smoothness(const SharpPoint<T>& p, const T& rho) {
  using std::abs;
  using std::exp;
  using std::min;
  using std::sqrt;
  const auto sm = activation_smoothness<T>(p.activation);
  const T s1 = sm->first, s2 = sm->second, gamma = abs(p.gamma), beta = abs(p.beta);
  // DU, D2U: bounds on ||dU||_F, ||d2U||_F of the current layer's input (stacked; each sample's is at most this).
  T DU = 0, D2U = 0, J = 0, D2H = 0, Phimax = 0, h0 = 0;
  for (const SharpLayer<T>& l : p.layers) {
    T dv2 = 0, d2v2 = 0;  // sum_i DA_i^2, sum_i D2A_i^2
    if (l.attention_trained)
      for (const SharpSample<T>& s : l.samples) {
        const T q = l.q + rho, k = l.k + rho, v = l.v + rho;
        const T Uu = s.x + DU * rho, Uc = s.xc + DU * rho;  // ||U||_2, ||C U||_2 on the ball
        const T Q = s.qx + rho * (DU * q + s.x), K = s.kx + rho * (DU * k + s.x), Vc = s.vc + rho * (DU * v + s.xc);
        const T dK = p.c * sqrt(DU * (q * K + k * Q) * DU * (q * K + k * Q) + Uu * Uu * (K * K + Q * Q));
        const T m2 = DU > T(0) ? T(DU * DU * (q * q + k * k) + T(2) * Uu * Uu) : T(Uu * Uu);
        const T d2K = p.c * ((D2U * q + DU) * K + Q * (D2U * k + DU) + m2);
        const T sigmaS = min<T>(T(0.5), T(s.smax * exp(T(2) * dK * rho)));  // ||diag(s) - s s^T||_2 <= max_j s_j
        const T dS = sigmaS * dK, d2S = sigmaS * d2K + min<T>(T(2), T(T(3) * sigmaS)) * dK * dK;
        const T Sn = min<T>(T(sqrt(p.N)), T(s.s2 + dS * rho));                        // ||S||_2 on the ball
        const T SU = min<T>(T(Sn * Uu), T(s.sx + rho * (dS * Uc + Sn * DU)));          // ||S U||_2 on the ball
        const T att = dS * Vc + Sn * DU * v + beta * DU;
        const T dA = sqrt(att * att + SU * SU);
        const T d2A = d2S * Vc + T(2) * dS * DU * v + dS * Uc + Sn * (D2U * v + DU) + beta * D2U;
        dv2 += dA * dA;
        d2v2 += d2A * d2A;
      }
    const T DV = sqrt(dv2), D2V = sqrt(d2v2);
    const T Vmax = l.v0 + DV * rho, W1 = l.w1 + rho, W2 = l.w2 + rho;
    const T DP = sqrt(DV * W1 * DV * W1 + Vmax * Vmax), D2P = D2V * W1 + DV;
    Phimax = l.phi0 + s1 * DP * rho;
    if (p.activation == Activation::tanh) Phimax = min<T>(Phimax, T(sqrt(p.nNm)));  // |tanh| <= 1
    const T att = (s1 * W1 * W2 + gamma) * DV, ffn = s1 * W2 * Vmax;
    J = sqrt(att * att + ffn * ffn + Phimax * Phimax);
    D2H = (s2 * DP * DP + s1 * D2P) * W2 + s1 * DP + gamma * D2V;
    h0 = l.h0;
    DU = J;
    D2U = D2H;
  }
  FfnSmoothness<T> r;
  r.phi_max = Phimax;
  r.J = J;
  const T WU = p.wU + rho, Hmax = h0 + J * rho;
  r.a = sqrt(J * WU * J * WU + Hmax * Hmax);
  r.b = D2H * WU + J;
  r.r_max = sqrt(T(2) * p.f0) + r.a * rho;
  r.Lg = r.a * r.a + r.r_max * r.b;
  return r;
}

}  // namespace thm::detail
