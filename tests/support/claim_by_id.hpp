// The registered claim with this exact id (the tests of one claim's behaviour).
#pragma once

#include "theorems/registry.hpp"

#include <string>

namespace thm {
inline const Claim& claim(const std::string& id) { return *select_claims(id).front(); }
}  // namespace thm
