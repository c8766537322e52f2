#include "properties/explore.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>

namespace thm {

double agreeing_digits(double a, double b) {
  if (a == b) return 17;
  const double scale = std::max(std::fabs(a), std::fabs(b));
  return scale > 0 ? std::max(0.0, -std::log10(std::fabs(a - b) / scale)) : 17;
}

JudgedInstance judge_in_double(const Claim& claim, const Instance& inst, Variant variant) {
  JudgedInstance out;
  out.evaluation = claim.evaluate(inst, Precision::float64, variant);
  out.verdict = judge(out.evaluation, precision_epsilon(Precision::float64)).verdict;
  return out;
}

namespace {

ExploreRung rung_of(const std::string& name, int digits, const Evaluation& e, double eps) {
  ExploreRung rung;
  rung.name = name;
  rung.digits = digits;
  rung.outcome = judge(e, eps);
  rung.quantities = e.observations;
  for (const Series& s : e.series)  // each point of a curve is a quantity too, labelled with its abscissa
    for (std::size_t k = 0; k < s.x.size(); ++k) rung.quantities.emplace_back(fmt::format("{} ({} = {})", s.name, s.variable, s.x[k]), s.y[k]);
  rung.condition = e.discard_reason;
  if (rung.outcome.worst_condition >= 0) {
    const Condition& c = e.conditions[static_cast<std::size_t>(rung.outcome.worst_condition)];
    rung.measured = c.measured_exact();
    rung.bound = c.bound_exact();
    rung.ge = c.ge;
    rung.condition = c.name;
    rung.margin = c.margin;
  }
  return rung;
}

}  // namespace

ExploreResult explore_ladder(const Claim& claim, const Instance& inst, Variant variant, const std::vector<int>& digits,
                             const std::function<void(const ExploreRung&)>& on_rung) {
  ExploreResult out;
  const auto add = [&](ExploreRung rung) {
    if (!out.rungs.empty()) rung.agreeing_digits = agreeing_digits(out.rungs.back().margin, rung.margin);
    out.rungs.push_back(std::move(rung));
    if (on_rung) on_rung(out.rungs.back());
  };
  add(rung_of("double", 0, evaluate_case(claim, inst, Precision::float64, variant), precision_epsilon(Precision::float64)));
  for (int d : digits) add(rung_of(std::to_string(d) + " digits", d, evaluate_case_digits(claim, inst, d, variant), std::pow(10.0, 1 - d)));
  // The runner's classification from the double verdict and the verdicts at every higher precision.
  std::vector<CaseVerdict> higher;
  for (std::size_t i = 1; i < out.rungs.size(); ++i) higher.push_back(out.rungs[i].outcome.verdict);
  const CaseVerdict v64 = out.rungs.front().outcome.verdict;
  const LadderResult ladder = classify_case(v64, higher);
  if (v64 == CaseVerdict::discarded) out.classification = ExploreClass::discarded;
  else if (ladder == LadderResult::genuine) out.classification = ExploreClass::genuine;
  else if (ladder != LadderResult::undecided && v64 != CaseVerdict::holds) out.classification = ExploreClass::rounding_artifact;
  else if (ladder != LadderResult::undecided) out.classification = ExploreClass::holds;
  else out.classification = ExploreClass::undecided;
  return out;
}

std::vector<QuantityRow> quantity_table(const ExploreResult& result, std::size_t max_rows) {
  std::vector<QuantityRow> rows;
  if (result.rungs.empty()) return rows;
  for (const auto& quantity : result.rungs.front().quantities) {
    const std::string& name = quantity.first;  // not a structured binding: clang 14 cannot capture one in the lambda below
    if (rows.size() == max_rows) break;
    QuantityRow row{name, {}, std::nullopt};
    std::vector<double> present;
    for (const ExploreRung& r : result.rungs) {
      // The same quantity by name.
      const auto it = std::find_if(r.quantities.begin(), r.quantities.end(), [&](const auto& kv) { return kv.first == name; });
      if (it == r.quantities.end()) {
        row.values.push_back(std::nullopt);
        continue;
      }
      row.values.push_back(it->second);
      present.push_back(it->second);
    }
    if (present.size() >= 2) row.agreeing_digits = agreeing_digits(present[present.size() - 2], present.back());
    rows.push_back(std::move(row));
  }
  return rows;
}

std::optional<OversizedMatrix> oversized_for_interval(const Instance& inst) {
  for (const auto& [name, m] : inst.matrices)
    if (m.rows() > kMaxIntervalDimension || m.cols() > kMaxIntervalDimension) return OversizedMatrix{name, m.rows(), m.cols()};
  return std::nullopt;
}

}  // namespace thm
