#include "reports/json_reports.hpp"

#include "reports/describe.hpp"
#include "reports/environment.hpp"
#include "reports/json_number.hpp"

#include <cmath>

namespace thm {

namespace {

nlohmann::json number(double x) { return json_number<nlohmann::json>(x); }

nlohmann::json optional_number(const std::optional<double>& x) { return x ? number(*x) : nlohmann::json(nullptr); }

}  // namespace

nlohmann::json instance_json(const Instance& inst) {
  nlohmann::json j;
  j["family"] = inst.family;
  nlohmann::json params = nlohmann::json::object();
  for (const auto& [k, v] : inst.params) params[k] = exact_decimal(v);
  j["params"] = params;
  return j;
}

nlohmann::json evaluation_json(const Evaluation& e) {
  nlohmann::json j;
  j["hypotheses_hold"] = e.hypotheses_hold;
  if (!e.hypotheses_hold) j["discard_reason"] = e.discard_reason;
  nlohmann::json conds = nlohmann::json::array();
  for (const Condition& c : e.conditions) {
    conds.push_back({{"name", c.name},
                     {"measured", c.measured_exact()},
                     {"relation", c.relation()},
                     {"bound", c.bound_exact()},
                     {"lhs", c.lhs_exact},
                     {"rhs", c.rhs_exact},
                     {"margin", number(c.margin)},
                     {"noise", number(c.noise)},
                     {"verdict", std::string(to_string(c.verdict))},
                     {"relative_slack", number(c.relative_slack)},
                     {"strength", number(c.strength)}});
  }
  j["conditions"] = conds;
  nlohmann::json obs = nlohmann::json::array();
  for (const auto& [k, v] : e.observations) obs.push_back({{"name", k}, {"value", number(v)}});
  j["observations"] = obs;
  nlohmann::json series = nlohmann::json::array();
  for (const Series& s : e.series) {
    nlohmann::json x = nlohmann::json::array(), y = nlohmann::json::array();
    for (double v : s.x) x.push_back(number(v));
    for (double v : s.y) y.push_back(number(v));
    series.push_back({{"name", s.name}, {"variable", s.variable}, {"x", x}, {"y", y}});
  }
  j["series"] = series;
  if (!e.estimates.empty()) {
    nlohmann::json est = nlohmann::json::object();
    for (const Estimate& x : e.estimates) {
      est[x.name] = number(x.value);
      est[x.name + "_ci"] = nlohmann::json::array({number(x.lo), number(x.hi)});
      est[x.name + "_ci_level"] = number(x.level);
    }
    j["estimates"] = est;
  }
  return j;
}

nlohmann::json claim_run_json(const ClaimRun& run) {
  const Claim& c = *run.claim;
  nlohmann::json j;
  j["id"] = c.id;
  j["source"] = c.source;
  j["provenance"] = std::string(to_string(c.provenance));
  j["kind"] = std::string(to_string(c.kind));
  j["statement"] = c.statement;
  if (!c.reading.empty()) j["reading"] = c.reading;  // written only where set: the other claims' reports are unchanged
  j["negative_control"] = c.negative_control;
  j["derivation"] = c.derivation;
  j["supports"] = c.supports;
  j["precision"] = std::string(precision_name(run.precision));
  j["variant"] = std::string(to_string(run.variant));
  j["verdict"] = std::string(to_string(run.verdict));
  j["expected_verdict"] = std::string(to_string(expected_verdict(c, run.variant)));
  j["cases_run"] = run.cases_run;
  j["cases_held"] = run.cases_held;
  j["cases_discarded"] = run.cases_discarded;
  j["cases_inconclusive"] = run.cases_inconclusive;
  j["cases_violated"] = run.cases_violated;
  j["cases_rounding_artifact"] = run.cases_rounding_artifact;
  j["cases_resolved"] = run.cases_resolved;
  j["hypothesis_rate"] = number(run.hypothesis_rate());
  j["required_support"] = c.required_support;
  j["min_slack"] = optional_number(run.min_slack);
  j["min_slack_eps"] = optional_number(run.min_slack_eps);
  // Resolving power (docs/verdicts.md): what a strength factor scales, this run's strength (the largest factor
  // every judged case survives), and the claim's measured resolving factor (thmcheck power).
  j["power_knob"] = c.power_knob;
  j["strength"] = optional_number(run.strength);
  if (c.resolving_factor > 0) j["resolving_factor"] = number(c.resolving_factor);
  if (c.control_factor > 0) j["control_factor"] = number(c.control_factor);
  nlohmann::json inconclusive = nlohmann::json::array(), violated = nlohmann::json::array(), artifacts = nlohmann::json::array(),
                 genuine = nlohmann::json::array(), resolved = nlohmann::json::array();
  for (const CaseRecord& r : run.records) {
    if (r.outcome.verdict == CaseVerdict::inconclusive) inconclusive.push_back(r.index);
    if (r.outcome.verdict == CaseVerdict::violated && r.ladder != LadderResult::rounding_artifact) violated.push_back(r.index);
    if (r.ladder == LadderResult::rounding_artifact) artifacts.push_back(r.index);
    if (r.ladder == LadderResult::genuine) genuine.push_back(r.index);
    if (r.ladder == LadderResult::resolved) resolved.push_back(r.index);
  }
  j["inconclusive_cases"] = inconclusive;
  j["violated_cases"] = violated;
  // The ladder: double violations and inconclusive cases re-checked at mp50 and mp100 (Claim::ladder_checks of each).
  j["rounding_artifact_cases"] = artifacts;
  j["genuine_cases"] = genuine;
  j["resolved_cases"] = resolved;
  // Why cases were discarded (hypothesis false), with counts: a discard is never a pass, and the user sees why.
  nlohmann::json reasons = nlohmann::json::object();
  for (const auto& [why, count] : discard_reasons(run)) reasons[why] = count;
  j["discard_reasons"] = reasons;
  if (run.shrunk) {
    const ShrunkCase& k = *run.shrunk;
    j["shrunk"] = {{"from_case", k.from_case},
                   {"instance", k.instance.describe()},
                   {"steps", k.steps},
                   {"evaluations", k.evaluations},
                   {"capped", k.capped},
                   {"ladder", std::string(to_string(k.ladder))},
                   {"evaluation", evaluation_json(k.evaluation)}};
  }
  if (!run.certifications.empty()) {
    // Interval certificates (properties/certification.hpp): each condition's margin rhs - lhs enclosed, endpoints
    // rounded outward to double; the interval precision of the deciding attempt.
    nlohmann::json cases = nlohmann::json::array();
    for (const CaseCertification& k : run.certifications) {
      nlohmann::json conds = nlohmann::json::array();
      for (const CertifiedCondition& c : k.certification.conditions)
        conds.push_back({{"name", c.name},
                         {"margin_lower", number(c.margin_lower)},
                         {"margin_upper", number(c.margin_upper)},
                         {"verdict", std::string(to_string(c.verdict))}});
      cases.push_back({{"case", k.index},
                       {"verdict", std::string(to_string(k.certification.verdict))},
                       {"interval_digits", k.digits},
                       {"note", k.certification.note},
                       {"conditions", conds}});
    }
    j["certification"] = {{"attempted", run.certifications.size()}, {"certified", run.cases_certified()}, {"cases", cases}};
  }
  if (!run.tightness.empty()) {
    nlohmann::json t = nlohmann::json::array();
    for (const Tightness& x : run.tightness)
      t.push_back({{"quantity", x.quantity},
                   {"constant", x.constant},
                   {"derived", number(x.derived)},
                   {"best_found", number(x.best)},
                   {"best_over_derived", number(x.ratio)},
                   {"evaluations", x.evaluations},
                   {"instance", x.instance}});
    j["tightness"] = t;
  }
  if (run.worst_case) {
    nlohmann::json w;
    w["case"] = *run.worst_case;
    w["instance"] = instance_json(*run.worst_instance);
    w["evaluation"] = evaluation_json(*run.worst_evaluation);
    w["replay"] = replay_command(run);
    j["worst"] = w;
  } else {
    j["worst"] = nullptr;
  }
  return j;
}

nlohmann::json resolved_json(const ResolvedVerdict& v) {
  nlohmann::json j;
  j["id"] = v.claim->id;
  j["verdict"] = std::string(to_string(v.verdict));
  j["expected_verdict"] = std::string(to_string(v.expected));
  j["as_expected"] = v.is_expected();
  if (v.underpowered) j["underpowered"] = v.underpowered_why;
  j["cases_run"] = v.counts.run;
  j["cases_held"] = v.counts.held;
  j["cases_discarded"] = v.counts.discarded;
  j["cases_inconclusive"] = v.counts.inconclusive;
  j["cases_violated"] = v.counts.violated;
  j["cases_resolved"] = v.cases_resolved;
  j["cases_rounding_artifact"] = v.cases_rounding_artifact;
  if (v.claim->required_support < 1.0)
    j["support_p_value"] = number(support_p_value(v.counts.held, v.counts.held + v.counts.violated, v.claim->required_support));
  if (v.expected_finding()) j["finding"] = {{"reason", v.claim->finding->reason}, {"doc", v.claim->finding->doc}};
  if (!v.conditions.empty()) {
    nlohmann::json conditions = nlohmann::json::array();
    for (const ConditionVerdict& c : v.conditions)
      conditions.push_back({{"name", c.name},
                            {"verdict", std::string(to_string(c.verdict))},
                            {"expected", std::string(to_string(c.expected))},
                            {"as_expected", c.verdict == c.expected},
                            {"cases_held", c.counts.held},
                            {"cases_violated", c.counts.violated},
                            {"cases_inconclusive", c.counts.inconclusive},
                            {"cases_discarded", c.counts.discarded}});
    j["conditions"] = conditions;
  }
  return j;
}

nlohmann::json summary_json(const RunResult& result) {
  nlohmann::json j;
  j["seed"] = result.seed;
  j["variant"] = std::string(to_string(result.variant));
  // One resolved verdict per claim (the exit status follows these), documented findings apart.
  nlohmann::json verdicts = nlohmann::json::array(), findings = nlohmann::json::array();
  for (const ClaimResult& c : result.claims) {
    verdicts.push_back(resolved_json(c.verdict));
    if (c.verdict.expected_finding()) findings.push_back(c.claim().id);
  }
  j["all_as_expected"] = result.all_as_expected();
  j["verdicts"] = verdicts;
  j["findings"] = findings;
  nlohmann::json claims = nlohmann::json::array();
  for (const ClaimResult& c : result.claims)
    for (const ClaimRun& r : c.rows) claims.push_back(claim_run_json(r));
  j["claims"] = claims;
  return j;
}

nlohmann::json claim_json(const ClaimResult& result) {
  nlohmann::json j;
  j["id"] = result.claim().id;
  j["resolved"] = resolved_json(result.verdict);
  j["runs"] = nlohmann::json::array();
  for (const ClaimRun& r : result.rows) {
    nlohmann::json rj = claim_run_json(r);
    rj["replay"] = replay_command(r);
    j["runs"].push_back(rj);
  }
  nlohmann::json env = nlohmann::json::object();
  for (const auto& [k, v] : environment_stamp()) env[k] = v;
  j["environment"] = env;
  return j;
}

}  // namespace thm
