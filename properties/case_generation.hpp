// A claim's cases from one seed: case `index` of a budget of `cases` is drawn from its own stream, at a size that
// grows with the index (small instances first), so that any case can be regenerated alone (run, replay, explore,
// the shrinker).
#pragma once

#include "theorems/claim.hpp"

#include <cstdint>

namespace thm {

// The size (0..100) of case `index` of a budget of `cases`: sizes sweep 0..100 as RapidCheck's do.
int case_size(int index, int cases);

// The instance of case `index` of `claim` for `seed`: the replay primitive.
Instance generate_case(const Claim& claim, std::uint64_t seed, int index, int cases,
                       StudyBudget budget = StudyBudget::standard);

}  // namespace thm
