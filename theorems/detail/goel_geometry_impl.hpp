#pragma once

#include "numerics/factor_manifold.hpp"
#include "numerics/spectral.hpp"
#include "theorems/detail/goel_instance_impl.hpp"
#include "theorems/goel/noise.hpp"
#include "theorems/goel_constants.hpp"
#include "theorems/goel_geometry.hpp"

#include <string>

namespace thm {

namespace detail {

// The common setting of the one-point claims: theta in (P, Q), S, its projection, the constants.
template <class T>
struct OnePointSetting {
  GProblem<T> g;
  FactorManifold<T> S;
  Factors<T> theta;
  Projection<T> proj;
  OnePointConstants<T> c;
  T sigma_1, sigma_r;
  T e_w;  // noise of theta - proj (factor_noise)
};

// The claim uses r = d (its hypothesis, judged through the region: a numerically rank-deficient Z*
// has a tiny sigma_d and so a tiny rho); the negative control drops it and uses the instance's rank.
template <class T>
OnePointSetting<T> one_point_setting(const Instance& inst, Variant variant) {
  OnePointSetting<T> s{lift_goel<T>(inst), {}, {}, {}, {}, T(0), T(0), T(0)};
  const int r = variant == Variant::claim ? std::min(s.g.k, s.g.d) : s.g.rank;
  s.S = factor_manifold(s.g.task.Z, r);
  s.sigma_1 = s.S.sigma(0);
  s.sigma_r = s.S.sigma(r - 1);
  s.c = one_point_constants(s.sigma_1, s.sigma_r, s.g.lambda);
  s.theta = to_factors(s.g.A, s.g.B, s.g.task.roots);
  s.proj = project_onto_manifold(s.S, s.theta);
  s.e_w = factor_noise(s.g, s.g.A, s.g.B, s.sigma_1, s.sigma_r);
  return s;
}

// Why a one-point case is outside the claim's region, or "" when it is inside.
template <class T>
std::string one_point_discard(const OnePointSetting<T>& s) {
  if (s.g.k < s.g.d) return "k < d: Z* cannot have rank d (hypothesis rank(Z*) = d)";
  if (!(s.sigma_r > 0)) return "sigma_d(Z*) = 0: hypothesis rank(Z*) = d fails";
  if (!(s.proj.distance <= s.c.rho - s.e_w))
    return "dist_P(theta, S) = " + exact_decimal(to_double(s.proj.distance)) + " > rho = " + exact_decimal(to_double(s.c.rho)) +
           (s.sigma_r < T(1e-8) * s.sigma_1 ? " (Z* numerically rank-deficient: hypothesis rank(Z*) = d fails)" : "");
  return "";
}

template <class T>
void one_point_observations(Evaluation& e, const OnePointSetting<T>& s) {
  e.observations.emplace_back("alpha", to_double(s.c.alpha));
  e.observations.emplace_back("rho", to_double(s.c.rho));
  e.observations.emplace_back("beta_s", to_double(s.c.beta_s));
  e.observations.emplace_back("dist_P / rho", to_double(T(s.proj.distance / s.c.rho)));
  e.observations.emplace_back("sigma_1(Z*)", to_double(s.sigma_1));
  e.observations.emplace_back("sigma_r(Z*)", to_double(s.sigma_r));
  e.observations.emplace_back("lambda", to_double(s.g.lambda));
}

}  // namespace detail

template <class T>
Evaluation evaluate_one_point_strong_convexity(const Instance& inst, Variant variant) {
  using std::sqrt;
  const detail::OnePointSetting<T> s = detail::one_point_setting<T>(inst, variant);
  const std::string why = detail::one_point_discard(s);
  if (!why.empty()) return Evaluation::discarded(why);
  const Factors<T> grad = factor_gradient(s.theta, s.g.task.Z, Regularizer::balancing, s.g.lambda);
  const Factors<T> delta = s.theta - s.proj.point;
  const T dist = s.proj.distance, lhs = inner(grad, delta), rhs = s.c.alpha * dist * dist;
  const T e_g = detail::gradient_noise(s.g, s.theta), ce = detail::chain_eps<T>(s.g.k + s.g.d);
  using std::abs;
  const T noise = e_g * dist + sqrt(squared_norm(grad)) * s.e_w + ce * abs(lhs) + s.c.alpha * (T(2) * dist * s.e_w + s.e_w * s.e_w);
  Evaluation e;
  e.conditions.push_back(make_ge<T>("<grad Qobj, theta - proj_S theta> >= alpha dist_P^2", lhs, rhs, noise));
  e.observations.emplace_back("<grad, Delta> / dist_P^2", to_double(T(lhs / (dist * dist))));
  e.observations.emplace_back("(<grad, Delta> / dist_P^2) / alpha", to_double(T(lhs / rhs)));
  detail::one_point_observations(e, s);
  return e;
}

template <class T>
Evaluation evaluate_one_point_smoothness(const Instance& inst, Variant variant) {
  using std::sqrt;
  const detail::OnePointSetting<T> s = detail::one_point_setting<T>(inst, Variant::claim);
  const std::string why = detail::one_point_discard(s);
  if (!why.empty()) return Evaluation::discarded(why);
  const Factors<T> grad = factor_gradient(s.theta, s.g.task.Z, Regularizer::balancing, s.g.lambda);
  const T dist = s.proj.distance, g2 = squared_norm(grad), gn = sqrt(g2);
  const T beta = variant == Variant::claim ? s.c.beta_s : T(s.c.alpha * s.c.alpha / T(4));
  const T e_g = detail::gradient_noise(s.g, s.theta), ce = detail::chain_eps<T>(s.g.k + s.g.d);
  const T noise = T(2) * gn * e_g + e_g * e_g + ce * g2 + beta * (T(2) * dist * s.e_w + s.e_w * s.e_w);
  Evaluation e;
  e.conditions.push_back(make_le<T>(variant == Variant::claim ? "||grad Qobj||_{P^-1}^2 <= beta_s dist_P^2"
                                                              : "||grad Qobj||_{P^-1}^2 <= (alpha^2 / 4) dist_P^2",
                                    g2, T(beta * dist * dist), noise));
  e.observations.emplace_back("||grad||^2 / dist_P^2", to_double(T(g2 / (dist * dist))));
  e.observations.emplace_back("(||grad||^2 / dist_P^2) / beta_s", to_double(T(g2 / (s.c.beta_s * dist * dist))));
  detail::one_point_observations(e, s);
  return e;
}

template <class T>
Evaluation evaluate_local_contraction(const Instance& inst, Variant variant) {
  using std::sqrt;
  const detail::OnePointSetting<T> s = detail::one_point_setting<T>(inst, Variant::claim);
  const std::string why = detail::one_point_discard(s);
  if (!why.empty()) return Evaluation::discarded(why);
  const T eta = s.c.eta;
  // The control claims mu'' = 1 - 2 alpha / sqrt(beta_s): false at every point of the region, since a
  // step of length eta ||grad|| <= eta sqrt(beta_s) dist moves dist by at most that (derivation).
  const T mu = variant == Variant::claim ? s.c.mu : T(T(1) - T(2) * s.c.alpha / sqrt(s.c.beta_s));
  const T ce = detail::chain_eps<T>(s.g.k + s.g.d);
  Evaluation e;
  Factors<T> theta = s.theta;
  Projection<T> pr = s.proj;
  e.observations.emplace_back("dist_P^2[t=0]", to_double(T(pr.distance * pr.distance)));
  for (int t = 0; t < kContractionSteps; ++t) {
    const Factors<T> grad = factor_gradient(theta, s.g.task.Z, Regularizer::balancing, s.g.lambda);
    const T e_step = eta * detail::gradient_noise(s.g, theta) + ce * sqrt(squared_norm(theta));
    theta.P -= eta * grad.P;
    theta.Q -= eta * grad.Q;
    const Projection<T> next = project_onto_manifold(s.S, theta);
    const T d0 = pr.distance, d1 = next.distance;
    const T e_w = ce * s.sigma_1 / sqrt(s.sigma_r) + (t == 0 ? s.e_w : T(0));
    const T noise = T(2) * d1 * (e_w + e_step) + T(2) * mu * d0 * e_w + ce * (d1 * d1 + mu * d0 * d0);
    e.conditions.push_back(make_le<T>("step " + std::to_string(t) + (variant == Variant::claim ? ": dist_{t+1}^2 <= mu dist_t^2"
                                                                                                 : ": dist_{t+1}^2 <= (1 - 2 alpha / sqrt(beta_s)) dist_t^2"),
                                      T(d1 * d1), T(mu * d0 * d0), noise));
    e.observations.emplace_back("dist_P^2[t=" + std::to_string(t + 1) + "]", to_double(T(d1 * d1)));
    pr = next;
  }
  e.observations.emplace_back("mu", to_double(mu));
  e.observations.emplace_back("eta", to_double(eta));
  const double first = e.observations.front().second, last = e.observations[kContractionSteps].second;
  e.observations.emplace_back("observed per-step contraction of dist^2", std::pow(last / first, 1.0 / kContractionSteps));
  detail::one_point_observations(e, s);
  return e;
}

}  // namespace thm
