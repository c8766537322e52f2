// The [G] protocol constants read outside their claim file (tests). A claim's id is written once, in its file's
// ClaimInfo; elsewhere it is named by its string (the registry looks it up).
#pragma once

namespace thm {

// goel.population.matrix_factorization: z of its interval (tests/theorems/test_calibration.cpp checks its tails).
inline constexpr double kFactorizationZ = 5.0;

}  // namespace thm
