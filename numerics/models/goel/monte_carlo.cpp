#include "numerics/models/goel/monte_carlo.hpp"

#include <cmath>

namespace thm {

McEstimate summarize(const std::vector<double>& samples) {
  McEstimate e;
  e.draws = static_cast<int>(samples.size());
  if (samples.empty()) return e;
  // Two passes (mean, then centred squares) in a fixed order.
  double sum = 0;
  for (double v : samples) sum += v;
  e.mean = sum / e.draws;
  if (e.draws < 2) return e;
  double ss = 0;
  for (double v : samples) ss += (v - e.mean) * (v - e.mean);
  e.std_error = std::sqrt(ss / (e.draws - 1) / e.draws);
  return e;
}

}  // namespace thm
