// What the [G] experiments share: the instance of each seed (the claims' generators) and the curves they plot.
#pragma once

#include "experiments/experiment.hpp"
#include "numerics/choice_source.hpp"
#include "numerics/instance.hpp"
#include "numerics/random.hpp"
#include "numerics/scalar.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace thm::goel_experiments {

// The instance of seed k, drawn by a claim's generator at the largest size.
inline Instance instance(const ExperimentArgs& a, int k, Instance (*generate)(ChoiceSource&)) {
  Rng rng = Rng::derive(a.seed, a.name, static_cast<std::uint64_t>(k));
  RngChoices src(rng, 60);
  return generate(src);
}

// The objective gap f_t - min_s f_s (the run's own minimum), for plotting on a log axis.
template <class T>
std::vector<double> gaps(const std::vector<T>& f) {
  const T m = *std::min_element(f.begin(), f.end());
  std::vector<double> out;
  for (const T& x : f) out.push_back(to_double(T(x - m)));
  return out;
}

// x as JSON, null where it is not finite (a diverged run's objective): what nlohmann writes for a NaN, said outright so
// that the writer's non-finite check passes over it.
inline nlohmann::json finite_or_null(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); }

// Every stride-th positive value of a trajectory against t.
inline PlotSeries trajectory(const std::string& name, const std::vector<double>& y, int stride = 1) {
  PlotSeries s{name, {}, {}, true};
  for (std::size_t t = 0; t < y.size(); t += static_cast<std::size_t>(stride))
    if (y[t] > 0) {
      s.x.push_back(double(t));
      s.y.push_back(y[t]);
    }
  return s;
}

}  // namespace thm::goel_experiments
