// The common setting of [G]'s one-point claims (strong convexity, smoothness, local contraction): theta in (P, Q),
// the manifold S, the projection, the constants of theorems/goel/constants.hpp, and why a case is outside the region.
#pragma once

#include "numerics/models/goel/factor_manifold.hpp"
#include "numerics/spectral.hpp"
#include "numerics/models/goel/detail/population_instance_impl.hpp"
#include "theorems/goel/noise.hpp"
#include "theorems/goel/constants.hpp"

#include <string>

namespace thm::detail {

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

}  // namespace thm::detail
