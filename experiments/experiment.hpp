// The papers' experiments (`thmcheck experiment NAME`), shaped like the claims: one file per experiment in this folder
// holding its name, its defaults and a `run` that only computes an ExperimentResult (tables, series, headline numbers,
// captions); experiments/table.cpp lists them, and reports/experiment_files.hpp writes any result as CSV, JSON and an
// HTML page. An experiment illustrates a claim at a larger scale than its check; it judges nothing.
#pragma once

#include "numerics/data_series.hpp"
#include "numerics/labelled_text.hpp"
#include "properties/parallel_for.hpp"
#include "properties/plot_data.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace thm {

struct ExperimentArgs {
  std::string name;
  std::uint64_t seed = 1;
  int seeds = 3;                     // independent data/initialisations
  int steps = 0;                     // GD steps per run (the budget); 0: the experiment's default
  std::optional<DataSeries> data;    // a time series instead of synthetic data (experiments with takes_data)
  std::optional<LabelledText> text;  // or a two-class text corpus (experiments with takes_data)
  std::string data_name;             // where either came from, for the page
  int embed = 8;                     // d: dimensions each token of `text` is embedded in (numerics/token_embedding.hpp)
  int window = 8;                    // tokens per sequence (N) cut from `data` or each document of `text`
  int samples = 4;                   // sequences (n) cut from `data`, or documents taken from `text`
  bool full = false;                 // --budget full: the complete grids (goel-n-scaling)
  int jobs = 1;                      // threads for the independent runs; the result does not depend on it
  // Called after each independent run with (done, total), from any thread, one call at a time.
  std::function<void(int, int)> progress;
};

// One CSV file of the result: `file` under the output directory.
struct ExperimentTable {
  std::string file;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

// One figure of the page: a line plot and its caption (what the paper claims, what was measured).
struct ExperimentFigure {
  PlotSpec spec;
  std::vector<PlotSeries> series;
  std::string caption;
};

struct ExperimentResult {
  std::string name;   // the page's title; the JSON is written as NAME.json
  std::string intro;  // the page's first paragraph
  nlohmann::json json;
  std::vector<ExperimentTable> tables;
  std::vector<ExperimentFigure> figures;
  std::vector<std::string> log;  // one line per run, for the terminal
};

struct Experiment {
  std::string_view name;
  std::string_view summary;  // one line: what it shows
  int default_steps;         // --steps when not given
  bool takes_data;           // --data and --text apply
  ExperimentResult (*run)(const ExperimentArgs&);
};

// The table of experiments (experiments/table.cpp), in the order `thmcheck experiment --help` lists them.
const std::vector<Experiment>& experiments();
// nullptr if no experiment has that name.
const Experiment* find_experiment(std::string_view name);

// f(k) for k = 0 .. count - 1, the independent runs of an experiment, on args.jobs threads; the results in k's order,
// so the result is the same whatever the number of jobs (each run draws from its own seed). args.progress is told
// after each run.
template <class F>
auto independent_runs(const ExperimentArgs& args, int count, F&& f) {
  using R = std::decay_t<decltype(f(0))>;
  std::vector<std::optional<R>> slots(static_cast<std::size_t>(count));
  std::mutex progress_mutex;
  int done = 0;
  parallel_for(slots.size(), args.jobs, [&](std::size_t k) {
    slots[k].emplace(f(static_cast<int>(k)));
    if (args.progress) {
      const std::lock_guard<std::mutex> lock(progress_mutex);
      args.progress(++done, count);
    }
  });
  std::vector<R> out;
  out.reserve(slots.size());
  for (std::optional<R>& r : slots) out.push_back(std::move(*r));
  return out;
}

}  // namespace thm
