// thmcheck stability: the default budget over many seeds; per claim, the seeds whose resolved verdict was not the
// expected one. A suite whose verdicts depend on the seed shows it here.
#include "cli/commands.hpp"

#include "properties/runner.hpp"
#include "reports/atomic_write.hpp"
#include "reports/text_reports.hpp"
#include "theorems/registry.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace thm::cli {

std::vector<std::uint64_t> parse_seed_range(const std::string& text) {
  std::vector<std::uint64_t> seeds;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const auto dots = item.find("..");
    if (dots == std::string::npos) {
      seeds.push_back(parse_seed(item));
      continue;
    }
    const std::uint64_t a = parse_seed(item.substr(0, dots)), b = parse_seed(item.substr(dots + 2));
    if (b < a) throw UsageError("--seeds: the range '" + item + "' is empty (A..B needs A <= B)");
    if (b - a >= kMaxStabilitySeeds) throw UsageError(fmt::format("--seeds: at most {} seeds", kMaxStabilitySeeds));
    for (std::uint64_t s = a;; ++s) {
      seeds.push_back(s);
      if (s == b) break;
    }
  }
  if (seeds.empty()) throw UsageError("--seeds needs at least one seed (A..B or a comma-separated list)");
  if (seeds.size() > kMaxStabilitySeeds) throw UsageError(fmt::format("--seeds: at most {} seeds", kMaxStabilitySeeds));
  return seeds;
}

