// The environment stamp printed on every report: compiler, library versions, build type, git
// revision. Deterministic for a given build (no clock), so reports stay byte-identical per seed.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace thm {

std::vector<std::pair<std::string, std::string>> environment_stamp();

}  // namespace thm
