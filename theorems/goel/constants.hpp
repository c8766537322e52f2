// The explicit constants of [G]'s one-point conditions, in one place (docs/spec/claims.md: "a claim's constants
// live in one place"). Derivation: docs/derivations/goel.geometry.one_point_strong_convexity.md and
// goel.geometry.one_point_smoothness.md; for f(P, Q) = 1/2 ||P Q^T - Z*||_F^2 + lambda/8 ||P^T P - Q^T Q||_F^2
// with Z* of full rank d, sigma_1 >= ... >= sigma_r > 0 its singular values, and dist_P(theta, S) <= rho:
//   <grad f, theta - proj_S theta> >= alpha dist^2,   ||grad f||^2 <= beta_s dist^2,
//   alpha  = min(1, lambda) sigma_r / 2,
//   rho    = min(1, lambda) sigma_r / (3 sqrt2 (1 + lambda) sqrt(sigma_1))        (= alpha / (3 C1), C1 = (1+lambda) sqrt(sigma_1/2)),
//   beta_s = 2 (1 + lambda)^2 (sqrt(sigma_1) + rho)^2 (sqrt(2 sigma_1) + rho/2)^2,
//   eta    = alpha / beta_s,   mu = 1 - 2 eta alpha + eta^2 beta_s = 1 - alpha^2 / beta_s   (local contraction).
#pragma once

#include <algorithm>
#include <cmath>

namespace thm {

template <class T>
struct OnePointConstants {
  T alpha, rho, beta_s, eta, mu;
};

template <class T>
OnePointConstants<T> one_point_constants(const T& sigma_1, const T& sigma_r, const T& lambda) {
  using std::sqrt;
  const T m = lambda < T(1) ? lambda : T(1);
  OnePointConstants<T> c;
  c.alpha = m * sigma_r / T(2);
  c.rho = m * sigma_r / (T(3) * sqrt(T(2)) * (T(1) + lambda) * sqrt(sigma_1));
  const T a = sqrt(sigma_1) + c.rho, b = sqrt(T(2) * sigma_1) + c.rho / T(2);
  c.beta_s = T(2) * (T(1) + lambda) * (T(1) + lambda) * a * a * b * b;
  c.eta = c.alpha / c.beta_s;
  c.mu = T(1) - T(2) * c.eta * c.alpha + c.eta * c.eta * c.beta_s;
  return c;
}

}  // namespace thm
