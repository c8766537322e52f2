#include "reports/run_result.hpp"

namespace thm {

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
