// `thmcheck explore`: one instance at double and at any number of decimal digits, with a verdict
// per precision, how many digits of the worst margin agree between consecutive precisions, and a
// classification: genuine, rounding artifact, holds, or undecided.
#include "cli/commands.hpp"
#include "properties/runner.hpp"
#include "reports/counterexample.hpp"
#include "theorems/registry.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace thm::cli {

namespace {

constexpr Eigen::Index kMaxIntervalDimension = 256;

std::vector<int> parse_digits(const std::string& csv) {
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

// At most 24 characters of a decimal string, keeping its exponent.
std::string shorten(const std::string& s) {
  if (s.size() <= 24) return s;
  const auto e = s.find_first_of("eE");
  if (e == std::string::npos) return s.substr(0, 24);
  return s.substr(0, std::min<std::size_t>(e, 24 - (s.size() - e))) + s.substr(e);
}

// Significant decimal digits on which a and b agree.
double agreeing_digits(double a, double b) {
  if (a == b) return 17;
  const double scale = std::max(std::fabs(a), std::fabs(b));
  return scale > 0 ? std::max(0.0, -std::log10(std::fabs(a - b) / scale)) : 17;
}

}  // namespace

int explore(const ExploreArgs& a) {
  const Claim& claim = select_one_claim(a.claim, "explore");
  const std::vector<int> digits = parse_digits(a.digits);
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
  // double evaluation: a malformed instance is refused with one line before anything is printed.
  try {
    claim.schema.check(inst, *std::max_element(digits.begin(), digits.end()), a.patient);
  } catch (const InstanceError& e) {
    throw UsageError("bad instance (" + origin + "): " + e.what());
  }
  Evaluation in_double;
  try {
    in_double = evaluate_case(claim, inst, Precision::float64, variant);
  } catch (const InstanceError& e) {
    throw UsageError("bad instance (" + origin + "): " + e.what());
  }
  fmt::print("{} ({}) on {}\n", claim.id, to_string(variant), origin);
  fmt::print("{:<10} {:<12} {:>24} {:>24} {:>12} {:>10}  {}\n", "precision", "verdict", "measured", "bound", "margin", "digits", "worst condition");
  struct Row {
    std::string name;
    CaseOutcome outcome;
    double margin = 0;
    std::vector<std::pair<std::string, double>> quantities;  // the evaluation's observations
  };
  std::vector<Row> rows;
  auto show = [&](const std::string& name, const Evaluation& e, double eps) {
    Row row{name, judge(e, eps), 0, e.observations};
    for (const Series& s : e.series)  // each point of a curve is a quantity too, labelled with its abscissa
      for (std::size_t k = 0; k < s.x.size(); ++k) row.quantities.emplace_back(fmt::format("{} ({} = {})", s.name, s.variable, s.x[k]), s.y[k]);
    std::string lhs = "-", rhs = "-", cond = e.discard_reason;
    if (row.outcome.worst_condition >= 0) {
      const Condition& c = e.conditions[row.outcome.worst_condition];
      lhs = shorten(c.measured_exact());
      rhs = (c.ge ? ">= " : "<= ") + shorten(c.bound_exact());
      cond = c.name;
      row.margin = c.margin;
    }
    const std::string agree = rows.empty() ? "" : fmt::format("{:.1f}", agreeing_digits(rows.back().margin, row.margin));
    fmt::print("{:<10} {:<12} {:>24} {:>24} {:>12.4e} {:>10}  {}\n", name, to_string(row.outcome.verdict), lhs, rhs, row.margin, agree, cond);
    rows.push_back(row);
  };
  try {
    show("double", in_double, precision_epsilon(Precision::float64));
    for (int d : digits) show(std::to_string(d) + " digits", evaluate_case_digits(claim, inst, d, variant), std::pow(10.0, 1 - d));
  } catch (const InstanceError& e) {
    throw UsageError("bad instance (" + origin + "): " + e.what());
  }
  // The quantities the claim depends on, per precision, and the digits on which the last two agree.
  if (!rows.front().quantities.empty()) {
    fmt::print("\n{:<48}", "quantity");
    for (const Row& r : rows) fmt::print(" {:>20}", r.name);
    fmt::print(" {:>8}\n", "digits");
    const std::size_t shown = std::min<std::size_t>(rows.front().quantities.size(), 40);
    for (std::size_t q = 0; q < shown; ++q) {
      const std::string& qname = rows.front().quantities[q].first;
      fmt::print("{:<48}", qname.size() > 48 ? qname.substr(0, 45) + "..." : qname);
      std::vector<double> values;
      for (const Row& r : rows) {
        // The same observation by name (an evaluation that discards has none).
        const auto it = std::find_if(r.quantities.begin(), r.quantities.end(), [&](const auto& kv) { return kv.first == qname; });
        if (it == r.quantities.end()) {
          fmt::print(" {:>20}", "-");
          continue;
        }
        fmt::print(" {:>20.12e}", it->second);
        values.push_back(it->second);
      }
      fmt::print(" {:>8}\n", values.size() >= 2 ? fmt::format("{:.1f}", agreeing_digits(values[values.size() - 2], values.back())) : "");
    }
    if (rows.front().quantities.size() > shown) fmt::print("({} more in the claim's JSON report)\n", rows.front().quantities.size() - shown);
    fmt::print("\n");
  }
  // The runner's classification (properties/runner.hpp) from the double verdict and the verdicts at every higher precision.
  std::vector<CaseVerdict> higher;
  for (std::size_t i = 1; i < rows.size(); ++i) higher.push_back(rows[i].outcome.verdict);
  const CaseVerdict v64 = rows.front().outcome.verdict;
  const LadderResult ladder = classify_case(v64, higher);
  std::string verdict = "undecided";
  if (v64 == CaseVerdict::discarded) verdict = "discarded (hypotheses false)";
  else if (ladder == LadderResult::genuine) verdict = "genuine (violated at every precision)";
  else if (ladder != LadderResult::undecided && v64 != CaseVerdict::holds) verdict = "rounding artifact (holds once the digits suffice)";
  else if (ladder != LadderResult::undecided) verdict = "holds at every precision";
  fmt::print("classification: {}\n", verdict);
  if (a.interval) {
    const int d = *std::max_element(digits.begin(), digits.end());
    // Interval SVDs cost O(n^3) multiprecision operations per enclosure: refuse what would not finish.
    for (const auto& [name, m] : inst.matrices)
      if (m.rows() > kMaxIntervalDimension || m.cols() > kMaxIntervalDimension)
        throw UsageError(fmt::format("--interval: matrix {} is {} x {}; interval certification takes at most {} x {}", name, m.rows(),
                                     m.cols(), kMaxIntervalDimension, kMaxIntervalDimension));
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

}  // namespace thm::cli
