// Shared pieces of the [G] generators: the population problem's draws (Sigma, Z*, lambda), the Monte-Carlo
// claims' population spec, and the one-point region's generator (smoothness, local contraction, strong convexity).
#pragma once

#include "theorems/claim.hpp"
#include "numerics/models/goel/population_instance.hpp"

namespace thm {

namespace detail {

inline constexpr int kDimCap = 6;
inline constexpr int kMaxTries = 200;

// Sigma, Z* and lambda (the population problem), with d already set.
void draw_problem(ChoiceSource& src, GSpec& s);
// rho of the one-point conditions at the spec's Z* and lambda (theorems/goel/constants.hpp).
double rho_of(const GSpec& s);
// The population instances of the Monte-Carlo claims: d, k in 1..4, Sigma with eigenvalues in [1/4, 4], A and B Gaussian.
GSpec population_spec(ChoiceSource& src);

}  // namespace detail

Instance generate_one_point_region(ChoiceSource& src);  // full rank, inside rho
// What it draws: d <= kDimCap - 1, k <= d + 3.
inline InstanceSchema one_point_region_schema() { return goel_population_schema({detail::kDimCap + 2, detail::kDimCap - 1}); }
// What population_spec draws: d, k <= 4.
inline InstanceSchema population_schema(GSchema extras = {4, 4}) { return goel_population_schema(extras); }

}  // namespace thm
