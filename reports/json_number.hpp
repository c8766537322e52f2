// A double as JSON: JSON has no NaN or infinity, so those become the strings "nan", "inf", "-inf" and nothing is
// silently lost. For nlohmann::json and nlohmann::ordered_json alike.
#pragma once

#include <cmath>

namespace thm {

template <class Json>
Json json_number(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return x;
}

}  // namespace thm
