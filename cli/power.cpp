// thmcheck power: prints each claim's strength t and resolving factor k*, writes them as JSON (properties/power.hpp).
#include "cli/commands.hpp"
#include "cli/progress.hpp"

#include "properties/power.hpp"
#include "reports/atomic_write.hpp"
#include "reports/power_json.hpp"

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <cstdio>
#include <iostream>

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
  std::vector<ClaimPower> results;
  for (const Claim* c : claims) {
    ClaimPower p = measure_power(*c, options, [&](int k) { progress_line().show(c->id, std::size_t(k) + 1, options.seeds.size(), "seeds"); });
    progress_line().clear();
    const std::string alternative = describe_alternative(*c);
    if (p.status == "measured")
      fmt::print("{:<{}}  t {:<10.4g} k* {:<10.4g} k(0.999) {:<10.4g}{}  [{} seeds, {} judged per run; knob: {}]{}\n", c->id, w,
                 p.strength, p.resolving_factor, p.factor_999,
                 p.control_factor > 0 ? fmt::format("  control x{:.4g}: power {:.4f}", p.control_factor, p.control_power) : "",
                 p.seeds, p.judged_per_run, p.knob, alternative.empty() ? "" : "; alternative: " + alternative);
    else
      fmt::print("{:<{}}  {}\n", c->id, w, p.status == "finding" ? "a finding (expected violated): " + describe_finding_power(*c)
                                                                 : "not scalable: no condition has a constant to strengthen (its control drops a hypothesis)");
    std::fflush(stdout);
    results.push_back(std::move(p));
  }
  if (args.out) atomic_write(*args.out, power_json(results, options));
  return kExitOk;
}


Command add_power(CLI::App& app) {
  auto a = std::make_shared<PowerArgs>();
  a->jobs = default_jobs();
  CLI::App* cmd = app.add_subcommand(
      "power", "Resolving power: per claim, the largest factor its knob could be strengthened by and still hold on every instance "
               "(strength t), and the smallest factor a default run catches with probability >= 0.99 (resolving factor k*)");
  cmd->add_option("--claims", a->claims, "Comma-separated claim ids or globs (default: all)");
  cmd->add_option("--seeds", a->seeds, "Seeds of the default-budget runs: A..B and/or a list (default 1..20)");
  cmd->add_option("--precision", a->precision, "Comma-separated precisions (default double; the ladder runs as in run)");
  cmd->add_option("--cases", a->cases, "Cases per run (default: the claim's default cases)");
  cmd->add_option("--budget", a->budget, "standard (default) or full")->check(CLI::IsMember({"standard", "full"}));
  cmd->add_option("--jobs", a->jobs, "Threads (default: the number of cores); the output does not depend on it")->check(CLI::Range(1, 256));
  cmd->add_option("--out", a->out, "Also write the results as JSON to this file");
  return {cmd, [a] { return power(*a); }};
}

}  // namespace thm::cli
