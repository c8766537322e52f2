// Where a generator's random choices come from. Generators ask for every choice through this
// interface, so the same generator runs from a seeded Rng (the CLI runner) and from RapidCheck
// (the tests, which then shrink every choice towards its simplest value: lo, a, false).
#pragma once

#include "numerics/random.hpp"

#include <algorithm>
#include <cstdint>

namespace thm {

// How large a study's grid is (e.g. the n grid of a rate claim): the CI-sized standard one, or the paper-scale full one
// (run --budget full). A generator that has such a grid writes the one it used into the instance, so replays use it.
enum class StudyBudget { standard, full };

class ChoiceSource {
 public:
  virtual ~ChoiceSource() = default;
  // The study budget the instance is drawn for.
  virtual StudyBudget budget() { return StudyBudget::standard; }
  // How large instances may be, 0..100 (RapidCheck's notion of size).
  virtual int size() = 0;
  // Integer in [lo, hi].
  virtual std::int64_t integer(std::int64_t lo, std::int64_t hi) = 0;
  // Real in [a, b].
  virtual double real(double a, double b) = 0;
  // Real in [a, b], log-uniform (0 < a <= b).
  virtual double log_real(double a, double b) = 0;
  // True with probability p.
  virtual bool coin(double p) = 0;
  // A seed for the bulk of an instance (matrix entries).
  virtual std::uint64_t entropy() = 0;
};

// A dimension that grows with the size: integer in [lo, lo + (cap - lo) size / 100] (cap >= lo).
inline int sized_dimension(ChoiceSource& src, int lo, int cap) {
  const int hi = lo + (cap - lo) * std::clamp(src.size(), 0, 100) / 100;
  return static_cast<int>(src.integer(lo, std::max(lo, hi)));
}

// Choices from a seeded Rng at a fixed size.
class RngChoices final : public ChoiceSource {
 public:
  RngChoices(Rng& rng, int size, StudyBudget budget = StudyBudget::standard) : rng_(rng), size_(size), budget_(budget) {}
  StudyBudget budget() override { return budget_; }
  int size() override { return size_; }
  std::int64_t integer(std::int64_t lo, std::int64_t hi) override { return rng_.uniform_int(lo, hi); }
  double real(double a, double b) override { return rng_.uniform(a, b); }
  double log_real(double a, double b) override { return rng_.log_uniform(a, b); }
  bool coin(double p) override { return rng_.bernoulli(p); }
  std::uint64_t entropy() override { return rng_.next_u64(); }

 private:
  Rng& rng_;
  int size_;
  StudyBudget budget_;
};

}  // namespace thm
