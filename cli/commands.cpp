#include "cli/commands.hpp"

#include "cli/progress.hpp"

#include "properties/power.hpp"
#include "properties/runner.hpp"
#include "reports/atomic_write.hpp"
#include "reports/catalogue.hpp"
#include "reports/fault_matrix_json.hpp"
#include "reports/csv.hpp"
#include "reports/describe.hpp"
#include "reports/environment.hpp"
#include "reports/run_report.hpp"
#include "reports/shard_file.hpp"
#include "theorems/registry.hpp"

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <thread>

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

std::uint64_t parse_seed(const std::string& text, const std::string& option) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end)
    throw UsageError(option + " must be a whole number in [0, 18446744073709551615], got '" + text + "'");
  return value;
}

std::string read_input_file(const std::string& option, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError(option + ": cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

int catalogue(const std::string& faults_file, const std::string& power_file, const std::optional<std::string>& out) {
  if (out) {
    try {
      check_output_file(*out);  // before any work
    } catch (const ReportError& e) {
      throw UsageError(std::string("--out: ") + e.what());
    }
  }
  // Each file read and rendered once; a malformed one is named with its option.
  const auto table = [](const std::string& option, const std::string& path, std::string (*render)(const std::string&)) {
    const std::string text = read_input_file(option, path);
    try {
      return render(text);
    } catch (const ReportError& e) {
      throw UsageError(option + " " + path + ": " + e.what());
    }
  };
  const std::string faults = table("--faults", faults_file, fault_matrix_table);
  const std::string page = catalogue_markdown(faults, table("--power", power_file, power_table));
  if (out)
    atomic_write(*out, page);
  else
    std::cout << page;
  return kExitOk;
}

int list(bool json) {
  if (json) {
    const nlohmann::json arr = claims_json();
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
  if (!r.certifications.empty()) notes += "  (" + describe_certified(r) + ")";
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
  // A trend's `holds` that cannot rule out its named alternative at this run's judged cases says so (docs/verdicts.md,
  // "Named alternatives").
  if (v.claim && v.variant == Variant::claim && !v.claim->finding && v.claim->alternative_support > 0 && v.verdict == ClaimVerdict::holds) {
    const int judged = v.counts.held + v.counts.violated;
    const double power = support_test_power(judged, v.claim->required_support, v.claim->alternative_support);
    if (power < kResolvingPower)
      fmt::print("{:<{}}      underpowered against its alternative, hold rate {:g}: a run of {} judged cases rejects it with probability {:.3g}\n",
                 "", id_width(), v.claim->alternative_support, judged, power);
  }
  for (const std::string& line : describe_conditions(v)) fmt::print("{:<{}}      {}\n", "", id_width(), line);
  std::fflush(stdout);
}

// "I/K" with 0 <= I < K <= 100000.
Shard parse_shard(const std::string& text) {
  Shard s;
  const auto slash = text.find('/');
  const auto number = [&](const std::string& part, int& out) {
    const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), out);
    return !part.empty() && ec == std::errc() && ptr == part.data() + part.size();
  };
  if (slash == std::string::npos || !number(text.substr(0, slash), s.index) || !number(text.substr(slash + 1), s.count) || s.count < 1 ||
      s.count > 100000 || s.index < 0 || s.index >= s.count)
    throw UsageError("--shard takes I/K with 0 <= I < K <= 100000 (the I-th of K slices), got '" + text + "'");
  return s;
}

// Runs each claim's rows, prints them, and writes the report (staged: whole or absent); the exit status.
int finish_and_report(const std::vector<const Claim*>& claims, const RunOptions& options, const std::string& report,
                      const std::optional<std::string>& junit, StagedDirectory& staged,
                      const std::function<std::vector<ClaimRun>(const Claim&, const RunOptions&)>& rows_of) {
  fmt::print("thmcheck run: seed {} ({})\n", options.seed, to_string(options.variant));
  RunResult result{options.seed, options.variant, {}};
  // Claims side by side on the jobs (properties/runner.hpp, run_claims), printed and stored in claim order; each
  // claim's verdict is resolved here, once, and every file of the report reads it from the result.
  result.claims.resize(claims.size());
  run_claims(claims, options, rows_of, [&](std::size_t k, std::vector<ClaimRun> rows) {
    progress_line().clear();
    ClaimResult claim = resolve_claim(std::move(rows));
    for (const ClaimRun& r : claim.rows) print_row(r);
    print_resolved(claim.verdict);
    result.claims[k] = std::move(claim);
  });
  const bool all_expected = result.all_as_expected();
  try {
    const std::string text = write_report(staged.path(), result);
    staged.commit();
    if (junit) atomic_write(*junit, text);
  } catch (const ReportError& e) {
    throw UsageError(e.what());
  }
  fmt::print("report: {} (open index.html; also summary.md, junit.xml, claims/<id>.html|md|json)\n",
             (std::filesystem::path(report) / "index.html").string());
  if (!all_expected)
    fmt::print("replay a claim: thmcheck run --claims ID --seed {}{}\n", options.seed,
               options.variant == Variant::negative_control ? " --negative-control" : "");
  return all_expected ? kExitOk : kExitUnexpected;
}

// The report directory staged, and --junit checked, before any work.
void stage_outputs(std::optional<StagedDirectory>& staged, const std::string& report, const std::optional<std::string>& junit) {
  try {
    staged.emplace(report);
    if (junit) {
      if (is_within(*junit, report))
        throw ReportError("--junit '" + *junit + "' lies inside the report directory, which is replaced as a whole (it has junit.xml)");
      check_output_file(*junit);
    }
  } catch (const ReportError& e) {
    throw UsageError(e.what());
  }
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
  if (budget != "standard" && budget != "full" && budget != "campaign") throw UsageError("--budget must be standard, full or campaign");
  options.budget = budget == "standard" ? StudyBudget::standard : StudyBudget::full;
  options.campaign = budget == "campaign";
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
  if (progress_line()) options.progress = [](const Claim& c, int done, int total) { progress_line().show(c.id, done, total, "cases"); };
  if (args.certify == "reported") options.certify = CertifyScope::reported;
  else if (args.certify == "all") options.certify = CertifyScope::all;
  else if (args.certify == "none") options.certify = CertifyScope::none;
  else throw UsageError("--certify must be reported, all or none");
  if (args.only_case) {
    if (claims.size() != 1) throw UsageError("--case replays one case of one claim: give a single id in --claims");
    if (args.shard) throw UsageError("--case replays one case: give --case or --shard, not both");
    const int cases = case_count(*claims.front(), options);
    if (*args.only_case < 0 || *args.only_case >= cases)
      throw UsageError(fmt::format("--case must be in [0, {}) (the case count)", cases));
    options.only_case = args.only_case;
  }
  if (args.shard) options.shard = parse_shard(*args.shard);
  if (args.shard && options.certify != CertifyScope::reported)
    throw UsageError("--certify with --shard: merge certifies the reported cases of the combined run");
  // Every output path is checked before any work: the report is staged and replaces the previous one whole.
  std::optional<StagedDirectory> staged;
  stage_outputs(staged, args.report, args.junit);
  if (!args.shard)
    return finish_and_report(claims, options, args.report, args.junit, *staged, [](const Claim& c, const RunOptions& o) { return run_claim(c, o); });

  // A shard: its slice of every claim's cases, written as DIR/shard.json for `thmcheck merge`.
  ShardFile shard{environment_stamp(), options.seed, options.variant, options.budget, options.campaign, options.precisions, options.cases,
                  options.shard, claims, {}};
  fmt::print("thmcheck run: seed {} ({}), shard {}/{}\n", options.seed, to_string(options.variant), options.shard.index, options.shard.count);
  for (const Claim* c : claims) {
    shard.runs.push_back(evaluate_shard(*c, options));
    shard.runs.back().kept.clear();
    fmt::print("{:<{}} {} cases\n", c->id, id_width(), shard_cases(*c, options).size());
  }
  try {
    atomic_write(staged->path() / kShardFileName, shard_json(shard));
    staged->commit();
  } catch (const ReportError& e) {
    throw UsageError(e.what());
  }
  fmt::print("shard: {} (combine every shard with thmcheck merge)\n", (std::filesystem::path(args.report) / kShardFileName).string());
  return kExitOk;
}

int merge(const MergeArgs& args) {
  if (args.shards.empty()) throw UsageError("merge needs the shard directories");
  if (args.certify != "reported" && args.certify != "none") throw UsageError("--certify must be reported or none");
  std::vector<ShardFile> shards;
  for (const std::string& dir : args.shards) {
    try {
      shards.push_back(read_shard(dir));
    } catch (const DataError& e) {
      throw UsageError(e.what());
    }
  }
  try {
    check_one_campaign(shards, args.shards);
  } catch (const DataError& e) {
    throw UsageError(e.what());
  }
  const ShardFile& first = shards.front();
  RunOptions options = merged_options(first);
  if (args.certify == "none") options.certify = CertifyScope::none;
  std::optional<StagedDirectory> staged;
  stage_outputs(staged, args.report, args.junit);
  return finish_and_report(first.claims, options, args.report, args.junit, *staged,
                           [&](const Claim& c, const RunOptions& o) { return finish_run(c, o, take_shard_runs(shards, c)); });
}

int default_jobs() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

void add_seed_option(CLI::App& cmd, std::function<void(std::uint64_t)> set, const std::string& help) {
  cmd.add_option_function<std::string>("--seed", [set = std::move(set)](const std::string& text) { set(parse_seed(text)); }, help);
}

Command add_list(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("list", "List the claims: id, source, provenance, kind, statement");
  cmd->add_flag("--json", *json, "Print a JSON array of {id, source, provenance, kind, statement}");
  return {cmd, [json] { return list(*json); }};
}

Command add_catalogue(CLI::App& app) {
  struct Args {
    std::string faults = "docs/faults.json", power = "docs/power.json";
    std::optional<std::string> out;
  };
  auto a = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "catalogue", "Print the catalogue (docs/catalogue.md): the claims, power, experiments and faults tables from their registries, a fault matrix and a power table");
  cmd->add_option("--faults", a->faults, "The fault matrix JSON its fault table reads (default docs/faults.json)");
  cmd->add_option("--power", a->power, "The thmcheck power JSON its resolving-power table reads (default docs/power.json)");
  cmd->add_option("--out", a->out, "Write the page to this file instead of standard output");
  return {cmd, [a] { return catalogue(a->faults, a->power, a->out); }};
}

