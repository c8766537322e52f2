#include "theorems/legacy_registry.hpp"

namespace thm::legacy {

// Every [G] claim has its own file under theorems/goel/.
void goel_claims(std::vector<Claim>& claims) {}

}  // namespace thm::legacy
