// The JSON of thmcheck power: per claim its knob, strength t, resolving factor k* and the power on a grid of factors.
#pragma once

#include "properties/power.hpp"

#include <string>
#include <vector>

namespace thm {

std::string power_json(const std::vector<ClaimPower>& results, const PowerOptions& options);

}  // namespace thm
