// The Claim abstraction: a quantitative statement from a paper (or a lemma we derived to back one),
// its hypotheses and conclusion as code, and a generator of instances. A claim's check returns the
// measured value beside the claimed bound (the PEPit way), never just a boolean.
#pragma once

#include "numerics/choice_source.hpp"
#include "numerics/instance.hpp"
#include "numerics/instance_schema.hpp"
#include "numerics/scalar.hpp"

#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace thm {

// docs/spec/claims.md, "Sources": where the statement and its constants come from.
// reconstruction: the paper's claim, run on an algorithm or model that is ours (the paper's full text is not available:
// the regulariser, preconditioner, spectral start, step rule and finite-data loss of [G] are our reading).
enum class Provenance { paper, paper_shape, reconstruction, derived, empirical };
enum class ClaimKind { inequality, identity, trajectory, rate, trend };
// The claim as stated, or its negative control: the same check with the bound broken on purpose.
enum class Variant { claim, negative_control };
// Per instance: holds / violated / discarded (hypotheses false) / inconclusive (within noise).
enum class CaseVerdict { holds, violated, discarded, inconclusive };
// Per claim and precision.
enum class ClaimVerdict { holds, violated, vacuous, inconclusive };

std::string_view to_string(Provenance p);
std::string_view to_string(ClaimKind k);
std::string_view to_string(CaseVerdict v);
std::string_view to_string(ClaimVerdict v);
std::string_view to_string(Variant v);

// One inequality `lhs <= rhs` evaluated at the working precision. `margin = rhs - lhs` and its
// comparison with `noise` (a bound on the rounding error of margin) happen at that precision; the
// doubles are for display and may overflow where the working precision does not.
struct Condition {
  std::string name;
  double lhs = 0, rhs = 0, margin = 0, noise = 0;
  std::string lhs_exact, rhs_exact;  // every digit of the working precision
  // How the condition reads: `measured <= bound`, or for make_ge `measured >= bound` (then lhs is the bound and rhs
  // the measured side). Reports show measured, relation, bound in the direction of the name.
  bool ge = false;
  const std::string& measured_exact() const { return ge ? rhs_exact : lhs_exact; }
  const std::string& bound_exact() const { return ge ? lhs_exact : rhs_exact; }
  const char* relation() const { return ge ? ">=" : "<="; }
  CaseVerdict verdict = CaseVerdict::inconclusive;
  double relative_slack = 0;  // margin / max(|rhs|, 1e-300), computed at the working precision
  // The claim's strength on this condition (docs/verdicts.md, "Resolving power"): the largest factor k by which the
  // claim's knob (ClaimInfo::power_knob) could be strengthened with this condition still true on this instance. By
  // default the bound scaled: bound / measured for `measured <= bound`, measured / bound for `measured >= bound`, when
  // both are positive (+inf when only the bound is); a claim whose knob is a rate or an exponent sets its own
  // (with_strength). NaN: the condition has no scalable constant (a sign, an identity of exact arithmetic) and keeps
  // its verdict at every factor.
  double strength = std::numeric_limits<double>::quiet_NaN();
  // The relative uncertainty of `strength` from the rounding noise: noise / |bound|.
  double strength_noise = 0;
};

// holds if margin > noise, violated if margin < -noise, inconclusive otherwise. A NaN margin or noise (a side that
// overflowed, a softmax that lost its max-subtraction, 0/0) is a violation: a number the conclusion could not produce
// is a failure of the claim's computation, never doubt (docs/verdicts.md, section 1); the precision ladder re-checks it,
// and a NaN of double's range that holds at mp50 and mp100 is a rounding artifact.
template <class T>
CaseVerdict judge_margin(const T& margin, const T& noise) {
  if (margin != margin || noise != noise) return CaseVerdict::violated;
  if (margin > noise) return CaseVerdict::holds;
  if (margin < -noise) return CaseVerdict::violated;
  return CaseVerdict::inconclusive;
}

