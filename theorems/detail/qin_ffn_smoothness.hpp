// Explicit constants of docs/derivations/qin.gd.linear_rate.md for f(W_1, W_2, W_U) with the
// attention frozen: on the ball B(theta0, rho) in the Frobenius parameter norm,
//   a(rho)  >= sup ||dYhat||  (unit direction),   b(rho) >= sup ||d^2 Yhat||,
//   Lg(rho) = a^2 + Rmax b    (gradient-Lipschitz bound),   J(rho) >= Lipschitz constant of theta -> H.
#pragma once

#include "numerics/activation.hpp"
#include "numerics/spectral.hpp"
#include "numerics/transformer.hpp"

#include <cmath>
#include <optional>

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

}  // namespace thm::detail
