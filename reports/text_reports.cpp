#include "reports/text_reports.hpp"

#include "reports/environment.hpp"
#include "reports/svg_plot.hpp"
#include "reports/summary_json.hpp"

#include <cmath>
#include <cstdio>
#include <map>

namespace thm {

namespace {


std::string sci(double x) {
  if (std::isnan(x)) return "nan";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3e", x);
  return buf;
}

std::string slack(const std::optional<double>& s) { return s ? sci(*s) : std::string("-"); }


std::string counts(const ClaimRun& r) {
  return std::to_string(r.cases_run) + " run, " + std::to_string(r.cases_held) + " held, " + std::to_string(r.cases_discarded) +
         " discarded, " + std::to_string(r.cases_inconclusive) + " inconclusive, " + std::to_string(r.cases_violated) + " violated" +
         (r.cases_rounding_artifact ? ", " + std::to_string(r.cases_rounding_artifact) + " rounding artifacts" : std::string()) +
         (r.cases_resolved ? ", " + std::to_string(r.cases_resolved) + " resolved at mp50/mp100" : std::string());
}

std::string md_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else out += c;
  }
  return out;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> ladder_outcomes(const ClaimRun& r) {
  std::string genuine, artifacts, resolved, undecided;
  for (const CaseRecord& rec : r.records) {
    std::string* out = rec.ladder == LadderResult::genuine             ? &genuine
                       : rec.ladder == LadderResult::rounding_artifact ? &artifacts
                       : rec.ladder == LadderResult::resolved          ? &resolved
                       : rec.ladder == LadderResult::undecided         ? &undecided
                                                                        : nullptr;
    if (out) *out += (out->empty() ? "cases " : ", ") + std::to_string(rec.index);
  }
  std::vector<std::pair<std::string, std::string>> lines;
  if (!artifacts.empty()) lines.emplace_back("rounding artifacts (violated in double, hold at mp50 and mp100; not counted as violations)", artifacts);
  if (!resolved.empty()) lines.emplace_back("resolved (inconclusive in double, hold at mp50 and mp100)", resolved);
  if (!genuine.empty()) lines.emplace_back("genuine (violated or inconclusive in double, violated at mp50 and at mp100)", genuine);
  if (!undecided.empty()) lines.emplace_back("undecided (the rungs disagree)", undecided);
  return lines;
}

std::vector<std::string> describe_conditions(const ResolvedVerdict& v) {
  std::vector<std::string> lines;
  for (const ConditionVerdict& c : v.conditions)
    lines.push_back(c.name + ": " + std::string(to_string(c.verdict)) + " (held " + std::to_string(c.counts.held) + " of " +
                    std::to_string(c.counts.held + c.counts.violated) + " judged; expected " + std::string(to_string(c.expected)) + ")" +
                    (c.verdict == c.expected ? "" : "   <-- unexpected"));
  return lines;
}

std::string describe_certified(const ClaimRun& run) {
  if (run.certifications.empty()) return {};
  int holds = 0, violated = 0;
  for (const CaseCertification& c : run.certifications) {
    holds += c.certification.verdict == CertifiedVerdict::holds;
    violated += c.certification.verdict == CertifiedVerdict::violated;
  }
  std::string out = "certified " + std::to_string(holds + violated) + " of " + std::to_string(run.certifications.size());
  if (holds + violated) {
    out += " (";
    if (holds) out += std::to_string(holds) + " holds";
    if (holds && violated) out += ", ";
    if (violated) out += std::to_string(violated) + (violated == 1 ? " certified counterexample" : " certified counterexamples");
    out += ")";
  }
  return out;
}

int tightest_certified(const Certification& c) {
  int best = -1;
  for (std::size_t i = 0; i < c.conditions.size(); ++i)
    if (best < 0 || c.conditions[i].margin_lower < c.conditions[static_cast<std::size_t>(best)].margin_lower) best = static_cast<int>(i);
  return best;
}

std::string describe_resolved(const ResolvedVerdict& v) {
  std::string line(to_string(v.verdict));
  if (v.underpowered && v.is_expected() && v.verdict == ClaimVerdict::inconclusive)
    return line + " (underpowered at this budget, as expected: " + v.claim->underpowered_reason + "; run --budget full to decide)";
  if (v.verdict == v.expected && !v.conditions_as_expected())
    line += " (as expected, but a condition's verdict changed: see below)   <-- unexpected";
  else if (v.expected_finding() && v.is_expected())
    line += " (expected: finding: " + v.claim->finding->reason + "; " + v.claim->finding->doc + ")";
  else if (!v.is_expected())
    line += " (expected " + std::string(to_string(v.expected)) +
            (v.expected_finding() ? ": the finding of " + v.claim->finding->doc + " no longer shows" : std::string()) +
            ")   <-- unexpected";
  return line;
}

std::vector<std::size_t> leading_conditions(const std::vector<Condition>& conditions) {
  const std::size_t n = conditions.size();
  std::vector<std::size_t> rows;
  if (n <= 2 * kLeadingEdge + 1) {
    for (std::size_t i = 0; i < n; ++i) rows.push_back(i);
    return rows;
  }
  const auto rank = [](CaseVerdict v) { return v == CaseVerdict::violated ? 0 : v == CaseVerdict::inconclusive ? 1 : 2; };
  std::size_t tightest = 0;
  for (std::size_t i = 1; i < n; ++i) {
    const Condition &a = conditions[i], &b = conditions[tightest];
    if (rank(a.verdict) < rank(b.verdict) || (rank(a.verdict) == rank(b.verdict) && a.relative_slack < b.relative_slack)) tightest = i;
  }
  for (std::size_t i = 0; i < n; ++i)
    if (i < kLeadingEdge || i + kLeadingEdge >= n || i == tightest) rows.push_back(i);
  return rows;
}

std::map<std::string, int> discard_reasons(const ClaimRun& r) {
  std::map<std::string, int> reasons;
  for (const CaseRecord& rec : r.records)
    if (rec.outcome.verdict == CaseVerdict::discarded) ++reasons[rec.discard_reason];
  return reasons;
}

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  return out;
}