template <class T>
Condition make_le(std::string name, const T& lhs, const T& rhs, const T& noise) {
  using std::abs;
  Condition c;
  c.name = std::move(name);
  const T margin = rhs - lhs;
  c.lhs = to_double(lhs);
  c.rhs = to_double(rhs);
  c.margin = to_double(margin);
  c.noise = to_double(noise);
  c.lhs_exact = exact_decimal(lhs);
  c.rhs_exact = exact_decimal(rhs);
  c.verdict = judge_margin(margin, noise);
  const T scale = abs(rhs) > T(1e-300) ? T(abs(rhs)) : T(1e-300);
  c.relative_slack = to_double(T(margin / scale));
  c.strength_noise = to_double(T(abs(noise) / scale));
  if (lhs > T(0) && rhs > T(0))
    c.strength = to_double(T(rhs / lhs));
  else if (!(lhs > T(0)) && rhs > T(0))
    c.strength = std::numeric_limits<double>::infinity();
  return c;
}
// `lhs >= rhs`, stored as `rhs <= lhs`: the default strength is then lhs / rhs (the measured side over the bound).
template <class T>
Condition make_ge(std::string name, const T& lhs, const T& rhs, const T& noise) {
  Condition c = make_le(std::move(name), rhs, lhs, noise);
  c.ge = true;
  return c;
}
inline constexpr double kNotScaled = std::numeric_limits<double>::quiet_NaN();
// A condition judged alone (Evaluation::judged_alone) that does not apply to this case (outside its regime): counted
// as discarded for that condition, never as inconclusive, so its verdict is judged on the cases it applies to.
inline Condition not_applicable(std::string name) {
  Condition c;
  c.name = std::move(name);
  c.verdict = CaseVerdict::discarded;
  return c;
}
// The condition with its strength set by the claim (its knob is not the bound's scale: a rate, an exponent);
// NaN marks it as not scalable.
inline Condition with_strength(Condition c, double strength, double strength_noise = 0) {
  c.strength = strength;
  c.strength_noise = strength_noise;
  return c;
}

// A measured curve: y against the variable `variable` (e.g. the loss against the iteration t, kappa against beta).
// The reports plot each variable's series together.
struct Series {
  std::string name;      // e.g. "loss L_t"
  std::string variable;  // e.g. "t"
  std::vector<double> x, y;
};

// A fitted quantity with its confidence interval at `level` (e.g. the exponent of the excess risk in n); the JSON
// reports write it as `name` and `name_ci`.
struct Estimate {
  std::string name;
  double value = 0, lo = 0, hi = 0, level = 0;
};

// A claim's conclusion on one instance.
struct Evaluation {
  bool hypotheses_hold = true;
  std::string discard_reason;            // which hypothesis failed
  std::vector<Condition> conditions;     // all must hold
  // Conditions recorded for ClaimInfo::expected_conditions only, not part of the case's verdict (e.g. one protocol's
  // outcome where the claim's condition is over all protocols).
  std::vector<Condition> judged_alone;
  std::vector<std::pair<std::string, double>> observations;  // other measured quantities, in order
  std::vector<Series> series;                                // measured curves, in order of first point
  std::vector<Estimate> estimates;                           // fitted quantities with their intervals, in order

  // Appends (x, y) to the series `name` against `variable`, creating it at its first point.
  void add_point(const std::string& name, const std::string& variable, double x, double y) {
    for (Series& s : series)
      if (s.name == name && s.variable == variable) {
        s.x.push_back(x);
        s.y.push_back(y);
        return;
      }
    series.push_back({name, variable, {x}, {y}});
  }

  static Evaluation discarded(std::string why) {
    Evaluation e;
    e.hypotheses_hold = false;
    e.discard_reason = std::move(why);
    return e;
  }
};

// The verdict of one evaluation: the worst of its conditions.
struct CaseOutcome {
  CaseVerdict verdict = CaseVerdict::discarded;
  double min_slack = 0;          // relative slack of the worst condition
  double min_slack_eps = 0;      // ... in units of the working precision's epsilon
  int worst_condition = -1;      // index into Evaluation::conditions
  // The smallest strength of its conditions (NaN when none is scalable): the largest factor the claim's knob could
  // be strengthened by with this case still holding.
  double strength = std::numeric_limits<double>::quiet_NaN();
};
CaseOutcome judge(const Evaluation& e, double epsilon);

// The evaluation of the claim strengthened by `factor` on its knob (ClaimInfo::power_knob): every scalable condition
// judged by its strength (holds above factor (1 + strength_noise), violated below factor (1 - strength_noise)),
// named "[knob x factor] ..."; conditions without a strength keep their verdicts. A negative control with a
// control_factor is the claim's evaluation strengthened by it.
Evaluation strengthened(Evaluation e, double factor);

