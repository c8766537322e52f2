// The choice tape: every choice a generator made, with its range and value, so that an instance can be
// regenerated with some choices changed. Shrinking (fewer tokens, lower rank, rounder scales) and the
// tightness search both work on tapes; the generator stays the only author of instances, so every
// changed instance still meets the generator's invariants.
#pragma once

#include "numerics/choice_source.hpp"
#include "numerics/random.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace thm {

struct Choice {
  enum class Kind { integer, real, log_real, coin, entropy };
  Kind kind = Kind::real;
  double lo = 0, hi = 0;   // the range asked for (coin: lo = p)
  double value = 0;        // integer, real, log_real; coin: 0 or 1
  std::uint64_t raw = 0;   // entropy
};
using ChoiceTape = std::vector<Choice>;

std::string_view to_string(Choice::Kind k);

// Forwards every choice to `inner` and records it.
class RecordingChoices final : public ChoiceSource {
 public:
  explicit RecordingChoices(ChoiceSource& inner) : inner_(inner) {}
  StudyBudget budget() override { return inner_.budget(); }
  int size() override { return inner_.size(); }
  std::int64_t integer(std::int64_t lo, std::int64_t hi) override;
  double real(double a, double b) override;
  double log_real(double a, double b) override;
  bool coin(double p) override;
  std::uint64_t entropy() override;
  const ChoiceTape& tape() const { return tape_; }

 private:
  ChoiceSource& inner_;
  ChoiceTape tape_;
};

// Replays a tape: choice k takes tape[k]'s value, clamped into the range now asked for (an earlier
// change can move a later range, e.g. a rank bounded by a dimension). Past the end of the tape, or
// where the kind differs, the choice comes from `fallback`. `tape()` is what was actually used.
class TapeChoices final : public ChoiceSource {
 public:
  TapeChoices(const ChoiceTape& tape, Rng& fallback, int size) : in_(tape), fallback_(fallback), size_(size) {}
  int size() override { return size_; }
  std::int64_t integer(std::int64_t lo, std::int64_t hi) override;
  double real(double a, double b) override;
  double log_real(double a, double b) override;
  bool coin(double p) override;
  std::uint64_t entropy() override;
  const ChoiceTape& tape() const { return out_; }

 private:
  const Choice* next(Choice::Kind kind);
  const ChoiceTape& in_;
  Rng& fallback_;
  int size_;
  ChoiceTape out_;
};

}  // namespace thm
