// A ChoiceSource backed by RapidCheck: every choice a generator makes becomes a RapidCheck pick,
// so a failing instance shrinks choice by choice (dimensions down, scales towards their lower end,
// coins to false) and RC_PARAMS="reproduce=..." replays it.
#pragma once

#include "numerics/choice_source.hpp"
#include "numerics/random.hpp"

#include <rapidcheck.h>

#include <algorithm>
#include <cstdint>

namespace thm {

class RcChoices final : public ChoiceSource {
 public:
  static constexpr int kSteps = 1 << 20;  // resolution of real choices

  int size() override {
    return *rc::gen::withSize([](int s) { return rc::gen::just(std::clamp(s, 0, 100)); });
  }
  std::int64_t integer(std::int64_t lo, std::int64_t hi) override { return *rc::gen::inRange<std::int64_t>(lo, hi + 1); }
  double real(double a, double b) override { return a + (b - a) * fraction(); }
  double log_real(double a, double b) override {
    if (a == b) return a;
    return cr_exp(cr_log(a) + (cr_log(b) - cr_log(a)) * fraction());
  }
  bool coin(double p) override { return *rc::gen::inRange(0, kSteps) >= static_cast<int>((1.0 - p) * kSteps); }
  std::uint64_t entropy() override { return *rc::gen::inRange<std::uint64_t>(0, std::uint64_t{1} << 53); }

 private:
  double fraction() { return static_cast<double>(*rc::gen::inRange(0, kSteps + 1)) / kSteps; }
};

}  // namespace thm
