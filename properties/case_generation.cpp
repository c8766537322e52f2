#include "properties/case_generation.hpp"

#include "numerics/choice_source.hpp"
#include "numerics/random.hpp"

namespace thm {

int case_size(int index, int cases) { return cases <= 1 ? 100 : static_cast<int>((100LL * index) / (cases - 1)); }

Instance generate_case(const Claim& claim, std::uint64_t seed, int index, int cases, StudyBudget budget) {
  Rng rng = Rng::derive(seed, claim.id, static_cast<std::uint64_t>(index));
  RngChoices choices(rng, case_size(index, cases), budget);  // small instances first
  return claim.generate(choices);
}

}  // namespace thm
