// thmcheck stability: the default budget over many seeds; per claim, the seeds whose resolved verdict was not the
// expected one. A suite whose verdicts depend on the seed shows it here.
#include "cli/commands.hpp"

#include "properties/runner.hpp"
#include "reports/atomic_write.hpp"
#include "reports/text_reports.hpp"
#include "theorems/registry.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <map>
#include <sstream>
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
  std::vector<const Claim*> claims;
  try {
    claims = select_claims(args.claims);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  const std::vector<std::uint64_t> seeds = parse_seed_range(args.seeds);
  RunOptions options;
  options.precisions = parse_precision_list(args.precision);
  if (args.cases && (*args.cases < 1 || *args.cases > 100000)) throw UsageError("--cases must be in [1, 100000]");
  options.cases = args.cases.value_or(-1);
  options.variant = args.negative_control ? Variant::negative_control : Variant::claim;
  if (args.out) try {
      check_output_file(*args.out);  // before any work
    } catch (const ReportError& e) {
      throw UsageError("--out: " + std::string(e.what()));
    }

  const bool progress = isatty(STDERR_FILENO);
  const auto start = std::chrono::steady_clock::now();
  // Per claim: the seeds with an unexpected resolved verdict, and that verdict.
  std::map<const Claim*, std::vector<std::pair<std::uint64_t, ClaimVerdict>>> unexpected;
  nlohmann::json per_seed = nlohmann::json::array();
  for (std::size_t k = 0; k < seeds.size(); ++k) {
    options.seed = seeds[k];
    nlohmann::json row = {{"seed", seeds[k]}, {"verdicts", nlohmann::json::object()}};
    for (const Claim* c : claims) {
      if (progress) {
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        fmt::print(stderr, "\r\033[Kseed {} ({}/{}), {}{}", seeds[k], k + 1, seeds.size(), c->id,
                   k ? fmt::format(", about {:.0f} s left", elapsed / k * (seeds.size() - k)) : std::string());
      }
      const std::vector<ClaimRun> runs = run_claim(*c, options);
      std::vector<const ClaimRun*> rows;
      for (const ClaimRun& r : runs) rows.push_back(&r);
      const ResolvedVerdict v = resolve(rows);
      row["verdicts"][c->id] = std::string(to_string(v.verdict));
      if (!v.is_expected()) unexpected[c].emplace_back(seeds[k], v.verdict);
    }
    per_seed.push_back(row);
  }
  if (progress) fmt::print(stderr, "\r\033[K");

  fmt::print("thmcheck stability: {} seeds ({}), {} claims ({})\n", seeds.size(), args.seeds, claims.size(), to_string(options.variant));
  fmt::print("{:<38} {:<18} {:>10}  {}\n", "claim", "expected", "unexpected", "seeds (resolved verdict)");
  int total = 0;
  nlohmann::json table = nlohmann::json::array();
  for (const Claim* c : claims) {
    const auto& bad = unexpected[c];
    total += static_cast<int>(bad.size());
    std::string list;
    nlohmann::json jbad = nlohmann::json::array();
    for (const auto& [s, v] : bad) {
      list += (list.empty() ? "" : ", ") + fmt::format("{} ({})", s, to_string(v));
      jbad.push_back({{"seed", s}, {"verdict", std::string(to_string(v))}});
    }
    const ClaimVerdict expected = expected_verdict(*c, options.variant);
    const std::string expected_text =
        std::string(to_string(expected)) + (c->finding && options.variant == Variant::claim ? " (finding)" : "");
    fmt::print("{:<38} {:<18} {:>4} of {:<3}  {}\n", c->id, expected_text, bad.size(), seeds.size(), list);
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