int stability(const StabilityArgs& args) {
  const std::vector<const Claim*> claims = select_claims_or_usage(args.claims);
  const std::vector<std::uint64_t> seeds = parse_seed_range(args.seeds);
  const RunOptions options = parse_run_options(args.precision, args.cases, args.negative_control, args.budget);
  if (args.out) try {
      check_output_file(*args.out);  // before any work
    } catch (const ReportError& e) {
      throw UsageError("--out: " + std::string(e.what()));
    }

  // Seeds run in `jobs` worker processes (each its own MPFR state; nothing shared), seed k in worker k mod jobs; a
  // worker writes one line per claim run, "<seed index> <claim index> <verdict> <expected verdict> <as expected>", to its
  // own file; "as expected" is ResolvedVerdict::is_expected(), the rule run's exit status follows (an underpowered
  // claim expects inconclusive, a finding its pinned conditions too). The table is assembled in seed order, so the
  // output does not depend on the number of jobs.
  const int jobs = std::max(1, std::min<int>(args.jobs, static_cast<int>(seeds.size())));
  const std::filesystem::path scratch = std::filesystem::temp_directory_path() / ("thmcheck-stability-" + std::to_string(::getpid()));
  std::filesystem::create_directories(scratch);
  const auto file_of = [&](int worker) { return scratch / ("worker-" + std::to_string(worker)); };
  const auto work = [&](int worker) {
    std::ofstream out(file_of(worker));
    RunOptions o = options;
    for (std::size_t k = static_cast<std::size_t>(worker); k < seeds.size(); k += static_cast<std::size_t>(jobs)) {
      o.seed = seeds[k];
      for (std::size_t c = 0; c < claims.size(); ++c) {
        const std::vector<ClaimRun> runs = run_claim(*claims[c], o);
        std::vector<const ClaimRun*> rows;
        for (const ClaimRun& r : runs) rows.push_back(&r);
        const ResolvedVerdict r = resolve(rows);
        out << k << ' ' << c << ' ' << static_cast<int>(r.verdict) << ' ' << static_cast<int>(r.expected) << ' '
            << (r.is_expected() ? 1 : 0) << '\n' << std::flush;
      }
    }
  };
  const auto lines_written = [&] {
    std::size_t n = 0;
    for (int w = 0; w < jobs; ++w) {
      std::ifstream in(file_of(w));
      for (std::string line; std::getline(in, line);) ++n;
    }
    return n;
  };
  const bool progress = isatty(STDERR_FILENO);
  const auto start = std::chrono::steady_clock::now();
  const std::size_t total_runs = seeds.size() * claims.size();
  std::vector<pid_t> workers;
  for (int w = 0; w < jobs; ++w) {
    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error("cannot start a worker process");
    if (pid == 0) {
      int status = 0;
      try {
        work(w);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "thmcheck: error: worker %d: %s\n", w, e.what());
        status = 3;
      }
      std::fflush(nullptr);
      ::_exit(status);
    }
    workers.push_back(pid);
  }
  bool failed = false;
  for (std::size_t alive = workers.size(); alive > 0;) {
    for (pid_t& pid : workers) {
      int status = 0;
      if (pid > 0 && ::waitpid(pid, &status, WNOHANG) == pid) {
        failed = failed || !WIFEXITED(status) || WEXITSTATUS(status) != 0;
        pid = 0;
        --alive;
      }
    }
    if (alive == 0) break;
    if (progress) {
      const std::size_t done = lines_written();
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      fmt::print(stderr, "\r\033[K{} of {} claim runs done ({} workers){}", done, total_runs, jobs,
                 done ? fmt::format(", about {:.0f} s left", elapsed / done * (total_runs - done)) : std::string());
    }
    ::usleep(200000);
  }
  if (progress) fmt::print(stderr, "\r\033[K");
  // Per claim: the seeds with an unexpected resolved verdict, and that verdict.
  struct Line {
    int verdict = -1, expected = -1, as_expected = 0;
  };
  std::vector<std::vector<Line>> verdict(seeds.size(), std::vector<Line>(claims.size()));
  for (int w = 0; w < jobs; ++w) {
    std::ifstream in(file_of(w));
    std::size_t k = 0, c = 0;
    Line l;
    while (in >> k >> c >> l.verdict >> l.expected >> l.as_expected)
      if (k < seeds.size() && c < claims.size()) verdict[k][c] = l;
  }
  std::error_code ec;
  std::filesystem::remove_all(scratch, ec);
  for (const auto& row : verdict)
    for (const Line& l : row) failed = failed || l.verdict < 0;
  if (failed) throw std::runtime_error("a worker process failed (see above); no table");
  std::map<const Claim*, std::vector<std::pair<std::uint64_t, ClaimVerdict>>> unexpected;
  nlohmann::json per_seed = nlohmann::json::array();
  for (std::size_t k = 0; k < seeds.size(); ++k) {
    nlohmann::json row = {{"seed", seeds[k]}, {"verdicts", nlohmann::json::object()}};
    for (std::size_t c = 0; c < claims.size(); ++c) {
      const ClaimVerdict v = static_cast<ClaimVerdict>(verdict[k][c].verdict);
      row["verdicts"][claims[c]->id] = std::string(to_string(v));
      if (!verdict[k][c].as_expected) unexpected[claims[c]].emplace_back(seeds[k], v);
    }
    per_seed.push_back(row);
  }

  fmt::print("thmcheck stability: {} seeds ({}), {} claims ({})\n", seeds.size(), args.seeds, claims.size(), to_string(options.variant));
  fmt::print("{:<{}} {:<18} {:>10}  {}\n", "claim", id_width(), "expected", "unexpected", "seeds (resolved verdict)");
  int total = 0;
  nlohmann::json table = nlohmann::json::array();
  for (std::size_t index = 0; index < claims.size(); ++index) {
    const Claim* c = claims[index];
    const auto& bad = unexpected[c];
    total += static_cast<int>(bad.size());
    std::string list;
    nlohmann::json jbad = nlohmann::json::array();
    for (const auto& [s, v] : bad) {
      list += (list.empty() ? "" : ", ") + fmt::format("{} ({})", s, to_string(v));
      jbad.push_back({{"seed", s}, {"verdict", std::string(to_string(v))}});
    }
    // The resolved expectation (the same on every seed: it depends on the budget), e.g. inconclusive when underpowered.
    const ClaimVerdict expected = static_cast<ClaimVerdict>(verdict.front()[index].expected);
    const std::string expected_text =
        std::string(to_string(expected)) + (c->finding && options.variant == Variant::claim ? " (finding)" : "");
    fmt::print("{:<{}} {:<18} {:>4} of {:<3}  {}\n", c->id, id_width(), expected_text, bad.size(), seeds.size(), list);
    table.push_back({{"id", c->id}, {"expected_verdict", std::string(to_string(expected))}, {"unexpected", jbad}});
  }
  fmt::print("{} unexpected resolved verdicts in {} claim runs\n", total, seeds.size() * claims.size());
  if (args.out) {
    const nlohmann::json j = {{"seeds", args.seeds},
                              {"variant", std::string(to_string(options.variant))},
                              {"precision", args.precision},
                              {"claims", table},
                              {"per_seed", per_seed}};
    try {
      atomic_write(*args.out, j.dump(2) + "\n");
    } catch (const ReportError& e) {
      throw UsageError(e.what());
    }
  }
  return total == 0 ? kExitOk : kExitUnexpected;
}

}  // namespace thm::cli
