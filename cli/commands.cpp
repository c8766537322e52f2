#include "cli/commands.hpp"

#include "properties/runner.hpp"
#include "reports/atomic_write.hpp"
#include "reports/run_report.hpp"
#include "reports/text_reports.hpp"
#include "theorems/registry.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <iostream>
#include <sstream>

namespace thm::cli {

int id_width() {
  static const int width = [] {
    std::size_t w = 0;
    for (const Claim& c : all_claims()) w = std::max(w, c.id.size());
    return static_cast<int>(w);
  }();
  return width;
}

std::vector<Precision> parse_precision_list(const std::string& csv) {
  std::vector<Precision> out;
  std::stringstream ss(csv);
  std::string name;
  while (std::getline(ss, name, ',')) {
    const auto p = parse_precision(name);
    if (!p) throw UsageError("unknown precision '" + name + "' (expected double, mp50 or mp100)");
    bool dup = false;
    for (Precision q : out) dup = dup || q == *p;
    if (!dup) out.push_back(*p);
  }
  if (out.empty()) throw UsageError("--precision needs at least one of double, mp50, mp100");
  return out;
}

std::uint64_t parse_seed(const std::string& text) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end)
    throw UsageError("--seed must be a whole number in [0, 18446744073709551615], got '" + text + "'");
  return value;
}

int list(bool json) {
  if (json) {
    nlohmann::json arr = nlohmann::json::array();
    for (const Claim& c : all_claims())
      arr.push_back({{"id", c.id},
                     {"source", c.source},
                     {"provenance", std::string(to_string(c.provenance))},
                     {"kind", std::string(to_string(c.kind))},
                     {"statement", c.statement},
                     {"interval_certification", static_cast<bool>(c.certify)},
                     {"tightness_probe", static_cast<bool>(c.tightness)},
                     {"finding", c.finding.has_value()}});
    std::cout << arr.dump(2) << "\n";
    return kExitOk;
  }
  fmt::print("{:<{}} {:<4} {:<12} {:<11} {}\n", "id", id_width(), "src", "provenance", "kind", "statement");
  for (const Claim& c : all_claims())
    fmt::print("{:<{}} {:<4} {:<12} {:<11} {}\n", c.id, id_width(), c.source, to_string(c.provenance), to_string(c.kind), c.statement);
  return kExitOk;
}

namespace {

std::string format_slack(const std::optional<double>& s) { return s ? fmt::format("{:.3e}", *s) : std::string("-"); }

// One line per claim and precision: the row's own verdict and counts (the exit status follows the resolved line).
void print_row(const ClaimRun& r) {
  std::string notes;
  if (r.cases_rounding_artifact) notes += fmt::format("  ({} rounding artifacts)", r.cases_rounding_artifact);
  if (r.cases_resolved) notes += fmt::format("  ({} resolved at mp50/mp100)", r.cases_resolved);
  fmt::print("{:<{}} {:<6} {:<12} {:>5} cases  held {:>5}  discarded {:>4}  inconclusive {:>4}  violated {:>5}  min slack {:>10}{}\n",
             r.claim->id, id_width(), precision_name(r.precision), to_string(r.verdict), r.cases_run, r.cases_held, r.cases_discarded,
             r.cases_inconclusive, r.cases_violated, format_slack(r.min_slack), notes);
  if (r.shrunk)
    fmt::print("  shrunk case {} by structure: {} changes in {} evaluations ({:.1f} s{}); mp50/mp100: {}\n", r.shrunk->from_case,
               r.shrunk->steps.size(), r.shrunk->evaluations, r.shrunk->seconds, r.shrunk->capped ? ", capped" : "",
               to_string(r.shrunk->ladder));
}

void print_resolved(const ResolvedVerdict& v) {
  fmt::print("{:<{}} => {}\n", "", id_width(), describe_resolved(v));
  std::fflush(stdout);
}

}  // namespace

const Claim& select_one_claim(const std::string& id, const std::string& command) {
  const std::vector<const Claim*> match = select_claims_or_usage(id);
  if (match.size() != 1) throw UsageError(command + " takes one claim id, '" + id + "' matches " + std::to_string(match.size()));
  return *match.front();
}

std::vector<const Claim*> select_claims_or_usage(const std::string& patterns) {
  try {
    return select_claims(patterns);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

RunOptions parse_run_options(const std::string& precision, std::optional<int> cases, bool negative_control,
                             const std::string& budget) {
  RunOptions options;
  if (budget != "standard" && budget != "full") throw UsageError("--budget must be standard or full");
  options.budget = budget == "full" ? StudyBudget::full : StudyBudget::standard;
  options.precisions = parse_precision_list(precision);
  if (cases && (*cases < 1 || *cases > 100000)) throw UsageError("--cases must be in [1, 100000]");
  options.cases = cases.value_or(-1);
  options.variant = negative_control ? Variant::negative_control : Variant::claim;
  return options;
}

int run(const RunArgs& args) {
  const std::vector<const Claim*> claims = select_claims_or_usage(args.claims);
  RunOptions options = parse_run_options(args.precision, args.cases, args.negative_control, args.budget);
  options.seed = args.seed;
  options.shrink = true;
  options.jobs = args.jobs;
  if (args.only_case) {
    if (claims.size() != 1) throw UsageError("--case replays one case of one claim: give a single id in --claims");
    const int budget = args.cases.value_or(claims.front()->default_cases);
    if (*args.only_case < 0 || *args.only_case >= budget)
      throw UsageError(fmt::format("--case must be in [0, {}) (the case budget)", budget));
    options.only_case = args.only_case;
  }
  // Every output path is checked before any work: the report is staged and replaces the previous one whole.
  std::optional<StagedDirectory> staged;
  try {
    staged.emplace(args.report);
    if (args.junit) {
      if (is_within(*args.junit, args.report))
        throw ReportError("--junit '" + *args.junit + "' lies inside the report directory, which is replaced as a whole (it has junit.xml)");
      check_output_file(*args.junit);
    }
  } catch (const ReportError& e) {
    throw UsageError(e.what());
  }

  fmt::print("thmcheck run: seed {} ({})\n", options.seed, to_string(options.variant));
  RunResult result{options.seed, options.variant, claims, {}};
  bool all_expected = true;
  for (const Claim* c : claims) {
    const std::size_t first = result.runs.size();
    for (ClaimRun& r : run_claim(*c, options)) {
      print_row(r);
      result.runs.push_back(std::move(r));
    }
    std::vector<const ClaimRun*> rows;
    for (std::size_t k = first; k < result.runs.size(); ++k) rows.push_back(&result.runs[k]);
    const ResolvedVerdict v = resolve(rows);
    print_resolved(v);
    all_expected = all_expected && v.is_expected();
  }
  try {
    const std::string junit = write_report(staged->path(), result);
    staged->commit();
    if (args.junit) atomic_write(*args.junit, junit);
  } catch (const ReportError& e) {
    throw UsageError(e.what());
  }
  fmt::print("report: {} (open index.html; also summary.md, junit.xml, claims/<id>.html|md|json)\n",
             (std::filesystem::path(args.report) / "index.html").string());
  if (!all_expected)
    fmt::print("replay a claim: thmcheck run --claims ID --seed {}{}\n", options.seed,
               args.negative_control ? " --negative-control" : "");
  return all_expected ? kExitOk : kExitUnexpected;
}

}  // namespace thm::cli