std::string html_escape(const std::string& s) { return xml_escape(s); }

std::string replay_command(const ClaimRun& r) {
  std::string cmd = "thmcheck run --claims " + r.claim->id + " --seed " + std::to_string(r.seed) + " --cases " +
                    std::to_string(r.cases_budget) + " --precision " + std::string(precision_name(r.precision));
  if (r.worst_case) cmd += " --case " + std::to_string(*r.worst_case);
  if (r.variant == Variant::negative_control) cmd += " --negative-control";
  return cmd;
}

std::string summary_markdown(std::uint64_t seed, Variant variant, const std::vector<ClaimRun>& runs) {
  std::string md = "# thmcheck: " + std::string(to_string(variant)) + " run, seed " + std::to_string(seed) + "\n\n";
  std::vector<ResolvedVerdict> verdicts;
  for (const auto& rows : by_claim(runs)) verdicts.push_back(resolve(rows));
  int unexpected = 0, findings = 0;
  for (const ResolvedVerdict& v : verdicts) {
    unexpected += !v.is_expected();
    findings += v.expected_finding();
  }
  md += std::to_string(verdicts.size() - unexpected) + " of " + std::to_string(verdicts.size()) +
        " claims have the expected verdict" + (findings ? " (" + std::to_string(findings) + " of them documented findings)" : "") +
        ".\n\n| claim | provenance | verdict | expected |\n|---|---|---|---|\n";
  for (const ResolvedVerdict& v : verdicts) {
    if (v.expected_finding()) continue;
    const std::string s(to_string(v.verdict));
    md += "| [" + v.claim->id + "](claims/" + v.claim->id + ".md) | " + std::string(to_string(v.claim->provenance)) + " | " +
          (v.is_expected() ? s : "**" + s + "**") + " | " + std::string(to_string(v.expected)) + " |\n";
  }
  if (findings) {
    md += "\n## Findings\n\nClaims our instances contradict, documented with their evidence; expected to be violated.\n\n"
          "| claim | verdict | finding |\n|---|---|---|\n";
    for (const ResolvedVerdict& v : verdicts)
      if (v.expected_finding())
        md += "| [" + v.claim->id + "](claims/" + v.claim->id + ".md) | " +
              (v.is_expected() ? std::string(to_string(v.verdict)) : "**" + std::string(to_string(v.verdict)) + "** (unexpected)") + " | " +
              md_escape(v.claim->finding->reason) + " ([evidence](../../" + v.claim->finding->doc + ")) |\n";
  }
  md += "\n## By precision\n\n| claim | precision | verdict | cases | min slack |\n|---|---|---|---|---|\n";
  for (const ClaimRun& r : runs)
    md += "| " + r.claim->id + " | " + std::string(precision_name(r.precision)) + " | " + std::string(to_string(r.verdict)) + " | " +
          counts(r) + " | " + slack(r.min_slack) + " |\n";
  md += "\n";
  for (const auto& [k, v] : environment_stamp()) md += "- " + k + ": " + md_escape(v) + "\n";
  return md;
}

