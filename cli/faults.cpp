// thmcheck faults: the fault matrix (properties/fault_matrix.hpp). Parses, checks every argument before any work,
// prints one progress line per fault on stderr, the matrix on stdout, and writes the JSON (reports/fault_matrix_json.hpp).
#include "cli/commands.hpp"

#include "numerics/fault.hpp"
#include "properties/fault_matrix.hpp"
#include "reports/atomic_write.hpp"
#include "reports/fault_matrix_json.hpp"
#include "theorems/registry.hpp"

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <fmt/format.h>

#include <iostream>
#include <sstream>

namespace thm::cli {

namespace {

// The faults `patterns` selects (names or globs, comma-separated), in catalogue order; UsageError if one matches none.
std::vector<Fault> select_faults(const std::string& patterns) {
  std::vector<std::string> parts;
  std::stringstream ss(patterns);
  std::string part;
  while (std::getline(ss, part, ',')) parts.push_back(part);
  if (parts.empty()) throw UsageError("--faults needs at least one fault name or glob");
  std::vector<bool> chosen(all_faults().size(), false);
  for (const std::string& pattern : parts) {
    bool any = false;
    for (std::size_t k = 0; k < all_faults().size(); ++k)
      if (glob_match(pattern, std::string(all_faults()[k].name))) chosen[k] = any = true;
    if (!any) throw UsageError("unknown fault '" + pattern + "' (the catalogue is in numerics/fault.hpp)");
  }
  std::vector<Fault> out;
  for (std::size_t k = 0; k < chosen.size(); ++k)
    if (chosen[k]) out.push_back(all_faults()[k].fault);
  return out;
}

std::string ids_of(const std::vector<const Claim*>& claims) {
  std::string s;
  for (const Claim* c : claims) s += (s.empty() ? "" : ", ") + c->id;
  return s;
}

std::string cell_text(const FaultCell& cell) {
  return cell.verdict ? std::string(to_string(*cell.verdict)) : "exception: " + cell.exception;
}

}  // namespace

int faults(const FaultsArgs& args) {
  if (args.table) {
    const std::string matrix = read_input_file("--table", *args.table);
    try {
      fmt::print("{}", fault_matrix_table(matrix));
    } catch (const ReportError& e) {
      throw UsageError("--table " + *args.table + ": " + e.what());
    }
    return kExitOk;
  }
  if (!fault_points_built()) throw UsageError("built without fault points; make faults builds them");
  FaultMatrixOptions options;
  options.faults = select_faults(args.faults);
  options.claims = select_claims_or_usage(args.claims);
  if (args.cases && (*args.cases < 1 || *args.cases > 100000)) throw UsageError("--cases must be in [1, 100000]");
  options.cases = args.cases;
  options.run.precisions = parse_precision_list(args.precision);
  options.run.seed = args.seed;
  options.run.jobs = args.jobs;
  if (args.out) {
    try {
      check_output_file(*args.out);  // before any work
    } catch (const ReportError& e) {
      throw UsageError("--out: " + std::string(e.what()));
    }
  }
  std::string precisions;
  for (Precision p : options.run.precisions) precisions += (precisions.empty() ? "" : ",") + std::string(precision_name(p));
  fmt::print("thmcheck faults: seed {}, {} faults x {} claims, {} at {}\n", args.seed, options.faults.size(), options.claims.size(),
             args.cases ? fmt::format("at most {} cases per claim", *args.cases) : std::string("a quarter of each claim's cases (1 to 10)"),
             precisions);
  std::fflush(stdout);
  const FaultMatrix m = run_fault_matrix(options, [&](const FaultOutcome& f, std::size_t k, std::size_t total) {
    if (k == 0) {
      std::string unexpected;
      for (const FaultCell& cell : f.cells)
        if (!cell.as_expected()) unexpected += fmt::format("; {} {}", cell.claim->id, cell_text(cell));
      for (const FaultCell& cell : f.control_cells)
        if (!cell.as_expected()) unexpected += fmt::format("; {} control {}", cell.claim->id, cell_text(cell));
      std::cerr << fmt::format("[0/{}] baseline ({:.1f} s){}\n", total, f.seconds,
                               unexpected.empty() ? ": every claim as expected" : unexpected + " (not counted as catching)");
      return;
    }
    std::string by = ids_of(f.caught_by);
    if (!f.caught_by_control.empty()) by += (by.empty() ? "" : ", ") + ids_of(f.caught_by_control) + " (controls)";
    std::cerr << fmt::format("[{}/{}] {:<30} {:<7} {} (reached by {}; {:.1f} s)\n", k, total, f.fault.name, to_string(f.fault.kind),
                             f.caught() ? "caught by " + by : std::string("NOT CAUGHT"), f.reached_by.size(), f.seconds);
  });

  // The matrix: per fault, the claims that caught it (an exception named as such).
  for (const FaultCell& cell : m.baseline)
    if (!cell.as_expected())
      fmt::print("baseline: {} is {} without a fault (expected {}): it catches nothing here\n", cell.claim->id, cell_text(cell),
                 to_string(expected_verdict(*cell.claim, Variant::claim)));
  for (const FaultCell& cell : m.control_baseline)
    if (!cell.as_expected())
      fmt::print("baseline: {}'s negative control is {} without a fault (expected {}): it catches nothing here\n", cell.claim->id,
                 cell_text(cell), to_string(expected_verdict(*cell.claim, Variant::negative_control)));
  std::size_t width = 5;
  for (const FaultOutcome& f : m.faults) width = std::max(width, f.fault.name.size());
  fmt::print("{:<{}}  caught by\n", "fault", width);
  for (const FaultOutcome& f : m.faults) {
    std::string by;
    for (const Claim* c : f.caught_by) {
      const auto cell = std::find_if(f.cells.begin(), f.cells.end(), [c](const FaultCell& x) { return x.claim == c; });
      by += (by.empty() ? "" : ", ") + c->id + (cell->verdict ? " (" + std::string(to_string(*cell->verdict)) + ")" : " (exception)");
    }
    for (const Claim* c : f.caught_by_control) by += (by.empty() ? "" : ", ") + c->id + " (its control not caught)";
    fmt::print("{:<{}}  {}\n", f.fault.name, width, by.empty() ? "- (not caught)" : by);
  }
  fmt::print("{} of {} faults caught: model {} of {}, checker {} of {}\n", m.caught(), m.faults.size(), m.caught(FaultKind::model),
             m.total(FaultKind::model), m.caught(FaultKind::checker), m.total(FaultKind::checker));
  if (args.out) {
    try {
      atomic_write(*args.out, fault_matrix_json(m));
    } catch (const ReportError& e) {
      throw UsageError("--out: " + std::string(e.what()));
    }
    fmt::print("matrix: {}\n", *args.out);
  }
  // Exit 0 when every model fault is caught by a claim, and every checker fault by a claim, a control, or the check the
  // catalogue names for it (`checks`: a test of make test's fault build, which asserts the catch; a checker fault tests
  // the checker, not the model, and may sit where no claim's statistic reaches).
  std::vector<std::string_view> missed, by_check;
  for (const FaultOutcome& f : m.faults) {
    if (f.caught()) continue;
    (f.fault.kind == FaultKind::checker && !f.fault.checks.empty() ? by_check : missed).push_back(f.fault.name);
  }
  if (!by_check.empty()) fmt::print("checker faults caught by their check, not by a claim: {}\n", fmt::join(by_check, ", "));
  if (!missed.empty()) fmt::print("NOT CAUGHT: {}\n", fmt::join(missed, ", "));
  return missed.empty() ? kExitOk : kExitUnexpected;
}


Command add_faults(CLI::App& app) {
  auto a = std::make_shared<FaultsArgs>();
  a->jobs = default_jobs();
  CLI::App* cmd = app.add_subcommand(
      "faults", "Fault matrix (builds with THM_FAULTS, make faults): run the claims with each planted bug of numerics/fault.hpp; "
                "which claims catch each; exit 0 when every selected model fault is caught by a claim and every checker fault by a "
                "claim or its named check");
  cmd->add_option("--faults", a->faults, "Comma-separated fault names or globs (default: every fault)");
  cmd->add_option("--claims", a->claims, "Comma-separated claim ids or globs (default: every claim)");
  cmd->add_option("--precision", a->precision, "Comma-separated precisions (default double,mp50)");
  cmd->add_option("--cases", a->cases, "Cases per claim: min(N, its default cases) (default: a quarter of its default cases, 1 to 10)");
  add_seed_option(*cmd, [a](std::uint64_t s) { a->seed = s; }, "The seed every random choice flows from (default 1)");
  cmd->add_option("--jobs", a->jobs, "Threads (default: the number of cores)")->check(CLI::Range(1, 256));
  cmd->add_option("--out", a->out, "Also write the matrix as JSON to this file");
  cmd->add_option("--table", a->table, "Print the fault table (docs/catalogue.md's) from this matrix JSON (a --out file) and stop; any build");
  return {cmd, [a] { return faults(*a); }};
}

}  // namespace thm::cli
