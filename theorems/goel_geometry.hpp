// [G] claims about the manifold of global minima and the one-point conditions around it, for the
// population objective in (P, Q) coordinates, f = 1/2 ||P Q^T - Z*||_F^2 + lambda/8 ||P^T P - Q^T Q||_F^2
// (claims.md, "Model [G]"; constants in theorems/goel_constants.hpp).
//
//   goel.manifold.global_minima (derived; docs/derivations/goel.manifold.global_minima.md)
//     At a point of S: L = L*, R = 0 (both regularisers), grad Qobj = 0 (both); the projection onto S is
//     idempotent and is the nearest point: O_hat^T W*^T W is symmetric (Procrustes optimality), and no
//     random orthogonal O, no small rotation Cayley(+-eps K) O_hat (eps = 1e-3), gives a point of S closer.
//     Negative control: the projection replaced by the polar factor of P*^T P alone (not the nearest point).
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

namespace thm {

inline constexpr const char* kGlobalMinimaId = "goel.manifold.global_minima";
inline constexpr const char* kOnePointStrongConvexityId = "goel.geometry.one_point_strong_convexity";
inline constexpr const char* kOnePointSmoothnessId = "goel.geometry.one_point_smoothness";
inline constexpr const char* kLocalContractionId = "goel.geometry.local_contraction";

inline constexpr double kNearestRotation = 1e-3;        // eps of the Cayley rotations in the nearest-point check
inline constexpr int kContractionSteps = 20;            // GD steps checked by local_contraction

Instance generate_global_minima(ChoiceSource& src);
Instance generate_one_point_strong_convexity(ChoiceSource& src);  // adds rank-deficient quartic cases
Instance generate_one_point_region(ChoiceSource& src);            // full rank, inside rho

template <class T>
Evaluation evaluate_global_minima(const Instance& inst, Variant variant);
template <class T>
Evaluation evaluate_one_point_strong_convexity(const Instance& inst, Variant variant);
template <class T>
Evaluation evaluate_one_point_smoothness(const Instance& inst, Variant variant);
template <class T>
Evaluation evaluate_local_contraction(const Instance& inst, Variant variant);

#define THM_GOEL_GEOMETRY_EXTERN(T)                                                          \
  extern template Evaluation evaluate_global_minima<T>(const Instance&, Variant);            \
  extern template Evaluation evaluate_one_point_strong_convexity<T>(const Instance&, Variant); \
  extern template Evaluation evaluate_one_point_smoothness<T>(const Instance&, Variant);     \
  extern template Evaluation evaluate_local_contraction<T>(const Instance&, Variant);
THM_GOEL_GEOMETRY_EXTERN(double)
THM_GOEL_GEOMETRY_EXTERN(mp50)
THM_GOEL_GEOMETRY_EXTERN(mp100)
THM_GOEL_GEOMETRY_EXTERN(mpfr_dynamic)
#undef THM_GOEL_GEOMETRY_EXTERN

}  // namespace thm
