// thmcheck stability: the default budget over many seeds; per claim, the seeds whose resolved verdict was not the
// expected one. A suite whose verdicts depend on the seed shows it here.
#include "cli/commands.hpp"
#include "cli/progress.hpp"

#include "properties/seed_sweep.hpp"
#include "reports/atomic_write.hpp"
#include "reports/stability_json.hpp"

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <sstream>

namespace thm::cli {

std::vector<std::uint64_t> parse_seed_range(const std::string& text) {
  std::vector<std::uint64_t> seeds;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const auto dots = item.find("..");
    if (dots == std::string::npos) {
      seeds.push_back(parse_seed(item, "--seeds: a seed"));
      continue;
    }
    const std::uint64_t a = parse_seed(item.substr(0, dots), "--seeds: a seed"), b = parse_seed(item.substr(dots + 2), "--seeds: a seed");
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

  // Seeds run in worker processes (properties/seed_sweep.hpp); the table comes back in seed order.
  SweepProgress show;
  if (progress_line())
    show = [](std::size_t done, std::size_t total, int workers) {
      progress_line().show("stability", done, total, fmt::format("claim runs ({} workers)", workers));
    };
  const SeedSweep sweep = sweep_seeds(claims, seeds, options, args.jobs, show);
  progress_line().clear();

  fmt::print("thmcheck stability: {} seeds ({}), {} claims ({})\n", seeds.size(), args.seeds, claims.size(), to_string(options.variant));
  fmt::print("{:<{}} {:<18} {:>10}  {}\n", "claim", id_width(), "expected", "unexpected", "seeds (resolved verdict)");
  for (std::size_t index = 0; index < claims.size(); ++index) {
    const Claim* c = claims[index];
    const auto bad = sweep.unexpected(index);
    std::string list;
    for (const auto& [s, v] : bad) list += (list.empty() ? "" : ", ") + fmt::format("{} ({})", s, to_string(v));
    // The resolved expectation (the same on every seed: it depends on the budget), e.g. inconclusive when underpowered.
    const ClaimVerdict expected = sweep.verdicts.front()[index].expected;
    const std::string expected_text =
        std::string(to_string(expected)) + (c->finding && options.variant == Variant::claim ? " (finding)" : "");
    fmt::print("{:<{}} {:<18} {:>4} of {:<3}  {}\n", c->id, id_width(), expected_text, bad.size(), seeds.size(), list);
  }
  const int total = sweep.unexpected_total();
  fmt::print("{} unexpected resolved verdicts in {} claim runs\n", total, seeds.size() * claims.size());
  if (args.out) {
    try {
      atomic_write(*args.out, stability_json(sweep, args.seeds, options.variant, args.precision));
    } catch (const ReportError& e) {
      throw UsageError(e.what());
    }
  }
  return total == 0 ? kExitOk : kExitUnexpected;
}


Command add_stability(CLI::App& app) {
  auto a = std::make_shared<StabilityArgs>();
  a->jobs = default_jobs();
  CLI::App* cmd = app.add_subcommand("stability", "Run the claims on many seeds; per claim, the seeds whose resolved verdict is not the expected one");
  cmd->add_option("--seeds", a->seeds, "Seeds: A..B (inclusive) and/or a comma-separated list")->required();
  cmd->add_option("--claims", a->claims, "Comma-separated claim ids or globs");
  cmd->add_option("--precision", a->precision, "Comma-separated precisions: double, mp50, mp100");
  cmd->add_option("--cases", a->cases, "Cases per claim (default: the claim's default cases)");
  cmd->add_flag("--negative-control", a->negative_control, "Run the broken variants (each must be violated)");
  cmd->add_option("--out", a->out, "Also write the table and every seed's verdicts as JSON to this file");
  cmd->add_option("--jobs", a->jobs, "Worker processes (default: the number of cores); the output does not depend on it")->check(CLI::Range(1, 256));
  cmd->add_option("--budget", a->budget, "standard (default) or full")->check(CLI::IsMember({"standard", "full"}));
  return {cmd, [a] { return stability(*a); }};
}

}  // namespace thm::cli