Command add_run(CLI::App& app) {
  auto a = std::make_shared<RunArgs>();
  CLI::App* cmd = app.add_subcommand("run", "Run claims on random instances and write DIR/summary.json");
  cmd->add_option("--claims", a->claims, "Comma-separated claim ids or globs (e.g. 'qin.residual.*')");
  cmd->add_option("--precision", a->precision, "Comma-separated precisions: double, mp50, mp100");
  cmd->add_option("--cases", a->cases, "Cases per claim (default: the claim's default cases)");
  add_seed_option(*cmd, [a](std::uint64_t s) { a->seed = s; }, "The seed every random choice flows from (0 .. 2^64-1)");
  cmd->add_option("--report", a->report, "Report directory (summary.json)");
  cmd->add_flag("--negative-control", a->negative_control, "Run the broken variants instead; each must come out violated");
  cmd->add_option("--case", a->only_case, "Replay a single case of one claim");
  cmd->add_option("--junit", a->junit, "Also write the JUnit XML to this file");
  cmd->add_option("--certify", a->certify,
                  "Interval certificates of the double cases: reported (the worst case and the ladder's cases; the "
                  "default), all (every judged case) or none");
  a->jobs = default_jobs();
  cmd->add_option("--jobs", a->jobs, "Threads evaluating cases (default: the number of cores); the report does not depend on it")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--budget", a->budget,
                  "standard (default); full: the complete n grids of the [G] studies; campaign (clusters): full grids, " +
                      std::to_string(kCampaignCaseFactor) + "x the cases, every multiprecision rung on every case")
      ->check(CLI::IsMember({"standard", "full", "campaign"}));
  cmd->add_option("--shard", a->shard,
                  "I/K: evaluate the I-th of K slices of every claim's cases (case i where i mod K = I) and write DIR/shard.json; "
                  "thmcheck merge combines the K shards into the unsharded report");
  return {cmd, [a] { return run(*a); }};
}

Command add_merge(CLI::App& app) {
  auto a = std::make_shared<MergeArgs>();
  CLI::App* cmd = app.add_subcommand("merge", "Combine the K shard directories of one campaign into the report the unsharded run writes");
  cmd->add_option("shards", a->shards, "Shard directories (each holding shard.json), every I of one K exactly once")->required();
  cmd->add_option("--report", a->report, "Report directory (default reports/latest)");
  cmd->add_option("--junit", a->junit, "Also write the JUnit XML to this file");
  cmd->add_option("--certify", a->certify, "Interval certificates of the combined run's reported cases (the default, as run's) or none");
  return {cmd, [a] { return merge(*a); }};
}

}  // namespace thm::cli
