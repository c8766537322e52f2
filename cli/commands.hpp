// The thmcheck subcommands. Only cli/ knows numerics, theorems, properties and reports at once.
#pragma once

#include "numerics/scalar.hpp"
#include "properties/runner.hpp"
#include "theorems/claim.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace thm::cli {

// A subcommand: its node of the command line with the options its own file registers, and what runs it once the
// command line is parsed. cli/main.cpp is the table of them.
struct Command {
  CLI::App* app;
  std::function<int()> run;
};
Command add_list(CLI::App& app);
Command add_catalogue(CLI::App& app);
Command add_run(CLI::App& app);
Command add_merge(CLI::App& app);
Command add_stability(CLI::App& app);
Command add_experiment(CLI::App& app);
Command add_explore(CLI::App& app);
Command add_assess(CLI::App& app);
Command add_power(CLI::App& app);
Command add_tighten(CLI::App& app);
Command add_faults(CLI::App& app);

// --jobs's default: the number of cores.
int default_jobs();
// --seed on `cmd`: parsed by parse_seed as the command line is read (a bad seed is one line and exit 2), then `set`.
void add_seed_option(CLI::App& cmd, std::function<void(std::uint64_t)> set, const std::string& help);

// Bad usage or bad input: one line on stderr, exit status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline constexpr int kExitOk = 0;        // every verdict is the expected one
inline constexpr int kExitUnexpected = 1;  // some claim violated (or vacuous/inconclusive, or a control not caught)
inline constexpr int kExitUsage = 2;

struct RunArgs {
  std::string claims = "*";
  std::string precision = "double,mp50";
  std::optional<int> cases;
  std::uint64_t seed = 1;
  std::string report = "reports/latest";
  bool negative_control = false;
  std::optional<int> only_case;
  std::optional<std::string> junit;  // also write the JUnit XML here
  int jobs = 1;                      // threads evaluating cases (the CLI's default: the number of cores); same report
  std::string budget = "standard";   // or "full": the studies' complete grids; or "campaign" (clusters)
  std::optional<std::string> shard;  // "I/K": evaluate the I-th of K slices of the cases, write DIR/shard.json
  std::string certify = "reported";  // interval certificates: "reported" cases, "all" judged cases, or "none"
};

// Combines the shards of one campaign (every I of one K, same seed, budget, build and claims) into the report the
// unsharded run writes, byte for byte.
struct MergeArgs {
  std::vector<std::string> shards;  // shard directories (or their shard.json)
  std::string report = "reports/latest";
  std::optional<std::string> junit;
  std::string certify = "reported";  // the combined run's reported cases, as run's default; or none
};
int merge(const MergeArgs& args);

int list(bool json);

// The catalogue page (reports/catalogue.hpp) from this build's registries and the fault matrix `faults_file`: to `out`
// (written whole or not at all), or to standard output.
int catalogue(const std::string& faults_file, const std::string& power_file, const std::optional<std::string>& out);

// The whole of the file an option names; UsageError "<option>: cannot read <path>" where it cannot be opened.
std::string read_input_file(const std::string& option, const std::string& path);

struct ExploreArgs {
  std::string claim;
  std::optional<std::string> instance;  // a counterexample file
  std::optional<std::uint64_t> seed;    // or a generated case
  std::optional<int> case_index, cases;
  std::string digits = "30,50,100,200";
  bool negative_control = false;
  bool interval = false;  // also certify the conclusion with MPFI at the largest --digits
  bool patient = false;   // lift the claim's limits on the work (InstanceSchema), never its shapes
};
int explore(const ExploreArgs& args);
// --digits of explore and assess: comma-separated integers in [20, 5000]; UsageError otherwise.
std::vector<int> parse_digit_list(const std::string& csv);
// At most 24 characters of a decimal string, keeping its exponent (explore's and assess's tables).
std::string shorten_decimal(const std::string& s);

// thmcheck assess: an instance file (the user's weights and data) judged by every claim that reads its family.
struct AssessArgs {
  std::string instance;
  std::string claims = "*";
  std::string digits = "50,100";
  bool interval = true;                // the interval certificate where the claim has one
  bool patient = false;
  std::optional<std::string> json;     // also write the assessment as JSON (reports/assess_json.hpp) to this file
  std::optional<std::string> data;     // a CSV series replacing the instance's data (qin.model: series_windows)
  std::optional<int> window, samples;  // N and n cut from it; the instance's own N and n by default
};
int assess(const AssessArgs& args);

struct TightenArgs {
  std::string claim;
  int evaluations = 200;        // of the claim, the search's limit
  double seconds = 60;          // wall-clock cap
  std::uint64_t seed = 1;
  std::string out = "reports/tighten";  // ignored by git (.gitignore), kept by the next run
  bool negative_control = false;
};
int tighten(const TightenArgs& args);
int run(const RunArgs& args);

// thmcheck stability: the resolved verdict of every selected claim on each seed; exit 1 if any is unexpected.
inline constexpr std::uint64_t kMaxStabilitySeeds = 10000;
struct StabilityArgs {
  std::string seeds;  // "A..B" or a comma-separated list (of both)
  std::string claims = "*";
  std::string precision = "double,mp50";
  std::optional<int> cases;
  bool negative_control = false;
  std::optional<std::string> out;  // JSON: the table and every seed's verdicts
  int jobs = 1;                    // worker processes (seeds are split among them; same output for any number)
  std::string budget = "standard";
};
int stability(const StabilityArgs& args);
// "A..B" (inclusive) and/or comma-separated seeds; UsageError on anything else or more than kMaxStabilitySeeds.
std::vector<std::uint64_t> parse_seed_range(const std::string& text);

// thmcheck power: each claim's strength t and resolving factor k* over seeds (properties/power.hpp).
struct PowerArgs {
  std::string claims = "*";
  std::string seeds = "1..20";
  std::string precision = "double";
  std::optional<int> cases;
  std::string budget = "standard";
  int jobs = 1;
  std::optional<std::string> out;  // JSON, one object per claim
};
int power(const PowerArgs& args);
// thmcheck faults: the fault matrix (properties/fault_matrix.hpp); exit 0 when every selected fault is caught.
struct FaultsArgs {
  std::string faults = "*";  // names or globs, comma-separated
  std::string claims = "*";
  std::string precision = "double,mp50";
  std::optional<int> cases;  // per claim: min(cases, its default); unset: a quarter of its default, 1 to 10
  std::uint64_t seed = 1;
  std::optional<std::string> out;
  std::optional<std::string> table;  // print the catalogue's fault table from this matrix JSON and stop (no run)
  int jobs = 1;
};
int faults(const FaultsArgs& args);

std::vector<Precision> parse_precision_list(const std::string& csv);
// The width of the claim-id column: the longest registered id.
int id_width();
// The claims `patterns` selects (ids or globs, comma-separated); UsageError if one matches nothing.
std::vector<const Claim*> select_claims_or_usage(const std::string& patterns);
// Precisions, case count, study budget and variant as run and stability take them; UsageError on bad values.
RunOptions parse_run_options(const std::string& precision, std::optional<int> cases, bool negative_control,
                             const std::string& budget);
// The one claim `id` names (an id or a glob matching exactly one); UsageError otherwise.
const Claim& select_one_claim(const std::string& id, const std::string& command);
// A decimal integer in [0, 2^64 - 1]; no sign, no exponent, no wrap-around.
// `option` names what is parsed in the error ("--seed", or "--seeds: a seed").
std::uint64_t parse_seed(const std::string& text, const std::string& option = "--seed");

}  // namespace thm::cli
