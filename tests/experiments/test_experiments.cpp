// The experiments' frame (experiments/experiment.hpp) and its one writer (reports/experiment_files.hpp): the table,
// a new experiment built from an entry of it, the runs' independence of the number of jobs, and the non-finite refusal.
#include "experiments/experiment.hpp"
#include "reports/atomic_write.hpp"
#include "reports/experiment_files.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <unistd.h>

namespace {

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A toy experiment: the partial sums of k-th powers of 1/2 as independent runs; what a new experiment file holds.
thm::ExperimentResult geometric_sums(const thm::ExperimentArgs& a) {
  const std::vector<std::vector<double>> sums = thm::independent_runs(a, a.seeds, [&](int k) {
    std::vector<double> s{0.0};
    for (int t = 1; t <= a.steps; ++t) s.push_back(s.back() + std::pow(0.5, double(t * (k + 1))));
    return s;
  });
  thm::ExperimentResult r{"toy-sums", "Partial sums.", {{"seeds", a.seeds}, {"runs", nlohmann::json::array()}}, {}, {}, {}};
  thm::ExperimentTable t{"toy-sums.csv", {"run", "t", "sum"}, {}};
  thm::ExperimentFigure f{{"partial sums", "t", "sum", false, false, 400, 200}, {}, "The sums approach 1 / (2^(k+1) - 1)."};
  for (int k = 0; k < a.seeds; ++k) {
    const std::vector<double>& s = sums[static_cast<std::size_t>(k)];
    r.json["runs"].push_back({{"run", k}, {"last", s.back()}});
    thm::PlotSeries p{"run " + std::to_string(k), {}, s, false};
    for (std::size_t i = 0; i < s.size(); ++i) {
      t.rows.push_back({std::to_string(k), std::to_string(i), thm::exact_decimal(s[i])});
      p.x.push_back(double(i));
    }
    f.series.push_back(p);
    r.log.push_back("run " + std::to_string(k) + ": " + thm::exact_decimal(s.back()));
  }
  r.tables.push_back(t);
  r.figures.push_back(f);
  return r;
}

}  // namespace

TEST_CASE("experiments: the table names each experiment once, with default steps and a run") {
  std::set<std::string> names;
  for (const thm::Experiment& e : thm::experiments()) {
    CHECK(names.insert(std::string(e.name)).second);
    CHECK(e.default_steps >= 1);
    CHECK(bool(e.run));
    CHECK(!e.summary.empty());
    CHECK(thm::find_experiment(e.name) == &e);
  }
  CHECK(names.size() == 6);
  CHECK(names.count("goel-n-scaling") == 1);
  CHECK(thm::find_experiment("no-such-experiment") == nullptr);
}

TEST_CASE("experiments: a new experiment from a table entry runs, is written as CSV, JSON and HTML, and does not depend on the jobs") {
  const thm::Experiment toy{"toy-sums", "partial sums of powers of 1/2", 12, false, geometric_sums};
  thm::ExperimentArgs a;
  a.name = std::string(toy.name);
  a.steps = toy.default_steps;
  a.seeds = 5;
  int calls = 0, last_total = 0;
  a.progress = [&](int done, int total) {
    ++calls;
    last_total = total;
    CHECK(done >= 1);
    CHECK(done <= total);
  };
  a.jobs = 1;
  const thm::ExperimentResult one = toy.run(a);
  CHECK(calls == 5);
  CHECK(last_total == 5);
  a.jobs = 3;
  const thm::ExperimentResult three = toy.run(a);
  CHECK(one.json.dump() == three.json.dump());
  CHECK(one.log == three.log);
  REQUIRE(one.json["runs"].size() == 5);
  CHECK(one.json["runs"][0]["last"].get<double>() == doctest::Approx(1.0 - std::pow(0.5, 12)));

  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("thm-experiment-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  thm::prepare_report_dir(dir);
  const std::vector<std::filesystem::path> written = thm::write_experiment_files(one, dir);
  REQUIRE(written.size() == 3);
  CHECK(written[0] == dir / "toy-sums.csv");
  CHECK(written[1] == dir / "toy-sums.json");
  CHECK(written[2] == dir / "toy-sums.html");
  const std::string csv = read_text(dir / "toy-sums.csv");
  CHECK(csv.rfind("run,t,sum\n0,0,0\n0,1,0.5\n", 0) == 0);
  CHECK(nlohmann::json::parse(read_text(dir / "toy-sums.json")) == one.json);
  const std::string html = read_text(dir / "toy-sums.html");
  CHECK(html.find("<svg") != std::string::npos);
  CHECK(html.find("The sums approach 1 / (2^(k+1) - 1).") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("experiments: a result holding a NaN is refused and nothing is written") {
  thm::ExperimentResult r{"toy-nan", "", {{"runs", {{{"mu", std::nan("")}}}}}, {{"toy-nan.csv", {"a"}, {{"1"}}}}, {}, {}};
  CHECK(thm::first_non_finite(r.json) == "/runs/0/mu");
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("thm-experiment-nan-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  thm::prepare_report_dir(dir);
  CHECK_THROWS_AS(thm::write_experiment_files(r, dir), thm::ReportError);
  CHECK(std::filesystem::is_empty(dir));
  std::filesystem::remove_all(dir);
  r.json["runs"][0]["mu"] = nullptr;  // a diverged run said outright (finite_or_null) passes
  CHECK(thm::first_non_finite(r.json).empty());
}
