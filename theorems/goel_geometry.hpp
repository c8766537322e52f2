// [G] claims about the manifold of global minima and the one-point conditions around it, for the
// population objective in (P, Q) coordinates, f = 1/2 ||P Q^T - Z*||_F^2 + lambda/8 ||P^T P - Q^T Q||_F^2
// (claims.md, "Model [G]"; constants in theorems/goel_constants.hpp).
//
//   goel.geometry.one_point_strong_convexity (paper-shape; docs/derivations/...one_point_strong_convexity.md)
//     rank(Z*) = d, dist_P(theta, S) <= rho: <grad Qobj, theta - proj_S theta> >= alpha dist_P^2.
//     Negative control: the hypothesis rank(Z*) = d dropped (the generator adds rank-deficient instances
//     displaced along a quartic direction, where the inequality fails).
//
//   goel.geometry.one_point_smoothness (paper-shape; docs/derivations/...one_point_smoothness.md)
//     same region: ||grad Qobj||_{P^{-1}}^2 <= beta_s dist_P^2.
//     Negative control: beta_s replaced by alpha^2 / 4 (false wherever strong convexity holds).
//
//   goel.geometry.local_contraction (paper-shape; docs/derivations/goel.geometry.local_contraction.md)
//     GD on (P, Q) (= preconditioned GD on (A, B)) with eta = alpha / beta_s from theta_0 in the region:
//     dist_{t+1}^2 <= mu dist_t^2, mu = 1 - 2 eta alpha + eta^2 beta_s, at each of kContractionSteps steps.
//     Negative control: mu replaced by 1 - 2 alpha / sqrt(beta_s), false at every point of the region (a step
//     of length eta ||grad|| <= eta sqrt(beta_s) dist cannot shrink dist by more; derivation).
#pragma once

#include "theorems/claim.hpp"
#include "theorems/goel/protocol.hpp"

namespace thm {

inline constexpr int kContractionSteps = 20;            // GD steps checked by local_contraction

Instance generate_one_point_strong_convexity(ChoiceSource& src);  // adds rank-deficient quartic cases
Instance generate_one_point_region(ChoiceSource& src);            // full rank, inside rho

template <class T>
Evaluation evaluate_one_point_strong_convexity(const Instance& inst, Variant variant);
template <class T>
Evaluation evaluate_one_point_smoothness(const Instance& inst, Variant variant);
template <class T>
Evaluation evaluate_local_contraction(const Instance& inst, Variant variant);

#define THM_GOEL_GEOMETRY_EXTERN(T)                                                          \
  extern template Evaluation evaluate_one_point_strong_convexity<T>(const Instance&, Variant); \
  extern template Evaluation evaluate_one_point_smoothness<T>(const Instance&, Variant);     \
  extern template Evaluation evaluate_local_contraction<T>(const Instance&, Variant);
THM_GOEL_GEOMETRY_EXTERN(double)
THM_GOEL_GEOMETRY_EXTERN(mp50)
THM_GOEL_GEOMETRY_EXTERN(mp100)
THM_GOEL_GEOMETRY_EXTERN(mpfr_dynamic)
#undef THM_GOEL_GEOMETRY_EXTERN

}  // namespace thm
