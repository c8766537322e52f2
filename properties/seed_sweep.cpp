#include "properties/seed_sweep.hpp"

#include "properties/claim_result.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace thm {

std::vector<std::pair<std::uint64_t, ClaimVerdict>> SeedSweep::unexpected(std::size_t c) const {
  std::vector<std::pair<std::uint64_t, ClaimVerdict>> out;
  for (std::size_t k = 0; k < seeds.size(); ++k)
    if (!verdicts[k][c].as_expected) out.emplace_back(seeds[k], verdicts[k][c].verdict);
  return out;
}

int SeedSweep::unexpected_total() const {
  int total = 0;
  for (const auto& row : verdicts)
    for (const SeedVerdict& v : row) total += !v.as_expected;
  return total;
}

SeedSweep sweep_seeds(const std::vector<const Claim*>& claims, const std::vector<std::uint64_t>& seeds, const RunOptions& options,
                      int jobs_wanted, const SweepProgress& progress) {
  // A worker writes one line per claim run, "<seed index> <claim index> <verdict> <expected verdict> <as expected>", to
  // its own file; the parent reads every file when all workers are done.
  const int jobs = std::max(1, std::min<int>(jobs_wanted, static_cast<int>(seeds.size())));
  const std::filesystem::path scratch = std::filesystem::temp_directory_path() / ("thmcheck-stability-" + std::to_string(::getpid()));
  std::filesystem::create_directories(scratch);
  const auto file_of = [&](int worker) { return scratch / ("worker-" + std::to_string(worker)); };
  const auto work = [&](int worker) {
    std::ofstream out(file_of(worker));
    RunOptions o = options;
    for (std::size_t k = static_cast<std::size_t>(worker); k < seeds.size(); k += static_cast<std::size_t>(jobs)) {
      o.seed = seeds[k];
      for (std::size_t c = 0; c < claims.size(); ++c) {
        const ResolvedVerdict r = resolve_claim(run_claim(*claims[c], o)).verdict;
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
  const std::size_t total_runs = seeds.size() * claims.size();
  std::vector<pid_t> workers;
  std::fflush(nullptr);  // what the parent has buffered is written once, not again by every worker
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
    if (progress) progress(lines_written(), total_runs, jobs);
    ::usleep(200000);
  }
  SeedSweep sweep{seeds, claims, std::vector<std::vector<SeedVerdict>>(seeds.size(), std::vector<SeedVerdict>(claims.size()))};
  std::vector<std::vector<bool>> seen(seeds.size(), std::vector<bool>(claims.size(), false));
  for (int w = 0; w < jobs; ++w) {
    std::ifstream in(file_of(w));
    std::size_t k = 0, c = 0;
    int verdict = -1, expected = -1, as_expected = 0;
    while (in >> k >> c >> verdict >> expected >> as_expected)
      if (k < seeds.size() && c < claims.size()) {
        sweep.verdicts[k][c] = {static_cast<ClaimVerdict>(verdict), static_cast<ClaimVerdict>(expected), as_expected != 0};
        seen[k][c] = true;
      }
  }
  std::error_code ec;
  std::filesystem::remove_all(scratch, ec);
  for (const auto& row : seen)
    for (bool s : row) failed = failed || !s;
  if (failed) throw std::runtime_error("a worker process failed (see above); no table");
  return sweep;
}

}  // namespace thm
