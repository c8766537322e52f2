#include "theorems/legacy_registry.hpp"

namespace thm::legacy {

// Every [Q] claim has its own file under theorems/qin/.
void qin_claims(std::vector<Claim>&) {}

}  // namespace thm::legacy
