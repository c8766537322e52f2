// The ids of the [G] claims and the protocol constants read outside their claim file (tests, cli, seeds).
#pragma once

namespace thm {

inline constexpr const char* kTiltingIdentityId = "goel.population.tilting_identity";
inline constexpr const char* kMatrixFactorizationId = "goel.population.matrix_factorization";
inline constexpr const char* kInvariancesId = "goel.population.invariances";
inline constexpr const char* kGlobalMinimaId = "goel.manifold.global_minima";
inline constexpr const char* kOnePointStrongConvexityId = "goel.geometry.one_point_strong_convexity";
inline constexpr const char* kOnePointSmoothnessId = "goel.geometry.one_point_smoothness";
inline constexpr const char* kLocalContractionId = "goel.geometry.local_contraction";
inline constexpr const char* kSpectralExactId = "goel.init.spectral_exact";
inline constexpr const char* kPrecondEquivalenceId = "goel.precond.equivalence";
inline constexpr const char* kSpectralNearManifoldId = "goel.init.spectral_near_manifold";
inline constexpr const char* kGeometricInMId = "goel.rate.geometric_in_m";
inline constexpr const char* kExcessBoundV1Id = "goel.risk.excess_bound_v1";
inline constexpr const char* kExcessBound1OverNId = "goel.risk.excess_bound_1_over_n";
inline constexpr const char* kBaselineId = "goel.baseline.sgd_vs_algorithm1";

// goel.population.matrix_factorization: z of its interval (tests/test_calibration.cpp checks its tails).
inline constexpr double kFactorizationZ = 5.0;

}  // namespace thm
