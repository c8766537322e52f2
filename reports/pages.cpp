#include "reports/pages.hpp"

#include "reports/describe.hpp"
#include "reports/environment.hpp"
#include "reports/figures.hpp"
#include "reports/svg_plot.hpp"

#include <map>

namespace thm {

namespace {

std::string str(ClaimVerdict v) { return std::string(to_string(v)); }
std::string num(double x) { return scientific(x); }
std::string num(const std::optional<double>& x) { return x ? scientific(*x) : std::string("-"); }
Cell cell(std::string s, std::string mark = {}) { return {{plain(std::move(s))}, std::move(mark)}; }
Cell cell(Text t) { return {std::move(t), {}}; }
// A verdict cell, bold when it is not the expected one.
Cell verdict_cell(ClaimVerdict v, bool expected) { return {{expected ? plain(str(v)) : strong(str(v))}, str(v)}; }

// What the worst case's conditions say: measured, relation, bound (in the direction of the name), margin and noise.
Table condition_table(const std::vector<Condition>& all, const std::vector<std::size_t>& rows) {
  Table t{{"condition", "measured", "relation", "bound", "margin", "noise", "verdict"}, {}};
  for (std::size_t i : rows) {
    const Condition& c = all[i];
    const std::string v(to_string(c.verdict));
    t.rows.push_back({cell(c.name), cell(c.measured_exact().substr(0, 26)), cell(c.relation()), cell(c.bound_exact().substr(0, 26)),
                      cell(num(c.margin)), cell(num(c.noise)), cell(v, v)});
  }
  return t;
}

// An evaluation's series as figures, one per variable.
std::vector<Figure> series_figures(const Evaluation& e, const std::string& title) {
  std::vector<Figure> figures;
  for (std::string& svg : series_plots(e.series, title)) figures.push_back({std::move(svg), {}});
  return figures;
}

// ... and their points, folded (the figures' data; Markdown's only view of them).
Details series_data(const Evaluation& e) {
  Table data{{"series", "against", "points (x: y)"}, {}};
  for (const Series& s : e.series) {
    std::string points;
    for (std::size_t k = 0; k < s.x.size(); ++k) points += (k ? ", " : "") + num(s.x[k]) + ": " + num(s.y[k]);
    data.rows.push_back({cell(s.name), cell(s.variable), cell(points)});
  }
  return {"the series' points", {Block{std::move(data)}}};
}

void add_certificates(Page& page, const ClaimRun& r) {
  page.add(Heading{3, "Interval certificates: " + describe_certified(r)});
  page.add(Paragraph{{plain("Each condition's margin (right side minus left side) enclosed in interval arithmetic for the exact numbers "
                            "the instance defines: holds when positive, a certified counterexample when negative, not certified when it "
                            "straddles zero. One row per certified case, with its tightest condition; every condition below.")}});
  Table lead{{"case", "certificate", "digits", "tightest condition", "margin enclosure", "method"}, {}};
  Table every{{"case", "condition", "margin enclosure", "certificate"}, {}};
  for (const CaseCertification& k : r.certifications) {
    const int t = tightest_certified(k.certification);
    std::vector<Cell> row{cell(std::to_string(k.index)), cell(std::string(to_string(k.certification.verdict))), cell(std::to_string(k.digits))};
    if (t < 0) {
      row.insert(row.end(), {cell(""), cell(""), cell(k.certification.note)});
    } else {
      const CertifiedCondition& c = k.certification.conditions[static_cast<std::size_t>(t)];
      row.insert(row.end(), {cell(c.name), cell("[" + num(c.margin_lower) + ", " + num(c.margin_upper) + "]"), cell(k.certification.note)});
      for (const CertifiedCondition& x : k.certification.conditions)
        every.rows.push_back({cell(std::to_string(k.index)), cell(x.name), cell("[" + num(x.margin_lower) + ", " + num(x.margin_upper) + "]"),
                              cell(std::string(to_string(x.verdict)))});
    }
    lead.rows.push_back(std::move(row));
  }
  page.add(std::move(lead));
  page.add(Details{"Every certified condition", {Block{std::move(every)}}});
}

// One precision's section of a claim page.
void add_run(Page& page, const Claim& c, const ClaimRun& r, const ClaimRun* figured) {
  const std::string p(precision_name(r.precision));
  page.add(Heading{2, p});
  std::vector<double> slacks;
  for (const CaseRecord& rec : r.records)
    if (rec.outcome.verdict != CaseVerdict::discarded) slacks.push_back(rec.outcome.min_slack);
  PlotSpec hs;
  hs.title = "relative slack of the judged cases (" + p + ")";
  hs.x_label = "(rhs - lhs) / |rhs| of the worst condition";
  hs.height = 220;
  page.add(Figure{histogram(hs, slacks), {}});
  List notes;
  for (const auto& [what, cases] : ladder_outcomes(r)) notes.items.push_back({plain(what + ": " + cases)});
  for (const auto& [why, count] : discard_reasons(r))
    notes.items.push_back({plain("discarded (hypothesis false; never a pass), " + std::to_string(count) + " x: " + why)});
  if (!notes.items.empty()) page.add(std::move(notes));
  if (r.shrunk) {
    const ShrunkCase& k = *r.shrunk;
    page.add(Heading{3, "Shrunk counterexample (from case " + std::to_string(k.from_case) + ")"});
    page.add(Paragraph{{plain("Minimised by structure in " + std::to_string(k.evaluations) + " evaluations" + (k.capped ? " (stopped by the cap)" : "") +
                              "; at mp50 and mp100: "),
                        strong(std::string(to_string(k.ladder))), plain(".")}});
    List steps;
    for (const std::string& st : k.steps) steps.items.push_back({plain(st)});
    page.add(std::move(steps));
    page.add(Paragraph{{plain("Instance: "), code(k.instance.describe())}});
  }
  if (!r.certifications.empty()) add_certificates(page, r);
  if (!r.tightness.empty()) {
    page.add(Heading{3, "Tightness search"});
    page.add(Paragraph{{plain("The derived constant beside the best empirical constant that hill climbing over the region found (a ratio "
                              "near 1 means the constant is tight).")}});
    Table t{{"quantity", "constant", "derived", "best found", "best / derived", "evaluations"}, {}};
    for (const Tightness& x : r.tightness)
      t.rows.push_back({cell(x.quantity), cell(x.constant), cell(num(x.derived)), cell(num(x.best)), cell(num(x.ratio)),
                        cell(std::to_string(x.evaluations))});
    page.add(std::move(t));
  }
  if (!r.worst_case) {
    page.add(Paragraph{{plain("No case was judged.")}});
    return;
  }
  page.add(Heading{3, "Worst case (case " + std::to_string(*r.worst_case) + ")"});
  page.add(Paragraph{{plain("Replay with")}});
  page.add(CodeBlock{replay_command(r)});
  page.add(Paragraph{{plain("Instance (" + r.worst_instance->family + "): "), code(r.worst_instance->describe())}});
  const std::vector<Condition>& all = r.worst_evaluation->conditions;
  const std::vector<std::size_t> lead = leading_conditions(all);
  page.add(condition_table(all, lead));
  if (lead.size() < all.size()) {
    std::vector<std::size_t> every(all.size());
    for (std::size_t i = 0; i < every.size(); ++i) every[i] = i;
    page.add(Paragraph{{plain("The first and last " + std::to_string(kLeadingEdge) + " conditions and the tightest, of " +
                              std::to_string(all.size()) + ".")}});
    page.add(Details{"all " + std::to_string(all.size()) + " conditions", {Block{condition_table(all, every)}}});
  }
  if (&r != figured)  // the leading run's figures open the page
    for (Figure& f : series_figures(*r.worst_evaluation, c.id + ": worst case (" + p + ")")) page.add(std::move(f));
  if (!r.worst_evaluation->series.empty()) page.add(series_data(*r.worst_evaluation));
  if (!r.worst_evaluation->observations.empty()) {
    Table t{{"observation", "value"}, {}};
    for (const auto& [k, v] : r.worst_evaluation->observations) t.rows.push_back({cell(k), cell(num(v))});
    page.add(std::move(t));
  }
}

}  // namespace

Page summary_page(const RunResult& result) {
  Page page{"thmcheck report", "claims/", "../../", {}, environment_stamp()};
  page.add(Heading{1, "thmcheck: " + std::string(to_string(result.variant)) + " run, seed " + std::to_string(result.seed)});
  const RunSummary summary = summarize_run(result);
  page.add(Paragraph{{strong(summary.headline)}});
  const auto listed = [](const std::vector<std::pair<std::string, std::string>>& items) {
    List l;
    for (const auto& [id, what] : items) l.items.push_back({claim_link(id), plain(": " + what)});
    return l;
  };
  if (!summary.unexpected.empty()) {
    page.add(Paragraph{{strong("Not the expected verdict:")}, "violated"});
    page.add(listed(summary.unexpected));
  }
  if (!summary.undecided.empty()) {
    page.add(Paragraph{{plain("Undecided (inconclusive or vacuous), and why:")}});
    page.add(listed(summary.undecided));
  }
  Table claims{{"claim", "paper", "provenance", "verdict", "expected"}, {}};
  Table findings{{"claim", "verdict", "expected", "finding"}, {}};
  std::vector<const Claim*> nodes;
  std::map<std::string, ClaimVerdict> verdict;
  for (const ClaimResult& g : result.claims) {
    const ResolvedVerdict& v = g.verdict;
    nodes.push_back(v.claim);
    verdict[v.claim->id] = v.verdict;
    const Cell expected = v.is_expected() ? cell(describe_expected(v)) : cell(Text{plain(str(v.expected) + " "), strong("(unexpected)")});
    if (v.expected_finding())
      findings.rows.push_back({cell({claim_link(v.claim->id)}), verdict_cell(v.verdict, v.is_expected()), expected,
                               cell({plain(v.claim->finding->reason + " ("), file_link(v.claim->finding->doc), plain(")")})});
    else
      claims.rows.push_back({cell({claim_link(v.claim->id)}), cell(v.claim->source), cell(std::string(to_string(v.claim->provenance))),
                             verdict_cell(v.verdict, v.is_expected()), expected});
  }
  page.add(std::move(claims));
  if (!findings.rows.empty()) {
    page.add(Heading{2, "Findings"});
    page.add(Paragraph{{plain("Claims our instances contradict, with the evidence in the repository; they are expected to be violated, "
                              "and one that starts to hold fails the run.")}});
    page.add(std::move(findings));
  }
  page.add(Figure{proof_map(nodes, verdict),
                  "Proof map: an edge runs from a lemma to the claim whose derivation uses it; each node has the claim's resolved "
                  "verdict, so a failing theorem points at the failing step."});
  page.add(Heading{2, "By precision"});
  Table rows{{"claim", "precision", "verdict", "cases", "min slack"}, {}};
  for (const ClaimResult& g : result.claims)
    for (const ClaimRun& r : g.rows)
      rows.rows.push_back({cell(r.claim->id), cell(std::string(precision_name(r.precision))), cell(str(r.verdict), str(r.verdict)),
                           cell(describe_counts(r)), cell(num(r.min_slack))});
  page.add(std::move(rows));
  page.add(Paragraph{{plain("Also in this folder: "), code("summary.json"), plain(", "), code("summary.md"), plain(", "), code("index.html"),
                      plain(", "), code("junit.xml"), plain(", and per claim "), code("claims/<id>.json"), plain(".")}});
  return page;
}

Page claim_page(const ClaimResult& result) {
  const Claim& c = result.claim();
  const ResolvedVerdict& v = result.verdict;
  const std::vector<const ClaimRun*> runs = result.row_pointers();
  Page page{c.id, "", "../../../", {}, environment_stamp()};
  page.add(Heading{1, c.id});
  page.add(Paragraph{{strong(c.statement)}});
  page.add(Paragraph{{strong("Verdict: " + describe_resolved(v)),
                      plain(v.cases_resolved ? " (" + std::to_string(v.cases_resolved) +
                                                   " inconclusive double cases resolved: they hold at mp50 and mp100)"
                                             : std::string())},
                     str(v.verdict)});
  if (c.finding) page.add(Paragraph{{plain("Finding: " + c.finding->reason + " (evidence: "), file_link(c.finding->doc), plain(")")}});
  const ClaimRun* figured = nullptr;  // the run whose worst case leads the page with its figures
  for (const ClaimRun* r : runs)
    if (!figured && r->worst_case && !r->worst_evaluation->series.empty()) figured = r;
  if (figured)
    for (Figure& f : series_figures(*figured->worst_evaluation, c.id + ": worst case (" + std::string(precision_name(figured->precision)) + ")"))
      page.add(std::move(f));
  for (const ClaimRun* r : runs)
    if (r->strength)
      page.add(Paragraph{{plain("Strength at " + std::string(precision_name(r->precision)) + ": "), strong(num(*r->strength)),
                          plain(" (the largest factor its knob, " + c.power_knob + ", could be strengthened by with every judged case still holding).")}});
  List about{{{plain("paper: [" + c.source + "]")},
              {plain("provenance: " + std::string(to_string(c.provenance)))},
              {plain("kind: " + std::string(to_string(c.kind)))},
              {plain("derivation: "), file_link(c.derivation)},
              {plain("negative control: " + c.negative_control)}}};
  if (!c.reading.empty()) about.items.push_back({plain("reading of the finite data: "), code(c.reading)});
  if (!c.supports.empty()) {
    Text supports{plain("supports:")};
    for (const std::string& s : c.supports) supports.insert(supports.end(), {plain(" "), claim_link(s)});
    about.items.push_back(std::move(supports));
  }
  page.add(std::move(about));
  if (!v.conditions.empty()) {
    page.add(Paragraph{{plain("What holds and what fails: each condition judged on its own by the claim's support test.")}});
    Table t{{"condition", "verdict", "held / judged", "expected"}, {}};
    for (const ConditionVerdict& k : v.conditions)
      t.rows.push_back({cell(k.name), verdict_cell(k.verdict, k.verdict == k.expected),
                        cell(std::to_string(k.counts.held) + " / " + std::to_string(k.counts.held + k.counts.violated)), cell(str(k.expected))});
    page.add(std::move(t));
  }
  Table by{{"precision", "verdict", "run", "held", "discarded", "inconclusive", "violated", "hypotheses met", "min slack", "strength"}, {}};
  for (const ClaimRun* r : runs)
    by.rows.push_back({cell(std::string(precision_name(r->precision))), cell(str(r->verdict), str(r->verdict)), cell(std::to_string(r->cases_run)),
                       cell(std::to_string(r->cases_held)), cell(std::to_string(r->cases_discarded)), cell(std::to_string(r->cases_inconclusive)),
                       cell(std::to_string(r->cases_violated)), cell(num(r->hypothesis_rate())), cell(num(r->min_slack)), cell(num(r->strength))});
  page.add(std::move(by));
  page.add(Paragraph{{plain("Resolving power ("), code("thmcheck power"), plain(", "), file_link("docs/verdicts.md"),
                      plain("): a strength factor k scales the claim's knob, " + c.power_knob +
                            ", towards a stronger statement. The strength of a run is the largest k its judged cases all survive" +
                            (c.resolving_factor > 0 ? "; the resolving factor k*, the smallest k a default run catches with probability at "
                                                      "least 0.99, is " + num(c.resolving_factor)
                                                    : std::string()) +
                            (c.control_factor > 0 ? "; the negative control is the claim at k = " + num(c.control_factor) : std::string()) + ".")}});
  for (const ClaimRun* r : runs) add_run(page, c, *r, figured);
  return page;
}

Page experiment_page(const std::string& title, const std::string& intro, std::vector<Figure> figures) {
  Page page{title, "", "", {}, environment_stamp()};
  page.add(Heading{1, title});
  page.add(Paragraph{{plain(intro)}});
  for (Figure& f : figures) page.add(std::move(f));
  return page;
}

}  // namespace thm
