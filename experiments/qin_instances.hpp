// What the [Q] training experiments (qin-beta-sweep, qin-depth) share: the instance of each seed, the header of their
// JSON and their stopping rule.
#pragma once

#include "experiments/experiment.hpp"
#include "numerics/models/qin/model_instance.hpp"
#include "numerics/random.hpp"

#include <fmt/format.h>

namespace thm::qin_experiments {

// The instance of seed k: synthetic (nN <= d so that beta = 1 can fit) or windows of the series.
inline Instance instance(const ExperimentArgs& a, int k, double attn_scale, double head_scale) {
  Rng rng = Rng::derive(a.seed, a.name, static_cast<std::uint64_t>(k));
  QModelSpec s;
  s.m = 16;
  s.attn_scale = attn_scale;
  s.head_scale = head_scale;
  s.entropy = rng.next_u64();
  if (a.data) {
    s.n = a.samples;
    s.N = a.window;
    return build_qin_model_from_series(a.data->values, s);
  }
  s.n = 2;
  s.N = 4;
  s.d = 10;
  s.d_y = 2;
  return build_qin_model(s);
}

inline nlohmann::json header_json(const ExperimentArgs& a) {
  nlohmann::json j;
  j["experiment"] = a.name;
  j["seed"] = a.seed;
  j["seeds"] = a.seeds;
  j["steps"] = a.steps;
  j["data"] = a.data ? nlohmann::json(a.data_name) : nlohmann::json("synthetic");
  if (a.data) {
    j["columns"] = a.data->columns;
    j["rows"] = a.data->values.rows();
    j["window"] = a.window;
    j["samples"] = a.samples;
  }
  return j;
}

// The stopping rule: the target (beta sweep: 1e-3 L_0), a plateau, or the --steps budget.
inline constexpr int kPlateauWindow = 100;
inline constexpr double kPlateauTolerance = 1e-3;
inline std::string stopping_rule(int steps) {
  return fmt::format("Each training stops at its target, on a plateau (the loss fell by less than {:g} of itself over the last {} "
                     "steps) or after --steps = {} steps.", kPlateauTolerance, kPlateauWindow, steps);
}

}  // namespace thm::qin_experiments
