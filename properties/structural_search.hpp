// Searches over a claim's generating choices (properties/choice_tape.hpp), in double:
//
//  - shrink_violation: minimise a violating instance by structure. Each choice is tried at simpler
//    values in turn (integers, i.e. dimensions, ranks and token counts, at their lower end, then one
//    less; scales at the lower end of their range, then rounded to one and two significant digits;
//    coins false) and a change is kept when the instance still violates the claim. Passes repeat until
//    nothing changes or a cap (evaluations, seconds) is reached. The bulk entropy is kept.
//  - tighten: hill climbing that maximises a claim's tightest ratio, 1 - relative slack of its worst
//    condition (= lhs / rhs when rhs > 0; above 1 means violated): random restarts, then one choice at a
//    time moved by a step that grows on success and shrinks on failure.
//
// Discarded instances (hypotheses false) never count: they are neither shrunk into nor scored.
#pragma once

#include "properties/case_generation.hpp"
#include "properties/choice_tape.hpp"
#include "theorems/claim.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace thm {

// Case `index` of `cases` for `seed`, as generate_case draws it, with its tape and size.
struct RecordedCase {
  Instance instance;
  ChoiceTape tape;
  int size = 0;
};
RecordedCase record_case(const Claim& claim, std::uint64_t seed, int index, int cases,
                         StudyBudget budget = StudyBudget::standard);

// Regenerates an instance from a tape (choices past its end from Rng(seed)), at the standard study budget: the
// claims with a budget-dependent grid are never shrunk (ladder_checks = 0) nor searched.
RecordedCase replay_tape(const Claim& claim, const ChoiceTape& tape, int size, std::uint64_t seed);

struct SearchLimits {
  int evaluations = 200;
  double seconds = 20;
};

struct ShrinkResult {
  RecordedCase minimal;
  Evaluation evaluation;           // of the minimal instance, in double
  std::vector<std::string> steps;  // the accepted changes, in order
  int evaluations = 0;
  double seconds = 0;
  bool capped = false;             // stopped by a limit, not because nothing else shrank
};
ShrinkResult shrink_violation(const Claim& claim, const RecordedCase& start, Variant variant, const SearchLimits& limits,
                              std::uint64_t seed);

// The tightest condition of an evaluation: ratio = 1 - relative slack; NaN if nothing was judged.
struct TightestCondition {
  double ratio = 0;
  std::string name;
  double lhs = 0, rhs = 0;
};
std::optional<TightestCondition> tightest(const Evaluation& e);

struct TightenResult {
  RecordedCase best;
  TightestCondition tightest;
  double first_ratio = 0;  // the best of the random starts, before climbing
  int evaluations = 0, discarded = 0, accepted = 0;
  double seconds = 0;
  bool found = false;      // some judged instance was seen
};
TightenResult tighten(const Claim& claim, Variant variant, std::uint64_t seed, const SearchLimits& limits);

}  // namespace thm
