// The tightness search of [G]'s one-point conditions (the `tightness` of goel.geometry.one_point_strong_convexity
// and goel.geometry.one_point_smoothness): on a few instances of the region's
// generator, hill climbing over points theta with dist_P(theta, S) <= rho (random-direction search with
// an adaptive step, several restarts) minimises <grad, Delta> / dist^2 (to compare with alpha) and
// maximises ||grad||^2 / dist^2 (to compare with beta_s). Restarts begin along the two directions where
// the derivation's bounds are tightest (the complement of U, the antisymmetric one), then at random. Double precision; the ratios are far from
// the rounding level, and the claims themselves are judged at every precision.
#pragma once

#include "theorems/claim.hpp"

#include <cstdint>
#include <vector>

namespace thm {

inline constexpr int kTightnessInstances = 4;
inline constexpr int kTightnessStarts = 4;
inline constexpr int kTightnessSteps = 150;

std::vector<Tightness> one_point_convexity_tightness(std::uint64_t seed);
std::vector<Tightness> one_point_smoothness_tightness(std::uint64_t seed);

}  // namespace thm
