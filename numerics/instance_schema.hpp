// What a claim reads from an instance, checked before any arithmetic: the parameters with their ranges
// (integers where they count something), the matrices with their shapes as functions of those parameters,
// and nothing else. The upper limits of the counts bound the work, so that every accepted instance
// evaluates within a minute at up to InstanceSchema::kReferenceDigits digits; above that, an instance is
// accepted while its estimated time (the claim's measured seconds at its limits, times the square of the
// digits' ratio and the entries' ratio to the power 3/2) stays within a minute (docs/spec/design.md,
// "Instance schemas").
#pragma once

#include "numerics/instance.hpp"

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace thm {

struct MatrixShape {
  std::string name;
  Eigen::Index rows = 0, cols = 0;
};

class InstanceSchema {
 public:
  static constexpr int kReferenceDigits = 200;
  static constexpr double kMaxSeconds = 60;

  InstanceSchema() = default;
  explicit InstanceSchema(std::string family) : family_(std::move(family)) {}

  // A parameter that counts something: present, an integer, in [lo, hi]; hi is a limit on the work.
  InstanceSchema& integer(std::string name, std::int64_t lo, std::int64_t hi);
  // A real parameter: present and in [lo, hi] (any finite value by default).
  InstanceSchema& real(std::string name, double lo = -std::numeric_limits<double>::max(), double hi = std::numeric_limits<double>::max());
  // Matrices, as a function of an instance whose parameters passed (it may ask which of two stored forms
  // the file holds); several calls add up.
  using Shapes = std::function<std::vector<MatrixShape>(const Instance&)>;
  InstanceSchema& matrices(Shapes shapes);
  // The seconds the claim's largest instances take at kReferenceDigits (bench/largest_instances.sh); default 1.
  InstanceSchema& seconds_at_limits(double seconds);

  // Throws InstanceError with one line naming the parameter or the matrix and both shapes: wrong family,
  // a missing, non-integral or out-of-range parameter, a missing, misshapen or undeclared matrix, a
  // non-finite entry, or more entries in all than `digits` allow. `patient` lifts the limits on the work
  // (the upper ends of the counts, the entries at high digits), never the shapes.
  void check(const Instance& inst, int digits = kReferenceDigits, bool patient = false) const;
  // The entries of the largest instance the limits admit: every count at its upper limit.
  double largest_entries() const;

  // The declared matrices of an instance whose parameters pass (the tests perturb each in turn).
  std::vector<MatrixShape> shapes(const Instance& inst) const;
  double seconds_at_limits() const { return seconds_; }
  const std::string& family() const { return family_; }
  bool empty() const { return family_.empty(); }

 private:
  struct Range {
    std::string name;
    double lo, hi;
    bool integral;
  };
  std::string family_;
  std::vector<Range> params_;
  std::vector<Shapes> shapes_;
  double seconds_ = 1;
};

}  // namespace thm
