// `thmcheck experiment NAME`: the papers' experiments, written as CSV and JSON under --out DIR.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace thm::cli {

struct ExperimentArgs {
  std::string name;
  std::string out = "reports/experiments";
  std::uint64_t seed = 1;
  int seeds = 3;                  // independent data/initialisations
  std::optional<std::string> data;  // CSV time series instead of synthetic data
  int window = 8;                 // tokens per sequence (N) for --data
  int samples = 4;                // sequences (n) for --data
  int steps = 1000;               // GD steps per run
  bool full = false;              // --budget full: the complete grids (goel-n-scaling)
};

int experiment(const ExperimentArgs& args);

}  // namespace thm::cli
