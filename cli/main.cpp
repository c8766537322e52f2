// thmcheck: numerical checks of convergence theorems about transformers.
#include "cli/commands.hpp"
#include "cli/experiments.hpp"
#include "numerics/allocation.hpp"
#include "numerics/baseline_libm.hpp"
#include "numerics/instance.hpp"
#include "numerics/ordered_gemm.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>
#include <thread>

int main(int argc, char** argv) {
  using namespace thm::cli;
  thm::use_baseline_libm(argv);  // first: may start the program again with glibc's baseline exp, log, pow...
  // A bad THM_GEMM_ISA is bad input: refused here (one line, exit 2), on this thread, before any work; found first in
  // a worker thread mid-run, its exit ran while other workers still evaluated (ASan: a use after free).
  thm::gemm_isa();
  thm::use_heap_for_large_matrices();
  CLI::App app{"thmcheck: numerical checks of convergence theorems about transformers"};
  app.require_subcommand(1);

  bool list_json = false;
  CLI::App* list_cmd = app.add_subcommand("list", "List the claims: id, source, provenance, kind, statement");
  list_cmd->add_flag("--json", list_json, "Print a JSON array of {id, source, provenance, kind, statement}");

  std::string catalogue_faults = "docs/faults.json";
  std::optional<std::string> catalogue_out;
  CLI::App* catalogue_cmd = app.add_subcommand(
      "catalogue", "Print the catalogue (docs/catalogue.md): the claims, power, experiments and faults tables from their registries, a fault matrix and a power table");
  catalogue_cmd->add_option("--faults", catalogue_faults, "The fault matrix JSON its fault table reads (default docs/faults.json)");
  std::string catalogue_power = "docs/power.json";
  catalogue_cmd->add_option("--power", catalogue_power, "The thmcheck power JSON its resolving-power table reads (default docs/power.json)");
  catalogue_cmd->add_option("--out", catalogue_out, "Write the page to this file instead of standard output");

  RunArgs run_args;
  int cases = 0, only_case = -1;
  std::string seed_text;
  CLI::App* run_cmd = app.add_subcommand("run", "Run claims on random instances and write DIR/summary.json");
  run_cmd->add_option("--claims", run_args.claims, "Comma-separated claim ids or globs (e.g. 'qin.residual.*')");
  run_cmd->add_option("--precision", run_args.precision, "Comma-separated precisions: double, mp50, mp100");
  CLI::Option* cases_opt = run_cmd->add_option("--cases", cases, "Cases per claim (default: the claim's budget)");
  CLI::Option* seed_opt = run_cmd->add_option("--seed", seed_text, "The seed every random choice flows from (0 .. 2^64-1)");
  run_cmd->add_option("--report", run_args.report, "Report directory (summary.json)");
  run_cmd->add_flag("--negative-control", run_args.negative_control,
                    "Run the broken variants instead; each must come out violated");
  CLI::Option* case_opt = run_cmd->add_option("--case", only_case, "Replay a single case of one claim");
  run_cmd->add_option("--junit", run_args.junit, "Also write the JUnit XML to this file");
  run_cmd->add_option("--certify", run_args.certify,
                      "Interval certificates of the double cases: reported (the worst case and the ladder's cases; the "
                      "default), all (every judged case) or none");
  run_args.jobs = std::max(1u, std::thread::hardware_concurrency());
  run_cmd->add_option("--jobs", run_args.jobs, "Threads evaluating cases (default: the number of cores); the report does not depend on it")
      ->check(CLI::Range(1, 256));
  std::string run_budget = "standard", exp_budget = "standard";
  run_cmd->add_option("--budget", run_budget,
                      "standard (default); full: the complete n grids of the [G] studies; campaign (clusters): full grids, " +
                          std::to_string(thm::kCampaignCaseFactor) + "x the cases, every multiprecision rung on every case")
      ->check(CLI::IsMember({"standard", "full", "campaign"}));
  run_cmd->add_option("--shard", run_args.shard,
                      "I/K: evaluate the I-th of K slices of every claim's cases (case i where i mod K = I) and write DIR/shard.json; "
                      "thmcheck merge combines the K shards into the unsharded report");

  MergeArgs merge_args;
  CLI::App* merge_cmd = app.add_subcommand("merge", "Combine the K shard directories of one campaign into the report the unsharded run writes");
  merge_cmd->add_option("shards", merge_args.shards, "Shard directories (each holding shard.json), every I of one K exactly once")->required();
  merge_cmd->add_option("--report", merge_args.report, "Report directory (default reports/latest)");
  merge_cmd->add_option("--junit", merge_args.junit, "Also write the JUnit XML to this file");
  merge_cmd->add_option("--certify", merge_args.certify,
                        "Interval certificates of the combined run's reported cases (the default, as run's) or none");

  StabilityArgs st_args;
  st_args.jobs = std::max(1u, std::thread::hardware_concurrency());
  int st_cases = 0;
  std::string st_budget = "standard";
  CLI::App* st_cmd = app.add_subcommand(
      "stability", "Run the claims on many seeds; per claim, the seeds whose resolved verdict is not the expected one");
  st_cmd->add_option("--seeds", st_args.seeds, "Seeds: A..B (inclusive) and/or a comma-separated list")->required();
  st_cmd->add_option("--claims", st_args.claims, "Comma-separated claim ids or globs");
  st_cmd->add_option("--precision", st_args.precision, "Comma-separated precisions: double, mp50, mp100");
  CLI::Option* st_cases_opt = st_cmd->add_option("--cases", st_cases, "Cases per claim (default: the claim's budget)");
  st_cmd->add_flag("--negative-control", st_args.negative_control, "Run the broken variants (each must be violated)");
  st_cmd->add_option("--out", st_args.out, "Also write the table and every seed's verdicts as JSON to this file");
  st_cmd->add_option("--jobs", st_args.jobs, "Worker processes (default: the number of cores); the output does not depend on it")
      ->check(CLI::Range(1, 256));
  st_cmd->add_option("--budget", st_budget, "standard (default) or full")->check(CLI::IsMember({"standard", "full"}));

  ExperimentCommand exp;
  std::string exp_seed_text;
  int exp_steps = 0;
  std::string exp_names, exp_defaults;
  for (const thm::Experiment& e : thm::experiments()) {
    exp_names += (exp_names.empty() ? "" : ", ") + std::string(e.name);
    exp_defaults += (exp_defaults.empty() ? "" : ", ") + std::string(e.name) + " " + std::to_string(e.default_steps);
  }
  CLI::App* exp_cmd = app.add_subcommand("experiment", "Run a paper experiment (" + exp_names + "); CSV, JSON, HTML under --out");
  exp_cmd->add_option("name", exp.args.name, exp_names)->required();
  exp_cmd->add_option("--out", exp.out, "Output directory (default reports/experiments)");
  CLI::Option* exp_seed_opt = exp_cmd->add_option("--seed", exp_seed_text, "The seed every random choice flows from");
  exp_cmd->add_option("--seeds", exp.args.seeds, "Independent data/initialisations (default 3)");
  CLI::Option* steps_opt = exp_cmd->add_option("--steps", exp_steps, "GD steps per run: the budget (the qin training experiments stop earlier "
                                                                     "at the target or on a plateau; qin-rate-frontier caps it at 300). Defaults: " + exp_defaults);
  exp_cmd->add_option("--data", exp.data, "CSV time series (rows: time, columns: features) instead of synthetic data");
  exp_cmd->add_option("--text", exp.text, "Two-class corpus, one 'LABEL<TAB>TEXT' per line, instead of synthetic data");
  exp_cmd->add_option("--window", exp.args.window, "Tokens per sequence (N) when windowing --data, or taken from each --text document (default 8)");
  exp_cmd->add_option("--samples", exp.args.samples, "Sequences (n) taken from --data, or documents from --text (default 4)");
  exp_cmd->add_option("--embed", exp.args.embed, "Dimensions (d) each --text token is embedded in by the seeded map (default 8)");
  exp.args.jobs = std::max(1u, std::thread::hardware_concurrency());
  exp_cmd->add_option("--jobs", exp.args.jobs, "Threads for the independent runs (default: the number of cores); the output does not depend on it")
      ->check(CLI::Range(1, 256));
  exp_cmd->add_option("--budget", exp_budget, "standard (default) or full: the complete n grid (goel-n-scaling)")
      ->check(CLI::IsMember({"standard", "full"}));

  ExploreArgs ex_args;
  std::string ex_seed_text;
  int ex_case = 0, ex_cases = 0;
  CLI::App* ex_cmd = app.add_subcommand("explore", "Re-evaluate one instance at double and at any number of digits; classify it");
  ex_cmd->add_option("id", ex_args.claim, "Claim id")->required();
  ex_cmd->add_option("--instance", ex_args.instance, "A counterexample file (DIR/counterexamples/*.json)");
  CLI::Option* ex_seed_opt = ex_cmd->add_option("--seed", ex_seed_text, "Or: the seed of a generated case");
  CLI::Option* ex_case_opt = ex_cmd->add_option("--case", ex_case, "The case index (with --seed)");
  CLI::Option* ex_cases_opt = ex_cmd->add_option("--cases", ex_cases, "The case budget the index belongs to (default: the claim's)");
  ex_cmd->add_option("--digits", ex_args.digits, "Comma-separated decimal digits (default 30,50,100,200)");
  ex_cmd->add_flag("--negative-control", ex_args.negative_control, "Explore the broken variant (with --seed)");
  ex_cmd->add_flag("--interval", ex_args.interval,
                   "Also certify the conclusion with MPFI intervals at the largest --digits: certified holds / violated / not");
  ex_cmd->add_flag("--patient", ex_args.patient,
                   "Evaluate instances beyond the claim's limits on the work (sizes it evaluates within a minute); may take hours");

  AssessArgs as_args;
  CLI::App* as_cmd = app.add_subcommand(
      "assess", "Judge an instance file (your weights and data) by every claim that reads its family, at double and --digits, "
                "certified in intervals where the claim can be; exit 1 when a claim is violated at every precision");
  as_cmd->add_option("--instance", as_args.instance, "An instance file (docs/guide/python.md, \"Instance files\") or a counterexample file")
      ->required();
  as_cmd->add_option("--claims", as_args.claims, "Comma-separated claim ids or globs (default: every claim that reads the family)");
  as_cmd->add_option("--digits", as_args.digits, "Comma-separated decimal digits of the rungs above double (default 50,100)");
  as_cmd->add_flag("!--no-interval", as_args.interval, "Skip the interval certificates");
  as_cmd->add_flag("--patient", as_args.patient, "Evaluate instances beyond the claims' limits on the work; may take hours");
  as_cmd->add_option("--json", as_args.json, "Also write the assessment as JSON to this file");
  as_cmd->add_option("--data", as_args.data, "A CSV series (as experiment --data) replacing the instance's data: the weights judged on it");
  as_cmd->add_option("--window", as_args.window, "Tokens per sequence (N) cut from --data (default: the instance's N)");
  as_cmd->add_option("--samples", as_args.samples, "Sequences (n) cut from --data (default: the instance's n)");

  PowerArgs pw_args;
  pw_args.jobs = std::max(1u, std::thread::hardware_concurrency());
  int pw_cases = 0;
  CLI::App* pw_cmd = app.add_subcommand(
      "power", "Resolving power: per claim, the largest factor its knob could be strengthened by and still hold on every instance "
               "(tightness t), and the smallest factor a default run catches with probability >= 0.99 (resolving factor k*)");
  pw_cmd->add_option("--claims", pw_args.claims, "Comma-separated claim ids or globs (default: all)");
  pw_cmd->add_option("--seeds", pw_args.seeds, "Seeds of the default-budget runs: A..B and/or a list (default 1..20)");
  pw_cmd->add_option("--precision", pw_args.precision, "Comma-separated precisions (default double; the ladder runs as in run)");
  CLI::Option* pw_cases_opt = pw_cmd->add_option("--cases", pw_cases, "Cases per run (default: the claim's budget)");
  pw_cmd->add_option("--budget", pw_args.budget, "standard (default) or full")->check(CLI::IsMember({"standard", "full"}));
  pw_cmd->add_option("--jobs", pw_args.jobs, "Threads (default: the number of cores); the output does not depend on it")
      ->check(CLI::Range(1, 256));
  pw_cmd->add_option("--out", pw_args.out, "Also write the results as JSON to this file");

  TightenArgs t_args;
  std::string t_seed_text;
  CLI::App* t_cmd = app.add_subcommand("tighten", "Search the claim's generating parameters for the largest lhs/rhs; save that instance");
  t_cmd->add_option("id", t_args.claim, "Claim id")->required();
  t_cmd->add_option("--budget", t_args.budget, "Evaluations (default 200)");
  t_cmd->add_option("--seconds", t_args.seconds, "Wall-clock cap in seconds (default 60)");
  CLI::Option* t_seed_opt = t_cmd->add_option("--seed", t_seed_text, "The seed of the search (default 1)");
  t_cmd->add_option("--out", t_args.out, "Where the best instance is saved (default reports/tighten)");
  t_cmd->add_flag("--negative-control", t_args.negative_control, "Search the broken variant");

  FaultsArgs f_args;
  f_args.jobs = std::max(1u, std::thread::hardware_concurrency());
  std::string f_seed_text;
  CLI::App* f_cmd = app.add_subcommand(
      "faults", "Fault matrix (builds with THM_FAULTS, make faults): run the claims with each planted bug of numerics/fault.hpp; "
                "which claims catch each; exit 0 when every selected fault is caught");
  f_cmd->add_option("--faults", f_args.faults, "Comma-separated fault names or globs (default: every fault)");
  f_cmd->add_option("--claims", f_args.claims, "Comma-separated claim ids or globs (default: every claim)");
  f_cmd->add_option("--precision", f_args.precision, "Comma-separated precisions (default double,mp50)");
  int f_cases = 0;
  CLI::Option* f_cases_opt = f_cmd->add_option("--cases", f_cases, "Cases per claim: min(N, its default budget) (default: a quarter of its budget, 1 to 10)");
  CLI::Option* f_seed_opt = f_cmd->add_option("--seed", f_seed_text, "The seed every random choice flows from (default 1)");
  f_cmd->add_option("--jobs", f_args.jobs, "Threads (default: the number of cores)")->check(CLI::Range(1, 256));
  f_cmd->add_option("--out", f_args.out, "Also write the matrix as JSON to this file");
  f_cmd->add_option("--table", f_args.table, "Print the fault table (docs/catalogue.md's) from this matrix JSON (a --out file) and stop; any build");

  try {
    app.parse(argc, argv);
    if (*f_cmd) {
      if (*f_seed_opt) f_args.seed = parse_seed(f_seed_text);
      if (*f_cases_opt) f_args.cases = f_cases;
      return faults(f_args);
    }
    if (*t_seed_opt) t_args.seed = parse_seed(t_seed_text);
    if (*t_cmd) return tighten(t_args);
    if (*pw_cmd) {
      if (*pw_cases_opt) pw_args.cases = pw_cases;
      return power(pw_args);
    }
    if (*ex_seed_opt) ex_args.seed = parse_seed(ex_seed_text);
    if (*ex_case_opt) ex_args.case_index = ex_case;
    if (*ex_cases_opt) ex_args.cases = ex_cases;
    if (*ex_cmd) return explore(ex_args);
    if (*as_cmd) return assess(as_args);
    if (*exp_seed_opt) exp.args.seed = parse_seed(exp_seed_text);
    exp.args.full = exp_budget == "full";
    if (*steps_opt) exp.steps = exp_steps;
    if (*exp_cmd) return experiment(exp);
    if (*st_cmd) {
      st_args.budget = st_budget;
      if (*st_cases_opt) st_args.cases = st_cases;
      return stability(st_args);
    }
    run_args.budget = run_budget;
    if (*cases_opt) run_args.cases = cases;
    if (*seed_opt) run_args.seed = parse_seed(seed_text);
    if (*case_opt) run_args.only_case = only_case;
    if (*list_cmd) return list(list_json);
    if (*catalogue_cmd) return catalogue(catalogue_faults, catalogue_power, catalogue_out);
    if (*merge_cmd) return merge(merge_args);
    return run(run_args);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help on a subcommand
    std::cerr << "thmcheck: error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const UsageError& e) {
    std::cerr << "thmcheck: error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const thm::InstanceError& e) {
    std::cerr << "thmcheck: error: bad instance: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::invalid_argument& e) {
    std::cerr << "thmcheck: error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    // Anything else (an unwritable path, a library error): one line, never an abort.
    std::cerr << "thmcheck: error: " << e.what() << "\n";
    return kExitUsage;
  }
}