// How tight a claim's constant is: the derived constant beside the best empirical one that a targeted
// search (hill climbing over the region) found, on one instance.
struct Tightness {
  std::string quantity;   // what was searched, e.g. "min <grad, Delta> / dist^2 over dist <= rho"
  std::string constant;   // the claim's constant it is compared with, e.g. "alpha"
  double derived = 0;     // the constant for this instance
  double best = 0;        // the best value found
  double ratio = 0;       // best / derived: >= 1 for a valid lower bound, <= 1 for a valid upper bound
  int evaluations = 0;
  std::string instance;   // Instance::describe() of the instance searched
};

// Interval certification (explore --interval): each condition's margin rhs - lhs enclosed with MPFI from
// a posteriori enclosures (numerics/interval.hpp), for the real numbers the instance defines.
enum class CertifiedVerdict { holds, violated, not_certified, discarded };
std::string_view to_string(CertifiedVerdict v);
struct CertifiedCondition {
  std::string name;
  double margin_lower = 0, margin_upper = 0;  // outward-rounded to double
  CertifiedVerdict verdict = CertifiedVerdict::not_certified;  // holds: lower > 0; violated: upper < 0
};
struct Certification {
  CertifiedVerdict verdict = CertifiedVerdict::not_certified;  // violated if any is, holds if all hold
  std::vector<CertifiedCondition> conditions;
  std::string note;  // the method, or why nothing was certified
};

// A finding: our instances contradict the claim as we encoded it, and we believe the check. The claim is then
// expected to come out `violated` (like a strict xfail: a finding that starts to hold is unexpected).
// A share measured at a large budget: `held` of `cases` judged cases held. A finding (and a condition pinned as
// violated) records the share its statement held on, so that a run can tell whether its own budget could show the
// finding at all (properties/verdicts.hpp, `support_test_power`; docs/verdicts.md, "Underpowered budgets").
struct MeasuredShare {
  int held = 0, cases = 0;
};

struct Finding {
  std::string reason;  // one line
  std::string doc;     // docs/findings/<id>.md: the evidence, the reproduce command, the instance in the corpus
  // The claim's share of holding cases as the finding's document measured it (none: the finding does not depend on
  // the number of cases, e.g. it is decided by a study budget).
  std::optional<MeasuredShare> measured = std::nullopt;
};

// A condition judged on its own (ClaimInfo::expected_conditions): a Condition::name of the claim's evaluation (in
// Evaluation::conditions or Evaluation::judged_alone), judged by the claim's support test over the cases, that must
// come out as `expected` (holds or violated). A finding says so exactly what holds and what fails, a protocol-
// dependent claim under which protocol; a broken implementation that turns a condition around changes a verdict.
struct ExpectedCondition {
  std::string name;
  ClaimVerdict expected = ClaimVerdict::holds;
  // For a condition pinned as violated: its share of holding cases as measured (the power of a run to show it).
  std::optional<MeasuredShare> measured = std::nullopt;
};

// The verdict of each expected condition on one evaluation, in order: the condition of that name (discarded when the
// hypotheses fail or the condition is not_applicable; inconclusive when the evaluation has no such condition, e.g. a
// numerical failure replaced them).
std::vector<CaseVerdict> expected_condition_verdicts(const std::vector<ExpectedCondition>& want, const Evaluation& e);

