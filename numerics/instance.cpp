#include "numerics/instance.hpp"

#include <cmath>

namespace thm {

const MatD& Instance::matrix(const std::string& name) const {
  auto it = matrices.find(name);
  if (it == matrices.end()) throw InstanceError("instance (" + family + ") has no matrix '" + name + "'");
  return it->second;
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
