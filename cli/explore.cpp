// `thmcheck explore`: one instance at double and at any number of decimal digits, with a verdict
// per precision, how many digits of the worst margin agree between consecutive precisions, and a
// classification: genuine, rounding artifact, holds, or undecided.
#include "cli/commands.hpp"
#include "properties/certification.hpp"
#include "properties/explore.hpp"
#include "reports/counterexample.hpp"
#include "theorems/registry.hpp"

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <algorithm>
#include <sstream>

namespace thm::cli {

// At most 24 characters of a decimal string, keeping its exponent.
std::string shorten_decimal(const std::string& s) {
  if (s.size() <= 24) return s;
  const auto e = s.find_first_of("eE");
  if (e == std::string::npos) return s.substr(0, 24);
  return s.substr(0, std::min<std::size_t>(e, 24 - (s.size() - e))) + s.substr(e);
}

std::vector<int> parse_digit_list(const std::string& csv) {
  std::vector<int> out;
  std::stringstream ss(csv);
  std::string item;
  while (std::getline(ss, item, ',')) {
    int d = 0;
    try {
      std::size_t used = 0;
      d = std::stoi(item, &used);
      if (used != item.size()) throw std::invalid_argument(item);
    } catch (const std::exception&) {
      throw UsageError("--digits takes comma-separated integers, got '" + item + "'");
    }
    if (d < 20 || d > 5000) throw UsageError("--digits must be in [20, 5000], got " + std::to_string(d));
    out.push_back(d);
  }
  if (out.empty()) throw UsageError("--digits needs at least one value");
  return out;
}

int explore(const ExploreArgs& a) {
  const Claim& claim = select_one_claim(a.claim, "explore");
  const std::vector<int> digits = parse_digit_list(a.digits);
  Instance inst;
  Variant variant = a.negative_control ? Variant::negative_control : Variant::claim;
  std::string origin;
  if (a.instance) {
    if (a.seed) throw UsageError("give --instance or --seed, not both");
    Counterexample c;
    try {
      c = read_counterexample(*a.instance);
    } catch (const DataError& e) {
      throw UsageError(e.what());
    }
    if (c.claim != claim.id) throw UsageError(*a.instance + " is a counterexample to " + c.claim + ", not " + claim.id);
    inst = c.instance;
    variant = c.variant;
    origin = *a.instance;
  } else {
    if (!a.seed || !a.case_index) throw UsageError("give --instance FILE, or --seed S and --case I");
    const int cases = a.cases.value_or(claim.default_cases);
    if (cases < 1 || cases > 100000 || *a.case_index < 0 || *a.case_index >= cases)
      throw UsageError("--case must be in [0, --cases) and --cases in [1, 100000]");
    inst = generate_case(claim, *a.seed, *a.case_index, cases);
    origin = "seed " + std::to_string(*a.seed) + ", case " + std::to_string(*a.case_index) + " of " + std::to_string(cases);
  }

  // The claim's schema before any arithmetic (a file from outside, or a generated case: the same check), then the
  // ladder (properties/explore.hpp), printed rung by rung: a malformed instance is refused with one line before
  // anything is printed.
  try {
    claim.schema.check(inst, *std::max_element(digits.begin(), digits.end()), a.patient);
  } catch (const InstanceError& e) {
    throw UsageError("bad instance (" + origin + "): " + e.what());
  }
  const auto print_rung = [&](const ExploreRung& r) {
    if (r.digits == 0) {
      fmt::print("{} ({}) on {}\n", claim.id, to_string(variant), origin);
      fmt::print("{:<10} {:<12} {:>24} {:>24} {:>12} {:>10}  {}\n", "precision", "verdict", "measured", "bound", "margin", "digits", "worst condition");
    }
    const bool judged = r.outcome.worst_condition >= 0;
    const std::string lhs = judged ? shorten_decimal(r.measured) : "-", rhs = judged ? (r.ge ? ">= " : "<= ") + shorten_decimal(r.bound) : "-";
    const std::string agree = r.agreeing_digits ? fmt::format("{:.1f}", *r.agreeing_digits) : "";
    fmt::print("{:<10} {:<12} {:>24} {:>24} {:>12.4e} {:>10}  {}\n", r.name, to_string(r.outcome.verdict), lhs, rhs, r.margin, agree, r.condition);
  };
  ExploreResult ladder;
  try {
    ladder = explore_ladder(claim, inst, variant, digits, print_rung);
  } catch (const InstanceError& e) {
    throw UsageError("bad instance (" + origin + "): " + e.what());
  }
  // The quantities the claim depends on, per precision, and the digits on which the last two agree.
  const std::size_t quantities = ladder.rungs.front().quantities.size();
  if (quantities > 0) {
    fmt::print("\n{:<48}", "quantity");
    for (const ExploreRung& r : ladder.rungs) fmt::print(" {:>20}", r.name);
    fmt::print(" {:>8}\n", "digits");
    const std::vector<QuantityRow> table = quantity_table(ladder, 40);
    for (const QuantityRow& q : table) {
      fmt::print("{:<48}", q.name.size() > 48 ? q.name.substr(0, 45) + "..." : q.name);
      for (const std::optional<double>& v : q.values) {
        if (v) fmt::print(" {:>20.12e}", *v);
        else fmt::print(" {:>20}", "-");
      }
      fmt::print(" {:>8}\n", q.agreeing_digits ? fmt::format("{:.1f}", *q.agreeing_digits) : "");
    }
    if (quantities > table.size()) fmt::print("({} more in the claim's JSON report)\n", quantities - table.size());
    fmt::print("\n");
  }
  const char* verdict = "undecided";
  switch (ladder.classification) {
    case ExploreClass::discarded: verdict = "discarded (hypotheses false)"; break;
    case ExploreClass::genuine: verdict = "genuine (violated at every precision)"; break;
    case ExploreClass::rounding_artifact: verdict = "rounding artifact (holds once the digits suffice)"; break;
    case ExploreClass::holds: verdict = "holds at every precision"; break;
    case ExploreClass::undecided: break;
  }
  fmt::print("classification: {}\n", verdict);
  if (a.interval) {
    const int d = *std::max_element(digits.begin(), digits.end());
    if (const std::optional<OversizedMatrix> m = oversized_for_interval(inst))
      throw UsageError(fmt::format("--interval: matrix {} is {} x {}; interval certification takes at most {} x {}", m->name, m->rows,
                                   m->cols, kMaxIntervalDimension, kMaxIntervalDimension));
    if (!claim.certify) {
      fmt::print("interval certification: not certified (no interval evaluation for {})\n", claim.id);
      return kExitOk;
    }
    // At the largest --digits, then at twice and four times as many while not certified (properties/certification.hpp).
    CaseCertification cert;
    try {
      cert = certify_case(claim, inst, variant, -1, d);
    } catch (const InstanceError& e) {
      throw UsageError(std::string("bad instance: ") + e.what());
    }
    for (const auto& [used, attempt] : cert.attempts) {
      fmt::print("interval evaluation at {} digits ({})\n", used, attempt.note);
      for (const CertifiedCondition& c : attempt.conditions)
        fmt::print("  {:<60} margin in [{:.6e}, {:.6e}]  {}\n", c.name, c.margin_lower, c.margin_upper, to_string(c.verdict));
    }
    fmt::print("interval certification: {}\n", to_string(cert.certification.verdict));
  }
  return kExitOk;
}


Command add_explore(CLI::App& app) {
  auto a = std::make_shared<ExploreArgs>();
  CLI::App* cmd = app.add_subcommand("explore", "Re-evaluate one instance at double and at any number of digits; classify it");
  cmd->add_option("id", a->claim, "Claim id")->required();
  cmd->add_option("--instance", a->instance, "A counterexample file (DIR/counterexamples/*.json)");
  add_seed_option(*cmd, [a](std::uint64_t s) { a->seed = s; }, "Or: the seed of a generated case");
  cmd->add_option("--case", a->case_index, "The case index (with --seed)");
  cmd->add_option("--cases", a->cases, "The case count the index belongs to (default: the claim's default cases)");
  cmd->add_option("--digits", a->digits, "Comma-separated decimal digits (default 30,50,100,200)");
  cmd->add_flag("--negative-control", a->negative_control, "Explore the broken variant (with --seed)");
  cmd->add_flag("--interval", a->interval, "Also certify the conclusion with MPFI intervals at the largest --digits: certified holds / violated / not");
  cmd->add_flag("--patient", a->patient,
                "Evaluate instances beyond the claim's limits on the work (sizes it evaluates within a minute); may take hours");
  return {cmd, [a] { return explore(*a); }};
}

}  // namespace thm::cli
