#include "numerics/instance.hpp"

#include <cmath>

namespace thm {

const MatD& Instance::matrix(const std::string& name) const {
  auto it = matrices.find(name);
  if (it == matrices.end()) throw InstanceError("instance (" + family + ") has no matrix '" + name + "'");
  return it->second;
}

const MatD& Instance::matrix(const std::string& name, Eigen::Index rows, Eigen::Index cols) const {
  const MatD& m = matrix(name);
  if (m.rows() != rows || m.cols() != cols)
    throw InstanceError("matrix " + name + " is " + std::to_string(m.rows()) + " x " + std::to_string(m.cols()) + ", expected " +
                        std::to_string(rows) + " x " + std::to_string(cols));
  return m;
}

double Instance::param(const std::string& name) const {
  auto it = params.find(name);
  if (it == params.end()) throw InstanceError("instance (" + family + ") has no parameter '" + name + "'");
  return it->second;
}

std::string Instance::describe() const {
  std::string out = family + "{";
  bool first = true;
  for (const auto& [name, v] : params) {
    out += (first ? "" : ", ") + name + "=" + exact_decimal(v);
    first = false;
  }
  return out + "}";
}

void Instance::require_finite() const {
  for (const auto& [name, v] : params)
    if (!std::isfinite(v)) throw InstanceError("instance parameter '" + name + "' is not finite");
  for (const auto& [name, m] : matrices)
    if (!m.allFinite()) throw InstanceError("instance matrix '" + name + "' has a NaN or infinite entry");
}

}  // namespace thm
