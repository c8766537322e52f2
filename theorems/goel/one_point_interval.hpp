// The one-point setting of theorems/goel/one_point.hpp on intervals (goel.geometry.*'s certificates;
// docs/derivations/interval_enclosure.md, "The manifold of minima"). With rank(Z*) = d <= k the manifold of minima is
// the set of balanced factorisations of Z*, S = {(P0 O, Q0 O) : O in O(d)} with Q0 = (Z*^T Z*)^{1/4} and P0 = Z* Q0^{-1}
// (P0 Q0^T = Z*, P0^T P0 = Q0^2 = Q0^T Q0), which nests two enclosed SPD roots instead of an SVD; the projection is
// orthogonal Procrustes, O_hat = polar(P0^T P + Q0^T Q), unique where that matrix is invertible.
#pragma once

#include "numerics/models/goel/attention_regression_interval.hpp"
#include "theorems/certify.hpp"

#include <optional>
#include <string>

namespace thm::detail {

struct IntervalOnePoint {
  GProblem<mpfi_dynamic> g;
  IMat P0, Q0;  // a point of S
  mpfi_dynamic sigma_1, sigma_r, alpha, rho, beta_s, eta, mu;  // theorems/goel/constants.hpp, enclosed
  Factors<mpfi_dynamic> theta;  // (A Sigma^{1/2}, Sigma^{1/2} B Sigma^{1/2}) of the instance, exactly
};

// The setting, or why it cannot be built: a certified discard (k < d) or a hypothesis undecided (rank(Z*) = d).
inline IntervalOnePoint interval_one_point(const Instance& inst, std::optional<Certification>& refusal) {
  using I = mpfi_dynamic;
  IntervalOnePoint s{interval_goel(inst), {}, {}, I(0), I(0), I(0), I(0), I(0), I(0), I(0), {}};
  if (s.g.k < s.g.d) {
    refusal = certified_discard("k < d: Z* cannot have rank d (hypothesis rank(Z*) = d)");
    return s;
  }
  const IMat& Z = s.g.task.Z;
  const SingularValueEnclosure sz = enclose_singular_values(Z);
  s.sigma_1 = sz.sigma.front();
  s.sigma_r = sz.sigma[static_cast<std::size_t>(s.g.d - 1)];
  if (!(lower(s.sigma_r) > 0)) {
    refusal = not_certified("rank(Z*) = d is not certified (sigma_d(Z*) > 0 undecided)");
    return s;
  }
  const IntervalRoots w = enclose_spd_roots(IMat(Z.transpose() * Z));
  const IntervalRoots q = enclose_spd_roots(w.sqrt);
  s.Q0 = q.sqrt;
  s.P0 = Z * q.inv_sqrt;
  const double lambda = inst.param("lambda");  // the instance's double: min(1, lambda) decided exactly
  const I m = lambda < 1.0 ? s.g.lambda : I(1);
  s.alpha = m * s.sigma_r / I(2);
  s.rho = m * s.sigma_r / (I(3) * sqrt(I(2)) * (I(1) + s.g.lambda) * sqrt(s.sigma_1));
  const I a = sqrt(s.sigma_1) + s.rho, b = sqrt(I(2) * s.sigma_1) + s.rho / I(2);
  s.beta_s = I(2) * (I(1) + s.g.lambda) * (I(1) + s.g.lambda) * a * a * b * b;
  s.eta = s.alpha / s.beta_s;
  s.mu = I(1) - I(2) * s.eta * s.alpha + s.eta * s.eta * s.beta_s;
  s.theta = to_factors(s.g.A, s.g.B, s.g.task.roots);
  return s;
}

struct IntervalProjection {
  Factors<mpfi_dynamic> point;
  mpfi_dynamic distance;
};

inline IntervalProjection interval_projection(const IntervalOnePoint& s, const Factors<mpfi_dynamic>& theta) {
  const IMat O = enclose_polar_factor(IMat(s.P0.transpose() * theta.P + s.Q0.transpose() * theta.Q));
  IntervalProjection p{{s.P0 * O, s.Q0 * O}, mpfi_dynamic(0)};
  p.distance = sqrt(mpfi_dynamic(squared_frobenius(IMat(theta.P - p.point.P)) + squared_frobenius(IMat(theta.Q - p.point.Q))));
  return p;
}

// The region hypothesis dist_P(theta, S) <= rho: certified inside (nullopt), certified outside (a discard), or undecided.
inline std::optional<Certification> region_refusal(const IntervalProjection& p, const mpfi_dynamic& rho) {
  if (upper(p.distance) <= lower(rho)) return std::nullopt;
  if (lower(p.distance) > upper(rho)) return certified_discard("dist_P(theta, S) > rho certified: outside the region");
  return not_certified("dist_P(theta, S) <= rho is not decided at this precision");
}

inline mpfi_dynamic factor_squared_norm(const Factors<mpfi_dynamic>& f) { return squared_frobenius(f.P) + squared_frobenius(f.Q); }

}  // namespace thm::detail
