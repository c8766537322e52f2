// `thmcheck experiment goel-m-scaling | goel-n-scaling | goel-baseline`: the [G] experiments,
// written as CSV, JSON and an HTML page under --out.
#pragma once

#include "cli/experiments.hpp"

namespace thm::cli {

bool is_goel_experiment(const std::string& name);
int goel_experiment(const ExperimentArgs& args);

}  // namespace thm::cli
