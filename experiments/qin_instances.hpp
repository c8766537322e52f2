// What the [Q] training experiments (qin-beta-sweep, qin-depth) share: the instance of each seed, the header of their
// JSON and their stopping rule.
#pragma once

#include "experiments/experiment.hpp"
#include "numerics/models/qin/model_instance.hpp"
#include "numerics/random.hpp"

#include <fmt/format.h>

namespace thm::qin_experiments {

// The seed of the token embedding of a --text run: one map for every seed k of the run, so that all see the same data.
inline std::uint64_t embedding_seed(const ExperimentArgs& a) { return Rng::derive(a.seed, "token-embedding", 0).next_u64(); }

// The instance of seed k: synthetic (nN <= d so that beta = 1 can fit), windows of the series, or documents of the text.
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
  if (a.text) {
    s.n = a.samples;
    s.N = a.window;
    s.d = a.embed;
    return build_qin_model_from_text(*a.text, s, embedding_seed(a));
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
  j["data"] = a.data || a.text ? nlohmann::json(a.data_name) : nlohmann::json("synthetic");
  if (a.data) {
    j["columns"] = a.data->columns;
    j["rows"] = a.data->values.rows();
    j["window"] = a.window;
    j["samples"] = a.samples;
  }
  if (a.text) {
    j["classes"] = a.text->classes;
    j["documents"] = a.text->documents.size();
    j["window"] = a.window;
    j["samples"] = a.samples;
    j["embed"] = a.embed;
    j["targets"] = "+1 for '" + a.text->classes[0] + "', -1 for '" + a.text->classes[1] + "' at every position";
  }
  return j;
}

// What the page says the data is.
inline std::string data_label(const ExperimentArgs& a) {
  if (a.data) return a.data_name;
  if (a.text)
    return a.data_name + " (" + std::to_string(a.samples) + " documents, " + a.text->classes[0] + " and " + a.text->classes[1] +
           " alternately, the first " + std::to_string(a.window) + " tokens of each embedded in " + std::to_string(a.embed) +
           " dimensions; target +1 / -1 by class)";
  return "synthetic";
}

// The stopping rule: the target (beta sweep: 1e-3 L_0), a plateau, or the --steps budget.
inline constexpr int kPlateauWindow = 100;
inline constexpr double kPlateauTolerance = 1e-3;
inline std::string stopping_rule(int steps) {
  return fmt::format("Each training stops at its target, on a plateau (the loss fell by less than {:g} of itself over the last {} "
                     "steps) or after --steps = {} steps.", kPlateauTolerance, kPlateauWindow, steps);
}

}  // namespace thm::qin_experiments
