#include "reports/catalogue.hpp"

#include "experiments/experiment.hpp"
#include "properties/power.hpp"
#include "reports/atomic_write.hpp"
#include "reports/escape.hpp"
#include "theorems/registry.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace thm {

namespace {

std::string backticked(const std::string& s) { return s.empty() ? std::string() : "`" + s + "`"; }

// "N cases", with the multiprecision replay and the support where they are not the defaults.
std::string budget(const Claim& c) {
  std::string b = std::to_string(c.default_cases);
  if (c.mp_cases == 0) b += " (double only)";
  else if (c.mp_cases > 0) b += " (" + std::to_string(c.mp_cases) + " at MP)";
  if (c.required_support < 1.0) b += fmt::format(", support {:g}", c.required_support);
  return b;
}

std::string control(const Claim& c) {
  std::string s = md_escape(c.negative_control);
  if (c.control_factor > 0) s += fmt::format(" (the knob x {:g})", c.control_factor);
  return s;
}

// What `thmcheck power` strengthens.
std::string knob(const Claim& c) { return md_escape(power_knob_of(c)); }

std::string claims_table() {
  std::string t =
      "| id | paper | provenance | reading | kind | cases | statement | negative control | uses | certified | knob | k* |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const Claim& c : all_claims()) {
    const std::string id = c.finding ? backticked(c.id) + " (finding)" : backticked(c.id);
    // The derivation's path from docs/ (this page's folder).
    const std::string link = c.derivation.rfind("docs/", 0) == 0 ? c.derivation.substr(5) : "../" + c.derivation;
    std::string uses;
    for (const std::string& u : c.uses) uses += (uses.empty() ? "" : ", ") + backticked(u);
    t += fmt::format("| [{}]({}) | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", id, link, c.source,
                     to_string(c.provenance), backticked(c.reading), to_string(c.kind), budget(c), md_escape(c.statement), control(c),
                     uses, c.certify ? (c.certifies_control ? "claim and control" : "claim") : "", knob(c), c.resolving_factor > 0 ? fmt::format("{:g}", c.resolving_factor) : std::string("-"));
  }
  return t;
}

std::string experiments_table() {
  std::string t = "| experiment | what it shows | default steps | real data (`--data`) |\n|---|---|---|---|\n";
  for (const Experiment& e : experiments())
    t += fmt::format("| `{}` | {} | {} | {} |\n", e.name, md_escape(std::string(e.summary)), e.default_steps, e.takes_data ? "yes" : "no");
  return t;
}

// The empirical trends' named alternatives (ClaimInfo::alternative_support) and the power of a default run against
// each, computed here from the support test (properties/power.hpp), never copied.
std::string alternatives_table() {
  std::string t = "| claim | support p0 | default cases | alternative hold rate | power of a default run |\n|---|---|---|---|---|\n";
  for (const Claim& c : all_claims()) {
    if (c.required_support >= 1.0) continue;
    const std::string id = c.finding ? backticked(c.id) + " (finding)" : backticked(c.id);
    if (c.finding) {
      t += fmt::format("| {} | {:g} | {} | a finding: expected violated | {} |\n", id, c.required_support, c.default_cases, describe_finding_power(c));
    } else if (c.alternative_support > 0) {
      const double p = alternative_power(c);
      t += fmt::format("| {} | {:g} | {} | {:g} | {:.4g}{} |\n", id, c.required_support, c.default_cases, c.alternative_support, p,
                       p < kResolvingPower ? " (below 0.99: underpowered against it)" : "");
    } else {
      t += fmt::format("| {} | {:g} | {} | none named | |\n", id, c.required_support, c.default_cases);
    }
  }
  return t;
}

