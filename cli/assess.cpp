// `thmcheck assess --instance FILE`: an instance from outside the suite (a user's weights and data, written by
// thmcheck.qin.Transformer.save or by hand: docs/guide/python.md, "Instance files") judged by every claim that reads
// its family, up the precision ladder, certified in intervals where the claim can be (properties/assess.hpp).
#include "cli/commands.hpp"
#include "properties/assess.hpp"
#include "reports/assess_json.hpp"
#include "reports/atomic_write.hpp"
#include "reports/counterexample.hpp"
#include "reports/csv.hpp"
#include "numerics/models/qin/model_instance.hpp"
#include "theorems/registry.hpp"

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <algorithm>
#include <stdexcept>

namespace thm::cli {

namespace {

// --data: the instance's sequences replaced by windows of the series (numerics/models/qin/model_instance.hpp), checked
// before any work; the weights are the instance's.
void replace_data(Instance& inst, const AssessArgs& a) {
  if (inst.family != kQinModelFamily)
    throw UsageError("--data applies to instances of family '" + std::string(kQinModelFamily) + "', not '" + inst.family + "'");
  const int n = a.samples.value_or(static_cast<int>(inst.param("n"))), N = a.window.value_or(static_cast<int>(inst.param("N")));
  if (n < 1 || n > 512 || N < 1 || N > 512) throw UsageError("--window and --samples must be in [1, 512]");
  try {
    const DataSeries series = read_series_csv(*a.data);
    replace_qin_data(inst, series_windows(series.values, n, N));
    fmt::print("data: {}, {} sequences of {} rows{}\n\n", *a.data, n, N,
               series.filled ? fmt::format(" ({} missing values filled by linear interpolation in time)", series.filled) : "");
  } catch (const DataError& e) {
    throw UsageError(e.what());
  } catch (const std::invalid_argument& e) {
    throw UsageError(*a.data + ": " + e.what());
  }
}

}  // namespace

int assess(const AssessArgs& a) {
  const std::vector<const Claim*> claims = select_claims_or_usage(a.claims);
  AssessOptions options;
  options.digits = parse_digit_list(a.digits);
  options.certify = a.interval;
  options.patient = a.patient;
  if (a.json) {
    try {
      check_output_file(*a.json);  // before any work
    } catch (const ReportError& e) {
      throw UsageError(std::string("--json: ") + e.what());
    }
  }
  Instance inst;
  try {
    inst = read_instance_file(a.instance);
    inst.require_finite();
  } catch (const DataError& e) {
    throw UsageError(e.what());
  } catch (const InstanceError& e) {
    throw UsageError("bad instance (" + a.instance + "): " + e.what());
  }
  if (!a.data && (a.window || a.samples)) throw UsageError("--window and --samples cut sequences from --data, which is not given");
  if (a.data) replace_data(inst, a);

  const auto print = [&](const ClaimAssessment& x) {
    if (!x.not_applicable.empty()) {
      fmt::print("{}: does not apply ({})\n\n", x.claim->id, x.not_applicable);
      return;
    }
    fmt::print("{}: {}\n", x.claim->id, to_string(x.ladder.classification));
    for (const ExploreRung& r : x.ladder.rungs) {
      if (r.outcome.worst_condition < 0) {
        fmt::print("  {:<10} {:<12} {}\n", r.name, to_string(r.outcome.verdict), r.condition);
        continue;
      }
      fmt::print("  {:<10} {:<12} {:>24} {} {:<24} margin {:>11.4e}  {}\n", r.name, to_string(r.outcome.verdict), shorten_decimal(r.measured),
                 r.ge ? ">=" : "<=", shorten_decimal(r.bound), r.margin, r.condition);
    }
    if (x.certification)
      fmt::print("  interval certification at {} digits: {}\n", x.certification->digits, to_string(x.certification->certification.verdict));
    for (const QuantityRow& q : quantity_table(x.ladder, 16)) {
      fmt::print("  {:<60}", q.name.size() > 60 ? q.name.substr(0, 57) + "..." : q.name);
      for (const std::optional<double>& v : q.values) fmt::print(" {:>14}", v ? fmt::format("{:.6e}", *v) : std::string("-"));
      fmt::print("\n");
    }
    fmt::print("\n");
  };
  std::vector<ClaimAssessment> result;
  try {
    result = assess_instance(inst, claims, options, print);
  } catch (const std::invalid_argument& e) {
    throw UsageError(a.instance + ": " + e.what());
  } catch (const InstanceError& e) {
    throw UsageError("bad instance (" + a.instance + "): " + e.what());
  }
  // One line of totals: what was judged, and how much of it is vacuous here (discarded: a hypothesis fails).
  const std::size_t genuine = count(result, ExploreClass::genuine);
  const auto not_applicable = std::count_if(result.begin(), result.end(), [](const ClaimAssessment& x) { return !x.not_applicable.empty(); });
  fmt::print("{} claims read this instance: {} hold, {} violated at every precision, {} rounding artifacts, {} undecided, {} discarded "
             "(a hypothesis fails here: nothing said); {} do not apply\n",
             result.size(), count(result, ExploreClass::holds), genuine, count(result, ExploreClass::rounding_artifact),
             count(result, ExploreClass::undecided), count(result, ExploreClass::discarded), not_applicable);
  if (a.json) atomic_write(*a.json, assess_json(inst, result).dump(1) + "\n");
  // A violation at every precision is the claim contradicted on this instance: exit 1, as run's unexpected verdicts.
  return genuine > 0 ? kExitUnexpected : kExitOk;
}


Command add_assess(CLI::App& app) {
  auto a = std::make_shared<AssessArgs>();
  CLI::App* cmd = app.add_subcommand(
      "assess", "Judge an instance file (your weights and data) by every claim that reads its family, at double and --digits, "
                "certified in intervals where the claim can be; exit 1 when a claim is violated at every precision");
  cmd->add_option("--instance", a->instance, "An instance file (docs/guide/python.md, \"Instance files\") or a counterexample file")->required();
  cmd->add_option("--claims", a->claims, "Comma-separated claim ids or globs (default: every claim that reads the family)");
  cmd->add_option("--digits", a->digits, "Comma-separated decimal digits of the rungs above double (default 50,100)");
  cmd->add_flag("!--no-interval", a->interval, "Skip the interval certificates");
  cmd->add_flag("--patient", a->patient, "Evaluate instances beyond the claims' limits on the work; may take hours");
  cmd->add_option("--json", a->json, "Also write the assessment as JSON to this file");
  cmd->add_option("--data", a->data, "A CSV series (as experiment --data) replacing the instance's data: the weights judged on it");
  cmd->add_option("--window", a->window, "Tokens per sequence (N) cut from --data (default: the instance's N)");
  cmd->add_option("--samples", a->samples, "Sequences (n) cut from --data (default: the instance's n)");
  return {cmd, [a] { return assess(*a); }};
}

}  // namespace thm::cli
