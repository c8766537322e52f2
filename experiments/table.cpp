// The table of experiments: each is defined in its own file of this folder.
#include "experiments/experiment.hpp"

#include <algorithm>

namespace thm {

extern const Experiment kQinBetaSweep, kQinDepth, kQinRateFrontier, kGoelMScaling, kGoelNScaling, kGoelBaseline;

const std::vector<Experiment>& experiments() {
  static const std::vector<Experiment> table{kQinBetaSweep, kQinDepth, kQinRateFrontier, kGoelMScaling, kGoelNScaling, kGoelBaseline};
  return table;
}

const Experiment* find_experiment(std::string_view name) {
  const std::vector<Experiment>& t = experiments();
  const auto it = std::find_if(t.begin(), t.end(), [&](const Experiment& e) { return e.name == name; });
  return it == t.end() ? nullptr : &*it;
}

}  // namespace thm