// [G]'s finite-data readings and what the claims on each expect (ClaimInfo::reading, ::finding, ::decided_from): the
// table the README points to for "which reading reproduces what". The readings are those the claims name, in catalogue
// order, so the rows come from the registry too.
std::string readings_table() {
  std::vector<std::string> readings;
  for (const Claim& c : all_claims())
    if (!c.reading.empty() && std::find(readings.begin(), readings.end(), c.reading) == readings.end()) readings.push_back(c.reading);
  std::string t = "| reading | expected to hold | findings (expected violated) |\n|---|---|---|\n";
  for (const std::string& r : readings) {
    std::string holds, findings;
    for (const Claim& c : all_claims()) {
      if (c.reading != r) continue;
      std::string cell = backticked(c.id);
      if (c.decided_from == StudyBudget::full) cell += " (decided from `--budget full`)";
      std::string& column = c.finding ? findings : holds;
      column += (column.empty() ? "" : ", ") + cell;
    }
    t += fmt::format("| `{}` | {} | {} |\n", r, holds.empty() ? "-" : holds, findings.empty() ? "-" : findings);
  }
  return t;
}

}  // namespace

// The resolving power of every claim as `thmcheck power --out` measured it (docs/power.json): the strength t, the
// resolving factor k* and k(0.999) on the claim's knob, and its control's factor and power; a claim the file does not
// measure says why (a finding, no scalable condition) or that it was not run.
std::string power_table(const std::string& power) {
  using nlohmann::json;
  std::map<std::string, json> rows;
  std::string seeds, precisions;
  try {
    const json p = json::parse(power);
    const json& s = p.at("seeds");
    // Consecutive seeds as `thmcheck power --seeds A..B` takes them, else how many.
    const bool range = !s.empty() && s.back().get<std::uint64_t>() - s.front().get<std::uint64_t>() + 1 == s.size();
    seeds = range ? fmt::format("seeds {}..{}", s.front().get<std::uint64_t>(), s.back().get<std::uint64_t>()) : fmt::format("{} seeds", s.size());
    for (const json& x : p.at("precisions")) precisions += (precisions.empty() ? "" : " and ") + x.get<std::string>();
    for (const json& c : p.at("claims")) rows[c.at("id").get<std::string>()] = c;
  } catch (const json::exception& e) {
    throw ReportError(std::string("not a power table (thmcheck power --out): ") + e.what());
  }
  std::string t = fmt::format("Measured by `thmcheck power --out` on {}, {}, each claim's default cases. `t`, the strength: the largest\n"
                              "factor on the knob at which every judged instance still holds; `k*`: the smallest a default run\n"
                              "catches with probability 0.99; `k(0.999)`: with probability 0.999, what a negative control needs\n"
                              "(docs/guide/stability-and-power.md). A claim not measured here has its control's power computed in\n"
                              "its derivation (section Calibration).\n\n",
                              seeds, precisions);
  t += "| claim | knob | t | k* | k(0.999) | judged per run | control |\n|---|---|---|---|---|---|---|\n";
  for (const Claim& c : all_claims()) {
    const auto it = rows.find(c.id);
    std::string cells;
    try {
      if (it == rows.end()) {
        cells = "not measured | | | |";  // five cells: t, k*, k(0.999), judged per run, control
      } else if (const std::string status = it->second.at("status").get<std::string>(); status == "measured") {
        const json& r = it->second;
        // A factor is a number, or "inf" where no strengthening is resolved (json_number).
        const auto factor = [](const json& x) { return x.is_number() ? fmt::format("{:.4g}", x.get<double>()) : x.get<std::string>(); };
        cells = fmt::format("{} | {} | {} | {} |", factor(r.at("strength")), factor(r.at("resolving_factor")), factor(r.at("factor_0999")),
                            r.at("judged_per_run").get<int>());
        if (r.contains("control"))
          cells += fmt::format(" the knob x {:g} (caught with probability {:.4g})", r.at("control").at("factor").get<double>(),
                               r.at("control").at("power").get<double>());
        else
          cells += " own";
      } else {
        cells = (status == "finding"        ? "a finding (expected violated): " + describe_finding_power(c)
                 : status == "not scalable" ? std::string("not scalable (no condition has a constant to strengthen)")
                                            : status) +
                " | | | |";
      }
    } catch (const json::exception& e) {
      throw ReportError("power table, claim " + c.id + ": " + e.what());
    }
    t += fmt::format("| {} | {} | {} |\n", backticked(c.id), knob(c), cells);
  }
  return t;
}

