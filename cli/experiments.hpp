// `thmcheck experiment NAME`: runs one of the papers' experiments (experiments/) and writes its CSV, JSON and HTML.
#pragma once

#include "experiments/experiment.hpp"

#include <optional>
#include <string>

namespace thm::cli {

struct ExperimentCommand {
  ExperimentArgs args;
  std::optional<int> steps;                        // --steps; the experiment's default when not given
  std::string out = "reports/experiments";  // ignored by git (.gitignore), kept by the next run
  std::optional<std::string> data;                 // --data: a CSV time series
  std::optional<std::string> text;                 // --text: a labelled two-class corpus
};

int experiment(ExperimentCommand command);

}  // namespace thm::cli
