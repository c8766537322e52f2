#include "theorems/claim.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

namespace thm {

std::string_view to_string(Provenance p) {
  switch (p) {
    case Provenance::paper: return "paper";
    case Provenance::paper_shape: return "paper-shape";
    case Provenance::reconstruction: return "reconstruction";
    case Provenance::derived: return "derived";
    case Provenance::empirical: return "empirical";
  }
  return "?";
}

std::string_view to_string(ClaimKind k) {
  switch (k) {
    case ClaimKind::inequality: return "inequality";
    case ClaimKind::identity: return "identity";
    case ClaimKind::trajectory: return "trajectory";
    case ClaimKind::rate: return "rate";
    case ClaimKind::trend: return "trend";
  }
  return "?";
}

std::string_view to_string(CaseVerdict v) {
  switch (v) {
    case CaseVerdict::holds: return "holds";
    case CaseVerdict::violated: return "violated";
    case CaseVerdict::discarded: return "discarded";
    case CaseVerdict::inconclusive: return "inconclusive";
  }
  return "?";
}

std::string_view to_string(ClaimVerdict v) {
  switch (v) {
    case ClaimVerdict::holds: return "holds";
    case ClaimVerdict::violated: return "violated";
    case ClaimVerdict::vacuous: return "vacuous";
    case ClaimVerdict::inconclusive: return "inconclusive";
  }
  return "?";
}

std::string_view to_string(Variant v) {
  return v == Variant::claim ? "claim" : "negative-control";
}

std::string_view to_string(CertifiedVerdict v) {
  switch (v) {
    case CertifiedVerdict::holds: return "certified holds";
    case CertifiedVerdict::violated: return "certified violated";
    case CertifiedVerdict::not_certified: return "not certified";
    case CertifiedVerdict::discarded: return "hypotheses certified false (discarded)";
  }
  return "?";
}

CaseOutcome judge(const Evaluation& e, double epsilon) {
  CaseOutcome out;
  if (!e.hypotheses_hold) return out;
  out.verdict = CaseVerdict::holds;
  out.min_slack = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < e.conditions.size(); ++i) {
    const Condition& c = e.conditions[i];
    const CaseVerdict v = c.verdict;
    const double s = c.relative_slack;
    if (v == CaseVerdict::violated)
      out.verdict = CaseVerdict::violated;
    else if (v == CaseVerdict::inconclusive && out.verdict == CaseVerdict::holds)
      out.verdict = CaseVerdict::inconclusive;
    if (!std::isnan(c.strength) && !(c.strength >= out.strength)) out.strength = c.strength;
    // A slack that could not be computed (an overflowed bound) never counts as the minimum.
    if (out.worst_condition < 0 || s < out.min_slack || (std::isnan(out.min_slack) && !std::isnan(s))) {
      out.min_slack = s;
      out.worst_condition = static_cast<int>(i);
    }
  }
  if (e.conditions.empty()) out.verdict = CaseVerdict::inconclusive;  // nothing was checked
  out.min_slack_eps = out.min_slack / epsilon;
  return out;
}

std::vector<CaseVerdict> expected_condition_verdicts(const std::vector<ExpectedCondition>& want, const Evaluation& e) {
  std::vector<CaseVerdict> out;
  for (const ExpectedCondition& w : want) {
    CaseVerdict v = e.hypotheses_hold ? CaseVerdict::inconclusive : CaseVerdict::discarded;
    if (e.hypotheses_hold)
      for (const auto* list : {&e.conditions, &e.judged_alone})
        for (const Condition& c : *list)
          if (c.name == w.name) v = c.verdict;
    out.push_back(v);
  }
  return out;
}

namespace {
std::string factor_text(double k) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", k);
  return buf;
}
}  // namespace

Evaluation strengthened(Evaluation e, double factor) {
  for (Condition& c : e.conditions) {
    if (std::isnan(c.strength)) continue;
    // Margin and noise in units of the knob, judged by the one rule every condition is judged by.
    c.margin = c.strength - factor;
    c.noise = factor * std::abs(c.strength_noise);
    c.verdict = judge_margin(c.margin, c.noise);
    c.relative_slack = c.margin / factor;
    c.name = "[strengthened x" + factor_text(factor) + "] " + c.name;
    c.strength /= factor;
  }
  return e;
}

}  // namespace thm