// One test case per claim, from its resolved verdict: a failure when it is not the expected one, `skipped` with the
// finding's reason for a documented finding that is violated as expected; the precision rows in system-out.
std::string junit_xml(std::uint64_t seed, Variant variant, const std::vector<ClaimRun>& runs) {
  const auto groups = by_claim(runs);
  int failures = 0, skipped = 0;
  std::string cases;
  for (const auto& rows : groups) {
    const ResolvedVerdict v = resolve(rows);
    const Claim& c = *v.claim;
    cases += "    <testcase classname=\"" + xml_escape(c.id) + "\" name=\"" + xml_escape(c.id) + "\">\n";
    if (!v.is_expected()) {
      ++failures;
      const ClaimRun& first = *rows.front();
      cases += "      <failure message=\"" + xml_escape("verdict " + describe_resolved(v) + "; replay: " + replay_command(first)) + "\"/>\n";
    } else if (v.expected_finding()) {
      ++skipped;
      cases += "      <skipped message=\"" + xml_escape("finding (expected violated): " + c.finding->reason + "; " + c.finding->doc) + "\"/>\n";
    } else if (v.underpowered && v.verdict != ClaimVerdict::violated) {
      ++skipped;
      cases += "      <skipped message=\"" + xml_escape("underpowered at this budget: " + c.underpowered_reason) + "\"/>\n";
    }
    std::string out;
    for (const ClaimRun* r : rows) out += std::string(precision_name(r->precision)) + ": " + std::string(to_string(r->verdict)) + ", " + counts(*r) + "\n";
    cases += "      <system-out>" + xml_escape(out + c.statement) + "</system-out>\n    </testcase>\n";
  }
  const std::string totals = "tests=\"" + std::to_string(groups.size()) + "\" failures=\"" + std::to_string(failures) + "\" skipped=\"" +
                             std::to_string(skipped) + "\"";
  std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x += "<testsuites name=\"thmcheck\" " + totals + ">\n";
  x += "  <testsuite name=\"thmcheck." + std::string(to_string(variant)) + "\" " + totals + ">\n";
  x += "    <properties>\n      <property name=\"seed\" value=\"" + std::to_string(seed) + "\"/>\n";
  for (const auto& [k, v] : environment_stamp())
    x += "      <property name=\"" + xml_escape(k) + "\" value=\"" + xml_escape(v) + "\"/>\n";
  x += "    </properties>\n" + cases + "  </testsuite>\n</testsuites>\n";
  return x;
}

