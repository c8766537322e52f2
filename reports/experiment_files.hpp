// The one writer of the experiments' results: every table as CSV, the JSON as NAME.json and the figures as NAME.html
// under a directory, each file written atomically.
#pragma once

#include "experiments/experiment.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace thm {

// The path of the first non-finite number in j ("/runs/0/mu_hat"), or "" if there is none.
std::string first_non_finite(const nlohmann::json& j);

// Writes result's files under dir and returns their paths in the order written (the tables, the JSON, the page).
// A result holding a NaN or an infinity says nothing: ReportError naming it, and nothing is written.
std::vector<std::filesystem::path> write_experiment_files(const ExperimentResult& result, const std::filesystem::path& dir);

}  // namespace thm
