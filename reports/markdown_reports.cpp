#include "reports/markdown_reports.hpp"

#include "reports/describe.hpp"
#include "reports/environment.hpp"
#include "reports/escape.hpp"

#include <cmath>
#include <cstdio>
#include <map>

namespace thm {

namespace {

std::string slack(const std::optional<double>& s) { return s ? scientific(*s) : std::string("-"); }

}  // namespace

std::string summary_markdown(const RunResult& result) {
  std::string md = "# thmcheck: " + std::string(to_string(result.variant)) + " run, seed " + std::to_string(result.seed) + "\n\n";
  std::vector<const ResolvedVerdict*> verdicts;
  for (const ClaimResult& c : result.claims) verdicts.push_back(&c.verdict);
  int findings = 0;
  for (const ResolvedVerdict* v : verdicts) findings += v->expected_finding();
  const RunSummary summary = summarize_run(result);
  md += summary.headline + "\n\n";
  if (!summary.unexpected.empty()) {
    md += "**Not the expected verdict:**\n\n";
    for (const auto& [id, what] : summary.unexpected) md += "- [" + id + "](claims/" + id + ".md): " + md_escape(what) + "\n";
    md += "\n";
  }
  if (!summary.undecided.empty()) {
    md += "Undecided (inconclusive or vacuous), and why:\n\n";
    for (const auto& [id, what] : summary.undecided) md += "- [" + id + "](claims/" + id + ".md): " + md_escape(what) + "\n";
    md += "\n";
  }
  md += "| claim | provenance | verdict | expected |\n|---|---|---|---|\n";
  for (const ResolvedVerdict* p : verdicts) {
    const ResolvedVerdict& v = *p;
    if (v.expected_finding()) continue;
    const std::string s(to_string(v.verdict));
    md += "| [" + v.claim->id + "](claims/" + v.claim->id + ".md) | " + std::string(to_string(v.claim->provenance)) + " | " +
          (v.is_expected() ? s : "**" + s + "**") + " | " + std::string(to_string(v.expected)) + " |\n";
  }
  if (findings) {
    md += "\n## Findings\n\nClaims our instances contradict, documented with their evidence; expected to be violated.\n\n"
          "| claim | verdict | finding |\n|---|---|---|\n";
    for (const ResolvedVerdict* p : verdicts)
      if (const ResolvedVerdict& v = *p; v.expected_finding())
        md += "| [" + v.claim->id + "](claims/" + v.claim->id + ".md) | " +
              (v.is_expected() ? std::string(to_string(v.verdict)) : "**" + std::string(to_string(v.verdict)) + "** (unexpected)") + " | " +
              md_escape(v.claim->finding->reason) + " ([evidence](../../" + v.claim->finding->doc + ")) |\n";
  }
  md += "\n## By precision\n\n| claim | precision | verdict | cases | min slack |\n|---|---|---|---|---|\n";
  for (const ClaimResult& c : result.claims)
    for (const ClaimRun& r : c.rows)
      md += "| " + r.claim->id + " | " + std::string(precision_name(r.precision)) + " | " + std::string(to_string(r.verdict)) + " | " +
            describe_counts(r) + " | " + slack(r.min_slack) + " |\n";
  md += "\n";
  for (const auto& [k, v] : environment_stamp()) md += "- " + k + ": " + md_escape(v) + "\n";
  return md;
}

std::string claim_markdown(const ClaimResult& result) {
  const Claim& c = result.claim();
  const std::vector<const ClaimRun*> runs = result.row_pointers();
  // Top-down: the statement, the verdict and how tight the run was; then what it rests on; the details last.
  std::string md = "# " + c.id + "\n\n> " + c.statement + "\n\n";
  const ResolvedVerdict& v = result.verdict;
  md += "**Verdict: " + md_escape(describe_resolved(v)) + "**";
  if (v.cases_resolved) md += " (" + std::to_string(v.cases_resolved) + " inconclusive double cases resolved: they hold at mp50 and mp100)";
  md += "\n";
  for (const ClaimRun* r : runs)
    if (r->strength)
      md += "\nTightness factor at " + std::string(precision_name(r->precision)) + ": " + scientific(*r->strength) + " (the largest factor its knob, " +
            md_escape(c.power_knob) + ", could be strengthened by with every judged case still holding)\n";
  md += "\n- paper: [" + c.source + "]\n- provenance: " + std::string(to_string(c.provenance)) + "\n- kind: " +
        std::string(to_string(c.kind)) + "\n- derivation: [" + c.derivation + "](../../../" + c.derivation + ")\n";
  md += "- negative control: " + c.negative_control + "\n";
  if (!c.reading.empty()) md += "- reading of the finite data: `" + c.reading + "`\n";
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
    md += "| " + std::string(precision_name(r->precision)) + " | " + std::string(to_string(r->verdict)) + " | " + describe_counts(*r) + " | " +
          scientific(r->hypothesis_rate()) + " | " + slack(r->min_slack) + " |\n";
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
      md += md_escape(c.name) + " | [" + scientific(c.margin_lower) + ", " + scientific(c.margin_upper) + "] | " + md_escape(k.certification.note) + " |\n";
      for (const CertifiedCondition& x : k.certification.conditions)
        all += "| " + std::to_string(k.index) + " | " + md_escape(x.name) + " | [" + scientific(x.margin_lower) + ", " + scientific(x.margin_upper) + "] | " +
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
        md += "| " + md_escape(t.quantity) + " | " + md_escape(t.constant) + " | " + scientific(t.derived) + " | " + scientific(t.best) + " | " +
              scientific(t.ratio) + " | " + std::to_string(t.evaluations) + " |\n";
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
             cond.bound_exact().substr(0, 24) + " | " + scientific(cond.margin) + " | " + scientific(cond.noise) + " | " +
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
      for (const auto& [k, v] : r->worst_evaluation->observations) md += "| " + md_escape(k) + " | " + scientific(v) + " |\n";
    }
    if (!r->worst_evaluation->series.empty()) {
      md += "\n| series | against | points (x: y) |\n|---|---|---|\n";
      for (const Series& s : r->worst_evaluation->series) {
        std::string points;
        for (std::size_t k = 0; k < s.x.size(); ++k) points += (k ? ", " : "") + scientific(s.x[k]) + ": " + scientific(s.y[k]);
        md += "| " + md_escape(s.name) + " | " + md_escape(s.variable) + " | " + points + " |\n";
      }
    }
  }
  md += "\n";
  for (const auto& [k, v] : environment_stamp()) md += "- " + k + ": " + md_escape(v) + "\n";
  return md;
}

}  // namespace thm
