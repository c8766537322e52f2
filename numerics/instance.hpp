// An instance: the generating parameters and the matrices, held in double so that the same instance
// is lifted exactly to every precision. Generic on purpose: every claim family stores named
// parameters and matrices, which also makes instances easy to write to and read from files.
#pragma once

#include "numerics/eigen_types.hpp"

#include <map>
#include <stdexcept>
#include <string>

namespace thm {

// Thrown for a malformed instance (missing entry, non-finite number, wrong shape).
struct InstanceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Instance {
  std::string family;                     // which generator made it, e.g. "qin.attention"
  std::map<std::string, double> params;   // generating parameters: dimensions, scales, beta, seed
  std::map<std::string, MatD> matrices;   // the data

  const MatD& matrix(const std::string& name) const;
  // The same, checked to be rows x cols (InstanceError naming both shapes otherwise): every auxiliary matrix a claim
  // reads is checked before any arithmetic (Release builds have no index checks).
  const MatD& matrix(const std::string& name, Eigen::Index rows, Eigen::Index cols) const;
  double param(const std::string& name) const;
  bool has_param(const std::string& name) const { return params.count(name) != 0; }
  // "family{name=value, ...}" with round-trip decimals: enough to rebuild the instance.
  std::string describe() const;
  // Throws InstanceError when any parameter or matrix entry is NaN or infinite.
  void require_finite() const;
};

}  // namespace thm
