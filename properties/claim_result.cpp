#include "properties/claim_result.hpp"

#include <stdexcept>

namespace thm {

std::vector<const ClaimRun*> ClaimResult::row_pointers() const {
  std::vector<const ClaimRun*> out;
  for (const ClaimRun& r : rows) out.push_back(&r);
  return out;
}

ClaimResult resolve_claim(std::vector<ClaimRun> rows) {
  if (rows.empty()) throw std::invalid_argument("resolve_claim: a claim without rows");
  ClaimResult out;
  out.rows = std::move(rows);
  out.verdict = resolve(out.row_pointers());
  return out;
}

}  // namespace thm