// A claim's metadata, as data: what a claim file declares in its `info()` (theorems/register_claim.hpp).
struct ClaimInfo {
  std::string id;          // stable, e.g. "qin.residual.weyl_interlacing"; the claim file is theorems/qin/residual/weyl_interlacing.cpp
  std::string source;      // "Q" or "G" (docs/spec/claims.md, "Sources"), or "demo"
  Provenance provenance = Provenance::derived;
  ClaimKind kind = ClaimKind::inequality;
  std::string statement;          // one line, as in docs/spec/claims.md
  std::string negative_control;   // what the broken variant changes
  // The reading of [G]'s finite data a claim trains on (docs/derivations/goel.finite_data_limit_attention.md, "Readings"):
  // "one_sequence" (one sequence of n tokens, query masked from its own key), "prompts" (n prompts of T context tokens),
  // "population_attention" (n prompts, the attention output at its T -> infinity limit), or "every" (the quantity is the
  // same under each); empty for a claim that trains on no data.
  std::string reading;
  // The claims whose derivation this one's uses (theorem -> lemmas): the proof map of the reports.
  std::vector<std::string> uses;
  // Fraction of judged (non-discarded) cases that must hold: 1 for lemmas and theorems; below 1
  // only for empirical trends, which are judged statistically (docs/verdicts.md).
  double required_support = 1.0;
  // Set when the claim is a documented finding (its expected verdict is then `violated`); the registry
  // fills in `doc` as docs/findings/<id>.md.
  std::optional<Finding> finding;
  // Conditions judged on their own, each with its expected verdict (the claim variant only): a finding's, what holds
  // and what fails; a claim's, how its outcome depends on a protocol.
  std::vector<ExpectedCondition> expected_conditions;
  // Below this fraction of generated instances meeting the hypotheses, the claim is vacuous. A claim judged on fewer
  // than half its instances sets a lower value and says why in its derivation ("Hypotheses").
  double min_hypothesis_rate = 0.5;
  int default_cases = 100;
  // Cases re-evaluated at the multiprecision rungs: the first `mp_cases` of the budget (-1: all).
  // Long trajectories at 50-100 digits cost 500x double; their MP rung replays a prefix.
  int mp_cases = -1;
  // Double violations re-checked at mp50 and mp100 by the ladder (properties/runner.hpp). Zero for
  // the long training trends, where one re-check costs about a minute.
  int ladder_checks = 10;
  // What a strength factor k scales (thmcheck power; docs/verdicts.md, "Resolving power"): for claims judged case by
  // case, the knob of every condition's `strength` (by default "bound", the bound of each condition scaled by k); for
  // empirical trends (required_support < 1), the tolerated failure share (1 - p0) divided by k.
  std::string power_knob = "bound";
  // > 0: the negative control is the claim strengthened by this factor on its knob (a statement that could hold, were
  // the claim that much stronger), chosen from the measured resolving power; 0: the claim's own broken variant
  // (evaluate with Variant::negative_control), a hypothesis dropped or a term removed.
  double control_factor = 0;
  // Whether Claim::certify certifies the negative control as well as the claim (false: the claim only, the derivation's
  // "Certificate" section says why; the control's cases are then reported not certified).
  bool certifies_control = true;
  // The resolving factor k* measured by `thmcheck power` (the smallest factor a default run catches with probability
  // at least 0.99), recorded for the reports; 0 where not measured. The derivation names the command.
  double resolving_factor = 0;
  // The smallest study budget whose grids can decide the claim's statement (numerics/choice_source.hpp). At a smaller
  // one a run reports `inconclusive` (underpowered, why in underpowered_reason) and expects it, instead of a `holds`
  // that rests on a grid too short to decide; a violation there is still reported, and unexpected (docs/verdicts.md,
  // "Underpowered budgets").
  StudyBudget decided_from = StudyBudget::standard;
  std::string underpowered_reason;
  // An empirical trend's named alternative (docs/verdicts.md, "Named alternatives"): the hold rate of the weaker
  // statement its default run must rule out, below required_support (0: none named). Its power at the default cases
  // is computed, never typed (alternative_power, properties/power.hpp); the derivation says why this rate.
  double alternative_support = 0;
};

// The support a variant of an empirical claim is judged at: the claim's, or for a negative control with a
// control_factor, the failure share divided by it (1 - (1 - p0) / k).
inline double required_support(const ClaimInfo& c, Variant v) {
  if (v == Variant::claim || c.control_factor <= 0 || c.required_support >= 1.0) return c.required_support;
  return 1.0 - (1.0 - c.required_support) / c.control_factor;
}

// A registered claim: its metadata, what the registry derives from it, and its evaluations.
struct Claim : ClaimInfo {
  std::string derivation;  // docs/derivations/<id>.md
  // The claims whose derivation uses this one (lemma -> theorems), the inverse of `uses`, in catalogue order.
  std::vector<std::string> supports;

  std::function<Instance(ChoiceSource&)> generate;
  // What evaluate reads, checked before any arithmetic on an instance from outside (explore, replays).
  InstanceSchema schema;
  // Optional tightness probe (the one-point conditions): runs in double from the run's seed.
  std::function<std::vector<Tightness>(std::uint64_t seed)> tightness;
  std::function<Evaluation(const Instance&, Precision, Variant)> evaluate;
  // The same evaluation at `digits` decimal digits (runtime-precision MPFR; explore --digits).
  std::function<Evaluation(const Instance&, int digits, Variant)> evaluate_digits;
  // Optional: the conclusion in interval arithmetic at `digits` (claims without it are "not certified").
  std::function<Certification(const Instance&, int digits, Variant)> certify;
};

}  // namespace thm
