#include "cli/commands.hpp"

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

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <unistd.h>
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

// A progress line on stderr when it is a terminal: claim, cases evaluated, and the claim's remaining time at its pace.
std::function<void(const Claim&, int, int)> progress_line() {
  if (!isatty(STDERR_FILENO)) return {};
  // Claims run side by side (run_claims): the line shows the one that reported last, with its own pace.
  struct State {
    std::mutex mutex;
    std::map<const Claim*, std::chrono::steady_clock::time_point> start;
  };
  auto state = std::make_shared<State>();
  return [state](const Claim& c, int done, int total) {
    const std::lock_guard<std::mutex> lock(state->mutex);
    const auto now = std::chrono::steady_clock::now();
    const auto start = state->start.emplace(&c, now).first->second;
    const double elapsed = std::chrono::duration<double>(now - start).count();
    const double eta = done > 0 ? elapsed * (total - done) / done : 0;
    fmt::print(stderr, "\r\033[K{} {}/{} cases{}", c.id, done, total, done < total ? fmt::format(", about {:.0f} s left", eta) : "");
    std::fflush(stderr);
  };
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
    if (options.progress) fmt::print(stderr, "\r\033[K");
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
  options.progress = progress_line();
  if (args.certify == "reported") options.certify = CertifyScope::reported;
  else if (args.certify == "all") options.certify = CertifyScope::all;
  else if (args.certify == "none") options.certify = CertifyScope::none;
  else throw UsageError("--certify must be reported, all or none");
  if (args.only_case) {
    if (claims.size() != 1) throw UsageError("--case replays one case of one claim: give a single id in --claims");
    if (args.shard) throw UsageError("--case replays one case: give --case or --shard, not both");
    const int budget = case_budget(*claims.front(), options);
    if (*args.only_case < 0 || *args.only_case >= budget)
      throw UsageError(fmt::format("--case must be in [0, {}) (the case budget)", budget));
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

}  // namespace thm::cli
