#include "cli/experiments.hpp"

#include "cli/commands.hpp"
#include "cli/progress.hpp"
#include <CLI/CLI.hpp>
#include "numerics/models/qin/model_instance.hpp"
#include "reports/atomic_write.hpp"
#include "reports/csv.hpp"
#include "reports/experiment_files.hpp"
#include "reports/labelled_text.hpp"

#include <fmt/format.h>


#include <stdexcept>

namespace thm::cli {

namespace {

// The series a --data file holds, checked before any work: readable, and every column it would use standardisable.
DataSeries read_data(const std::string& path, const ExperimentArgs& a) {
  try {
    DataSeries series = read_series_csv(path);
    // A column that is constant over the rows the windows use cannot be standardised (0/0).
    const Eigen::Index used = std::min<Eigen::Index>(series.values.rows(), Eigen::Index(a.samples) * a.window + 1);
    for (Eigen::Index c = 0; c < series.values.cols(); ++c) {
      const auto col = series.values.col(c).head(used);
      if (!(col.maxCoeff() > col.minCoeff()))
        throw DataError(path + ": column '" + series.columns[static_cast<std::size_t>(c)].substr(0, 40) + "' is constant over the " +
                        std::to_string(used) + " rows used: it cannot be standardised");
    }
    // Validate the windowing before any work.
    QModelSpec probe;
    probe.n = a.samples;
    probe.N = a.window;
    build_qin_model_from_series(series.values, probe);
    if (series.filled > 0)
      fmt::print("{}: {} missing values filled by linear interpolation in time (reports/csv.hpp)\n", path, series.filled);
    return series;
  } catch (const DataError& e) {
    throw UsageError(e.what());
  } catch (const std::invalid_argument& e) {
    throw UsageError(path + ": " + e.what());
  }
}

// The corpus a --text file holds, checked before any work: readable, two classes, and enough documents of N tokens.
LabelledText read_text(const std::string& path, const ExperimentArgs& a) {
  try {
    LabelledText text = read_labelled_text(path);
    QModelSpec probe;
    probe.n = a.samples;
    probe.N = a.window;
    probe.d = a.embed;
    build_qin_model_from_text(text, probe, 0);
    return text;
  } catch (const DataError& e) {
    throw UsageError(e.what());
  } catch (const std::invalid_argument& e) {
    throw UsageError(path + ": " + e.what());
  }
}

std::string experiment_names() {
  std::string names;
  for (const Experiment& e : experiments()) names += (names.empty() ? "" : ", ") + std::string(e.name);
  return names;
}

}  // namespace

int experiment(ExperimentCommand c) {
  ExperimentArgs& a = c.args;
  const Experiment* e = find_experiment(a.name);
  if (!e) throw UsageError("unknown experiment '" + a.name + "' (expected one of " + experiment_names() + ")");
  if ((c.data || c.text) && !e->takes_data)
    throw UsageError(std::string(c.data ? "--data" : "--text") + " does not apply to " + a.name + " (synthetic instances)");
  if (c.data && c.text) throw UsageError("--data and --text exclude each other (a series or a corpus)");
  if (a.embed < 1 || a.embed > 512) throw UsageError("--embed must be in [1, 512]");
  if (a.seeds < 1 || a.seeds > 1000) throw UsageError("--seeds must be in [1, 1000]");
  a.steps = c.steps.value_or(e->default_steps);
  if (a.steps < 1 || a.steps > 1000000) throw UsageError("--steps must be in [1, 1000000]");
  if (a.window < 1 || a.window > 512 || a.samples < 1 || a.samples > 512) throw UsageError("--window and --samples must be in [1, 512]");
  if (c.data) {
    a.data = read_data(*c.data, a);
    a.data_name = *c.data;
  }
  if (c.text) {
    a.text = read_text(*c.text, a);
    a.data_name = *c.text;
  }
  try {
    prepare_report_dir(c.out);
  } catch (const ReportError& e) {
    throw UsageError(e.what());
  }
  if (progress_line()) a.progress = [name = a.name](int done, int total) { progress_line().show(name, done, total, "runs"); };
  ExperimentResult result;
  try {
    result = e->run(a);
    progress_line().clear();
  } catch (const std::domain_error& err) {
    throw UsageError(a.name + ": " + err.what());
  }
  for (const std::string& line : result.log) fmt::print("{}\n", line);
  std::vector<std::filesystem::path> written;
  try {
    written = write_experiment_files(result, c.out);
  } catch (const ReportError& err) {
    throw UsageError(err.what());
  }
  std::string files;
  for (const auto& p : written) files += (files.empty() ? "" : ", ") + p.string();
  fmt::print("wrote {}\n", files);
  return kExitOk;
}


Command add_experiment(CLI::App& app) {
  auto c = std::make_shared<ExperimentCommand>();
  auto budget = std::make_shared<std::string>("standard");
  std::string names, defaults;
  for (const Experiment& e : experiments()) {
    names += (names.empty() ? "" : ", ") + std::string(e.name);
    defaults += (defaults.empty() ? "" : ", ") + std::string(e.name) + " " + std::to_string(e.default_steps);
  }
  CLI::App* cmd = app.add_subcommand("experiment", "Run a paper experiment (" + names + "); CSV, JSON, HTML under --out");
  cmd->add_option("name", c->args.name, names)->required();
  cmd->add_option("--out", c->out, "Output directory (default reports/experiments)");
  add_seed_option(*cmd, [c](std::uint64_t s) { c->args.seed = s; }, "The seed every random choice flows from");
  cmd->add_option("--seeds", c->args.seeds, "Independent data/initialisations (default 3)");
  cmd->add_option("--steps", c->steps, "GD steps per run: the budget (the qin training experiments stop earlier "
                                       "at the target or on a plateau; qin-rate-frontier caps it at 300). Defaults: " + defaults);
  cmd->add_option("--data", c->data, "CSV time series (rows: time, columns: features) instead of synthetic data");
  cmd->add_option("--text", c->text, "Two-class corpus, one 'LABEL<TAB>TEXT' per line, instead of synthetic data");
  cmd->add_option("--window", c->args.window, "Tokens per sequence (N) when windowing --data, or taken from each --text document (default 8)");
  cmd->add_option("--samples", c->args.samples, "Sequences (n) taken from --data, or documents from --text (default 4)");
  cmd->add_option("--embed", c->args.embed, "Dimensions (d) each --text token is embedded in by the seeded map (default 8)");
  c->args.jobs = default_jobs();
  cmd->add_option("--jobs", c->args.jobs, "Threads for the independent runs (default: the number of cores); the output does not depend on it")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--budget", *budget, "standard (default) or full: the complete n grid (goel-n-scaling)")->check(CLI::IsMember({"standard", "full"}));
  return {cmd, [c, budget] {
            c->args.full = *budget == "full";
            return experiment(*c);
          }};
}

}  // namespace thm::cli