std::string claim_markdown(const std::vector<const ClaimRun*>& runs) {
  const Claim& c = *runs.front()->claim;
  // Top-down: the statement, the verdict and how tight the run was; then what it rests on; the details last.
  std::string md = "# " + c.id + "\n\n> " + c.statement + "\n\n";
  const ResolvedVerdict v = resolve(runs);
  md += "**Verdict: " + md_escape(describe_resolved(v)) + "**";
  if (v.cases_resolved) md += " (" + std::to_string(v.cases_resolved) + " inconclusive double cases resolved: they hold at mp50 and mp100)";
  md += "\n";
  for (const ClaimRun* r : runs)
    if (r->strength)
      md += "\nTightness factor at " + std::string(precision_name(r->precision)) + ": " + sci(*r->strength) + " (the largest factor its knob, " +
            md_escape(c.power_knob) + ", could be strengthened by with every judged case still holding)\n";
  md += "\n- paper: [" + c.source + "]\n- provenance: " + std::string(to_string(c.provenance)) + "\n- kind: " +
        std::string(to_string(c.kind)) + "\n- derivation: [" + c.derivation + "](../../../" + c.derivation + ")\n";
  md += "- negative control: " + c.negative_control + "\n";
  if (!c.supports.empty()) {
    md += "- supports:";
    for (const std::string& s : c.supports) md += " [" + s + "](" + s + ".md)";
    md += "\n";
  }
  if (c.finding) md += "\nFinding: " + md_escape(c.finding->reason) + " ([evidence](../../../" + c.finding->doc + "))\n";
  if (!v.conditions.empty()) {
    md += "\nWhat holds and what fails: each condition judged on its own by the claim's support test.\n\n"
          "| condition | verdict | held / judged | expected |\n|---|---|---|---|\n";
    for (const ConditionVerdict& k : v.conditions)
      md += "| " + md_escape(k.name) + " | " + (k.verdict == k.expected ? "" : "**") + std::string(to_string(k.verdict)) +
            (k.verdict == k.expected ? "" : "** (unexpected)") + " | " + std::to_string(k.counts.held) + " / " +
            std::to_string(k.counts.held + k.counts.violated) + " | " + std::string(to_string(k.expected)) + " |\n";
  }
  md += "\n## Verdicts by precision\n\n| precision | verdict | cases | hypotheses met | min slack |\n|---|---|---|---|---|\n";
  for (const ClaimRun* r : runs)
    md += "| " + std::string(precision_name(r->precision)) + " | " + std::string(to_string(r->verdict)) + " | " + counts(*r) + " | " +
          sci(r->hypothesis_rate()) + " | " + slack(r->min_slack) + " |\n";
  for (const ClaimRun* r : runs) {
    if (r->certifications.empty()) continue;
    md += "\n## Interval certificates (" + describe_certified(*r) + ")\n\nEach condition's margin (right side minus left side) "
          "enclosed in interval arithmetic for the exact numbers the instance defines: holds when the enclosure is positive, a "
          "certified counterexample when negative, not certified when it straddles zero. One row per certified case, with its "
          "tightest condition; every condition below.\n\n"
          "| case | certificate | digits | tightest condition | margin enclosure | method |\n|---|---|---|---|---|---|\n";
    std::string all;
    for (const CaseCertification& k : r->certifications) {
      const int t = tightest_certified(k.certification);
      const std::string verdict = std::string(to_string(k.certification.verdict));
      md += "| " + std::to_string(k.index) + " | " + verdict + " | " + std::to_string(k.digits) + " | ";
      if (t < 0) {
        md += " | | " + md_escape(k.certification.note) + " |\n";
        continue;
      }
      const CertifiedCondition& c = k.certification.conditions[static_cast<std::size_t>(t)];
      md += md_escape(c.name) + " | [" + sci(c.margin_lower) + ", " + sci(c.margin_upper) + "] | " + md_escape(k.certification.note) + " |\n";
      for (const CertifiedCondition& x : k.certification.conditions)
        all += "| " + std::to_string(k.index) + " | " + md_escape(x.name) + " | [" + sci(x.margin_lower) + ", " + sci(x.margin_upper) + "] | " +
               std::string(to_string(x.verdict)) + " |\n";
    }
    md += "\n<details><summary>Every certified condition</summary>\n\n| case | condition | margin enclosure | certificate |\n|---|---|---|---|\n" +
          all + "\n</details>\n";
  }
  for (const ClaimRun* r : runs) {
    const auto ladder = ladder_outcomes(*r);
    if (ladder.empty()) continue;
    md += "\nPrecision ladder at " + std::string(precision_name(r->precision)) + ":\n\n";
    for (const auto& [what, cases] : ladder) md += "- " + what + ": " + cases + "\n";
  }
  for (const ClaimRun* r : runs) {
    const std::map<std::string, int> reasons = discard_reasons(*r);
    if (reasons.empty()) continue;
    md += "\nDiscarded at " + std::string(precision_name(r->precision)) + " (hypothesis false; never counted as a pass):\n\n";
    for (const auto& [why, count] : reasons) md += "- " + std::to_string(count) + " x " + md_escape(why) + "\n";
  }
  for (const ClaimRun* r : runs)
    if (r->shrunk) {
      const ShrunkCase& k = *r->shrunk;
      md += "\n## Shrunk counterexample (" + std::string(precision_name(r->precision)) + ", from case " + std::to_string(k.from_case) + ")\n\n";
      md += "Minimised by structure in " + std::to_string(k.evaluations) + " evaluations" + (k.capped ? " (stopped by the cap)" : "") +
            "; at mp50 and mp100: **" + std::string(to_string(k.ladder)) + "**.\n\n";
      for (const std::string& st : k.steps) md += "- " + md_escape(st) + "\n";
      md += "\nInstance: `" + k.instance.describe() + "`\n";
    }
  for (const ClaimRun* r : runs)
    if (!r->tightness.empty()) {
      md += "\n## Tightness (search at " + std::string(precision_name(r->precision)) +
            ")\n\n| quantity | constant | derived | best found | best / derived | evaluations |\n|---|---|---|---|---|---|\n";
      for (const Tightness& t : r->tightness)
        md += "| " + md_escape(t.quantity) + " | " + md_escape(t.constant) + " | " + sci(t.derived) + " | " + sci(t.best) + " | " +
              sci(t.ratio) + " | " + std::to_string(t.evaluations) + " |\n";
    }
  for (const ClaimRun* r : runs) {
    md += "\n## Worst case at " + std::string(precision_name(r->precision)) + "\n\n";
    if (!r->worst_case) {
      md += "No case was judged.\n";
      continue;
    }
    md += "Case " + std::to_string(*r->worst_case) + "; replay with\n\n```sh\n" + replay_command(*r) + "\n```\n\n";
    md += "Instance (" + r->worst_instance->family + "): `" + r->worst_instance->describe() + "`\n\n";
    const std::vector<Condition>& all = r->worst_evaluation->conditions;
    const auto table = [&](const std::vector<std::size_t>& rows) {
      std::string t = "| condition | measured | relation | bound | margin | noise | verdict |\n|---|---|---|---|---|---|---|\n";
      for (std::size_t i : rows) {
        const Condition& cond = all[i];
        t += "| " + md_escape(cond.name) + " | " + cond.measured_exact().substr(0, 24) + " | " + cond.relation() + " | " +
             cond.bound_exact().substr(0, 24) + " | " + sci(cond.margin) + " | " + sci(cond.noise) + " | " +
             std::string(to_string(cond.verdict)) + " |\n";
      }
      return t;
    };
    const std::vector<std::size_t> lead = leading_conditions(all);
    md += table(lead);
    if (lead.size() < all.size()) {
      std::vector<std::size_t> every(all.size());
      for (std::size_t i = 0; i < every.size(); ++i) every[i] = i;
      md += "\n(the first and last " + std::to_string(kLeadingEdge) + " conditions and the tightest, of " + std::to_string(all.size()) +
            ")\n\n<details><summary>all " + std::to_string(all.size()) + " conditions</summary>\n\n" + table(every) + "\n</details>\n";
    }
    if (!r->worst_evaluation->observations.empty()) {
      md += "\n| observation | value |\n|---|---|\n";
      for (const auto& [k, v] : r->worst_evaluation->observations) md += "| " + md_escape(k) + " | " + sci(v) + " |\n";
    }
    if (!r->worst_evaluation->series.empty()) {
      md += "\n| series | against | points (x: y) |\n|---|---|---|\n";
      for (const Series& s : r->worst_evaluation->series) {
        std::string points;
        for (std::size_t k = 0; k < s.x.size(); ++k) points += (k ? ", " : "") + sci(s.x[k]) + ": " + sci(s.y[k]);
        md += "| " + md_escape(s.name) + " | " + md_escape(s.variable) + " | " + points + " |\n";
      }
    }
  }
  md += "\n";
  for (const auto& [k, v] : environment_stamp()) md += "- " + k + ": " + md_escape(v) + "\n";
  return md;
}

nlohmann::json claim_json(const std::vector<const ClaimRun*>& runs) {
  nlohmann::json j;
  j["id"] = runs.front()->claim->id;
  j["resolved"] = resolved_json(resolve(runs));
  j["runs"] = nlohmann::json::array();
  for (const ClaimRun* r : runs) {
    nlohmann::json rj = claim_run_json(*r);
    rj["replay"] = replay_command(*r);
    j["runs"].push_back(rj);
  }
  nlohmann::json env = nlohmann::json::object();
  for (const auto& [k, v] : environment_stamp()) env[k] = v;
  j["environment"] = env;
  return j;
}

}  // namespace thm
