// The JSON of thmcheck stability: per claim its expected verdict and the seeds where the resolved verdict was not the
// expected one; per seed every claim's resolved verdict.
#pragma once

#include "properties/seed_sweep.hpp"

#include <string>

namespace thm {

// `seeds` and `precision` as given on the command line. Deterministic: the same sweep gives the same bytes.
std::string stability_json(const SeedSweep& sweep, const std::string& seeds, Variant variant, const std::string& precision);

}  // namespace thm
