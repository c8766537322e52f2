// thmcheck power: prints each claim's tightness and resolving factor, writes them as JSON (properties/power.hpp).
#include "cli/commands.hpp"

#include "properties/power.hpp"
#include "reports/atomic_write.hpp"
#include "reports/power_json.hpp"

#include <fmt/core.h>

#include <cstdio>
#include <iostream>
#include <unistd.h>

namespace thm::cli {

int power(const PowerArgs& args) {
  const std::vector<const Claim*> claims = select_claims_or_usage(args.claims);
  PowerOptions options;
  options.seeds = parse_seed_range(args.seeds);
  options.run = parse_run_options(args.precision, args.cases, false, args.budget);
  options.run.jobs = args.jobs;
  if (args.out) try {
      check_output_file(*args.out);  // before any work
    } catch (const ReportError& e) {
      throw UsageError("--out: " + std::string(e.what()));
    }
  const int w = id_width();
  const bool terminal = isatty(STDERR_FILENO);  // progress lines only where a person watches
  std::vector<ClaimPower> results;
  for (const Claim* c : claims) {
    ClaimPower p = measure_power(*c, options, [&](int k) {
      if (!terminal) return;
      std::fprintf(stderr, "\r%-*s seed %d of %zu", w, c->id.c_str(), k + 1, options.seeds.size());
      std::fflush(stderr);
    });
    if (terminal) std::fprintf(stderr, "\r%*s\r", w + 24, "");
    if (p.status == "measured")
      fmt::print("{:<{}}  t {:<10.4g} k* {:<10.4g} k(0.999) {:<10.4g}{}  [{} seeds, {} judged per run; knob: {}]\n", c->id, w,
                 p.tightness, p.resolving_factor, p.factor_999,
                 p.control_factor > 0 ? fmt::format("  control x{:.4g}: power {:.4f}", p.control_factor, p.control_power) : "",
                 p.seeds, p.judged_per_run, p.knob);
    else
      fmt::print("{:<{}}  {}\n", c->id, w, p.status == "finding" ? "a finding: the claim is expected violated; no power to measure"
                                                                 : "not scalable: no condition has a constant to strengthen (its control drops a hypothesis)");
    std::fflush(stdout);
    results.push_back(std::move(p));
  }
  if (args.out) atomic_write(*args.out, power_json(results, options));
  return kExitOk;
}

}  // namespace thm::cli
