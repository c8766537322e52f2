// Every claim the suite knows, one per claim file under theorems/, in id order, and selection by id or glob.
#pragma once

#include "theorems/claim.hpp"

#include <string>
#include <vector>

namespace thm {

const std::vector<Claim>& all_claims();

// Claims whose id matches one of the comma-separated patterns (exact ids or globs with * and ?).
// Throws std::invalid_argument naming the first pattern that matches nothing.
std::vector<const Claim*> select_claims(const std::string& patterns);

bool glob_match(const std::string& pattern, const std::string& text);

}  // namespace thm
