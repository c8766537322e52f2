// One instance up the precision ladder at any number of digits (`thmcheck explore`): its verdict at double and at
// each requested number of decimal digits, the worst condition's two sides and margin, how many digits of the margin
// agree between consecutive rungs, the quantities the claim measured at each rung, and the runner's classification
// (properties/verdicts.hpp, classify_case): genuine, rounding artifact, holds, or undecided. Interval certification of
// the conclusion is properties/certification.hpp's certify_case.
#pragma once

#include "properties/runner.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace thm {

// One rung of the ladder: "double" or "<d> digits".
struct ExploreRung {
  std::string name;
  int digits = 0;  // 0: double
  CaseOutcome outcome;
  // The worst condition (outcome.worst_condition >= 0): its name, both sides with every digit, its margin; for a
  // discarded instance the condition is the discard reason and the sides are empty.
  std::string condition, measured, bound;
  bool ge = false;  // the condition reads measured >= bound
  double margin = 0;
  std::optional<double> agreeing_digits;  // with the previous rung's margin (none on the first rung)
  std::vector<std::pair<std::string, double>> quantities;  // the observations, then each point of every series
};

// discarded: the hypotheses are false in double; genuine: violated at every rung; rounding artifact: not holding in
// double, holding once the digits suffice; holds: at every rung; undecided: anything else.
enum class ExploreClass { discarded, genuine, rounding_artifact, holds, undecided };

struct ExploreResult {
  std::vector<ExploreRung> rungs;  // double first, then `digits` in the order given
  ExploreClass classification = ExploreClass::undecided;
};

// One instance judged in double, the ladder's first rung (tighten's best instance): its evaluation and verdict.
struct JudgedInstance {
  Evaluation evaluation;
  CaseVerdict verdict = CaseVerdict::discarded;
};
JudgedInstance judge_in_double(const Claim& claim, const Instance& inst, Variant variant);

// Significant decimal digits on which a and b agree (17 when equal).
double agreeing_digits(double a, double b);

// Evaluates `inst` at double, then at each of `digits`, calling `on_rung` with each rung as soon as it is evaluated
// (so a slow rung shows the earlier ones first). Throws what the claim's evaluation throws (InstanceError for an
// instance it cannot read); the schema is the caller's to check first.
ExploreResult explore_ladder(const Claim& claim, const Instance& inst, Variant variant, const std::vector<int>& digits,
                             const std::function<void(const ExploreRung&)>& on_rung = {});

// The first `max_rows` quantities of the first rung, each with its value at every rung (none where that rung lacks it:
// an evaluation that discards has none) and the digits on which its last two values agree (none with fewer than two).
struct QuantityRow {
  std::string name;
  std::vector<std::optional<double>> values;  // one per rung
  std::optional<double> agreeing_digits;
};
std::vector<QuantityRow> quantity_table(const ExploreResult& result, std::size_t max_rows);

// Interval certification costs O(n^3) multiprecision operations per enclosure: matrices beyond this side are refused.
inline constexpr Eigen::Index kMaxIntervalDimension = 256;
// The first matrix of `inst` with a side beyond kMaxIntervalDimension, as (name, rows, cols); none when all fit.
struct OversizedMatrix {
  std::string name;
  Eigen::Index rows = 0, cols = 0;
};
std::optional<OversizedMatrix> oversized_for_interval(const Instance& inst);

}  // namespace thm