nlohmann::json claims_json() {
  const auto expected_conditions = [](const Claim& c) {
    nlohmann::json out = nlohmann::json::array();
    for (const ExpectedCondition& k : c.expected_conditions) out.push_back({{"name", k.name}, {"expected", std::string(to_string(k.expected))}});
    return out;
  };
  nlohmann::json arr = nlohmann::json::array();
  for (const Claim& c : all_claims())
    arr.push_back({{"id", c.id},
                   {"source", c.source},
                   {"provenance", std::string(to_string(c.provenance))},
                   {"kind", std::string(to_string(c.kind))},
                   {"statement", c.statement},
                   {"interval_certification", static_cast<bool>(c.certify)},
                   {"interval_certification_control", static_cast<bool>(c.certify) && c.certifies_control},
                   {"tightness_probe", static_cast<bool>(c.tightness)},
                   {"finding", c.finding.has_value()},
                   // Conditions judged on their own, each with the verdict it is expected to get.
                   {"conditions", expected_conditions(c)},
                   {"negative_control", c.negative_control},
                   // The reading of [G]'s finite data the claim trains on ("" where it trains on none).
                   {"reading", c.reading},
                   {"default_cases", c.default_cases},
                   // Cases replayed at the multiprecision rungs: the first mp_cases of the budget (-1: all).
                   {"mp_cases", c.mp_cases},
                   {"ladder_checks", c.ladder_checks},
                   {"required_support", c.required_support},
                   // The smallest study budget that decides the claim (below it: inconclusive, underpowered).
                   {"decided_from", c.decided_from == StudyBudget::full ? "full" : "standard"},
                   {"uses", c.uses},
                   {"derivation", c.derivation},
                   // Resolving power (docs/verdicts.md, section 7): what a strength factor scales, the factor the
                   // control is the claim strengthened by (0: a bespoke control), the measured k* (0: not measured).
                   {"power_knob", c.power_knob},
                   {"control_factor", c.control_factor},
                   {"resolving_factor", c.resolving_factor}});
  return arr;
}

std::string catalogue_markdown(const std::string& faults_md, const std::string& power_md) {
  std::string page =
      "<!-- generated by thmcheck catalogue --faults docs/faults.json --power docs/power.json (make catalogue); do not edit -->\n"
      "# Catalogue\n\n"
      "Every claim, experiment and planted fault of this build, from their registries: `theorems/` (one file per claim, its\n"
      "`ClaimInfo`), `experiments/table.cpp` and `numerics/fault.hpp`, with the fault matrix measured in `docs/faults.json` and\n"
      "the resolving power in `docs/power.json`.\n"
      "`make test` fails when this page is not what the build prints (`cli.catalogue_current`).\n\n";
  page += fmt::format("## Claims ({})\n\n", all_claims().size());
  page += "Each id links its derivation. `uses`: the claims its derivation uses (the proof map of the reports). `certified`:\n"
          "`run` certifies its reported cases in intervals (docs/verdicts.md, section 8). `k*`: the resolving factor `thmcheck\n"
          "power` measured (the smallest factor on the knob a default run catches with probability 0.99; `-` where not measured).\n\n";
  page += claims_table();
  page += "\n## Readings\n\n";
  page += "[G]'s finite data has three readings, defined in docs/derivations/goel.finite_data_limit_attention.md (\"Readings\"):\n"
          "`one_sequence` (one sequence of n tokens), `prompts` (n prompts of T context tokens and a query each) and\n"
          "`population_attention` (n prompts, the attention output at its T -> infinity limit); `every` marks a quantity the same\n"
          "under each. Each claim that trains on data names one (`reading` in `thmcheck list --json` and in every report). Which\n"
          "claims hold and which are findings on each, from the registry (a finding's evidence is its `docs/findings/<id>.md`):\n\n";
  page += readings_table();
  page += "\n## Named alternatives\n\n";
  page += "What each empirical trend's default run must rule out: the hold rate of a weaker statement, and the probability\n"
          "that a default run (its default cases, all judged) says `violated` when that is the true rate, from the support test\n"
          "at level 1e-3 (docs/verdicts.md, \"Named alternatives\"; each derivation says why its rate).\n\n";
  page += alternatives_table();
  page += "\n## Resolving power\n\n";
  page += power_md;
  page += fmt::format("\n## Experiments ({})\n\n", experiments().size());
  page += experiments_table();
  page += "\n## Faults\n\n";
  page += faults_md;
  return page;
}

}  // namespace thm
