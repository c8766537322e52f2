#include "reports/run_result.hpp"

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

bool RunResult::all_as_expected() const {
  for (const ClaimResult& c : claims)
    if (!c.verdict.is_expected()) return false;
  return true;
}

RunResult resolve_run(std::uint64_t seed, Variant variant, std::vector<ClaimRun> runs) {
  RunResult out{seed, variant, {}};
  std::vector<std::vector<ClaimRun>> groups;
  for (ClaimRun& r : runs) {
    std::vector<ClaimRun>* group = nullptr;
    for (std::vector<ClaimRun>& g : groups)
      if (g.front().claim == r.claim) group = &g;
    if (!group) group = &groups.emplace_back();
    group->push_back(std::move(r));
  }
  for (std::vector<ClaimRun>& g : groups) out.claims.push_back(resolve_claim(std::move(g)));
  return out;
}

}  // namespace thm
