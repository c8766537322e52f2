#include "reports/html_reports.hpp"

#include "reports/describe.hpp"
#include "reports/environment.hpp"
#include "reports/escape.hpp"
#include "reports/svg_plot.hpp"
#include "theorems/registry.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

namespace thm {

namespace {

const char* kStyle =
    "body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}"
    "table{border-collapse:collapse;margin:1em 0;display:block;max-width:100%;overflow-x:auto}"
    "td{overflow-wrap:anywhere}td,th{border:1px solid #ccc;padding:3px 8px;font-size:13px}"
    ".holds{background:#d8f3d8}.violated{background:#f8d0d0}.vacuous{background:#eee}.inconclusive{background:#fff1c2}"
    "code,pre{background:#f4f4f4;padding:2px 4px}.stamp{color:#666;font-size:12px}";

std::string page(const std::string& title, const std::string& body) {
  std::string s = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + html_escape(title) + "</title><style>" +
                  kStyle + "</style></head><body>\n" + body + "<p class=\"stamp\">";
  for (const auto& [k, v] : environment_stamp()) s += html_escape(k) + ": " + html_escape(v) + " &middot; ";
  return s + "</p>\n</body></html>\n";
}

std::string verdict_cell(ClaimVerdict v) {
  const std::string s(to_string(v));
  return "<td class=\"" + s + "\">" + s + "</td>";
}

const char* fill(ClaimVerdict v) {
  switch (v) {
    case ClaimVerdict::holds: return "#d8f3d8";
    case ClaimVerdict::violated: return "#f8d0d0";
    case ClaimVerdict::inconclusive: return "#fff1c2";
    default: return "#eee";
  }
}

// Proof map: claims in layers (a lemma sits left of every theorem it supports), edges lemma -> theorem. Rows line up
// across layers, so an edge never crosses a node: to the next layer it runs straight through the gap; further, it
// turns into the gap column after its lemma, runs along the gap between two rows (above its theorem's row) through
// the layers between, and turns down into the gap column before its theorem. The drawing scales down to the page.
std::string proof_map(const std::vector<const Claim*>& claims, const std::map<std::string, ClaimVerdict>& verdict) {
  std::map<std::string, int> layer;
  for (const Claim* c : claims) layer[c->id] = 0;
  for (std::size_t pass = 0; pass < claims.size(); ++pass)
    for (const Claim* c : claims)
      for (const std::string& t : c->supports)
        if (layer.count(t)) layer[t] = std::max(layer[t], layer[c->id] + 1);
  std::map<int, std::vector<const Claim*>> by_layer;
  for (const Claim* c : claims) by_layer[layer[c->id]].push_back(c);
  const double W = 300, H = 30, gapx = 60, gapy = 14;
  std::map<std::string, std::pair<double, double>> pos;
  std::size_t rows = 0;
  for (const auto& [l, cs] : by_layer) {
    for (std::size_t i = 0; i < cs.size(); ++i) pos[cs[i]->id] = {10 + l * (W + gapx), 10 + i * (H + gapy)};
    rows = std::max(rows, cs.size());
  }
  const double width = 20 + by_layer.size() * (W + gapx), height = 20 + rows * (H + gapy);
  std::string svg = "<svg class=\"proof-map\" viewBox=\"0 0 " + std::to_string(int(width)) + " " + std::to_string(int(height)) +
                    "\" width=\"100%\" style=\"max-width:" + std::to_string(int(width)) + "px\" font-family=\"sans-serif\" font-size=\"11\">\n";
  const auto point = [](double x, double y) { return std::to_string(x) + "," + std::to_string(y) + " "; };
  for (const Claim* c : claims)
    for (const std::string& t : c->supports)
      if (pos.count(t)) {
        const auto [x0, y0] = pos[c->id];
        const auto [x1, y1] = pos[t];
        std::string pts = point(x0 + W, y0 + H / 2);
        if (layer[t] > layer[c->id] + 1) {
          const double out = x0 + W + gapx / 2, in = x1 - gapx / 2, lane = y1 - gapy / 2;
          pts += point(out, y0 + H / 2) + point(out, lane) + point(in, lane) + point(in, y1 + H / 2);
        }
        pts += point(x1, y1 + H / 2);
        svg += "<polyline points=\"" + pts + "\" fill=\"none\" stroke=\"#888\"/>\n";
      }
  for (const Claim* c : claims) {
    const auto [x, y] = pos[c->id];
    const auto it = verdict.find(c->id);
    const ClaimVerdict v = it == verdict.end() ? ClaimVerdict::vacuous : it->second;
    svg += "<a href=\"claims/" + c->id + ".html\"><rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" +
           std::to_string(W) + "\" height=\"" + std::to_string(H) + "\" rx=\"4\" fill=\"" + fill(v) + "\" stroke=\"#444\"/>";
    svg += "<text x=\"" + std::to_string(x + 6) + "\" y=\"" + std::to_string(y + 19) + "\">" + html_escape(c->id) + " (" +
           std::string(to_string(v)) + ")</text></a>\n";
  }
  return svg + "</svg>\n";
}

}  // namespace

std::vector<std::string> series_plots(const std::vector<Series>& series, const std::string& title) {
  std::vector<std::string> variables;
  for (const Series& s : series)
    if (std::find(variables.begin(), variables.end(), s.variable) == variables.end()) variables.push_back(s.variable);
  std::vector<std::string> plots;
  for (const std::string& var : variables) {
    std::vector<PlotSeries> ps;
    bool positive = true;
    double lo = INFINITY, hi = 0;
    for (const Series& s : series) {
      if (s.variable != var) continue;
      ps.push_back({s.name, s.x, s.y, var != "t"});
      for (double y : s.y) {
        positive = positive && y > 0;
        lo = std::min(lo, y);
        hi = std::max(hi, y);
      }
    }
    PlotSpec spec;
    spec.title = title + " against " + var;
    spec.x_label = var;
    spec.log_y = positive && (var == "t" || hi > 100 * lo);  // trajectories on a log axis
    spec.width = 760;
    plots.push_back(line_plot(spec, ps));
  }
  return plots;
}

std::string index_html(const RunResult& result) {
  std::string b = "<h1>thmcheck: " + std::string(to_string(result.variant)) + " run, seed " + std::to_string(result.seed) + "</h1>\n";
  std::vector<const Claim*> claims;
  std::map<std::string, ClaimVerdict> verdict;
  std::string rows, findings;
  for (const ClaimResult& g : result.claims) {
    const ResolvedVerdict& v = g.verdict;
    claims.push_back(v.claim);
    verdict[v.claim->id] = v.verdict;
    std::string by_precision;
    for (const ClaimRun& r : g.rows)
      by_precision += (by_precision.empty() ? "" : "<br>") + std::string(precision_name(r.precision)) + ": " +
                      std::string(to_string(r.verdict)) + " (" + std::to_string(r.cases_held) + " held, " +
                      std::to_string(r.cases_inconclusive) + " inconclusive, " + std::to_string(r.cases_violated) + " violated of " +
                      std::to_string(r.cases_run) + (r.min_slack ? ", min slack " + scientific(*r.min_slack) : std::string()) + ")";
    const std::string row = "<tr><td><a href=\"claims/" + v.claim->id + ".html\">" + html_escape(v.claim->id) + "</a></td><td>" +
                            v.claim->source + "</td><td>" + std::string(to_string(v.claim->provenance)) + "</td>" + verdict_cell(v.verdict) +
                            "<td>" + std::string(to_string(v.expected)) + (v.is_expected() ? "" : " <b>(unexpected)</b>") + "</td><td>" +
                            by_precision + "</td>";
    if (v.expected_finding())
      findings += row + "<td>" + html_escape(v.claim->finding->reason) + "<br><code>" + html_escape(v.claim->finding->doc) + "</code></td></tr>\n";
    else
      rows += row + "</tr>\n";
  }
  // What a reader needs first (reports/describe.hpp, summarize_run), above the table.
  const RunSummary summary = summarize_run(result);
  b += "<p><b>" + html_escape(summary.headline) + "</b></p>\n";
  const auto listed = [](const std::vector<std::pair<std::string, std::string>>& items) {
    std::string ul = "<ul>\n";
    for (const auto& [id, what] : items)
      ul += "<li><a href=\"claims/" + id + ".html\">" + html_escape(id) + "</a>: " + html_escape(what) + "</li>\n";
    return ul + "</ul>\n";
  };
  if (!summary.unexpected.empty()) b += "<p class=\"violated\"><b>Not the expected verdict:</b></p>\n" + listed(summary.unexpected);
  if (!summary.undecided.empty()) b += "<p>Undecided (inconclusive or vacuous), and why:</p>\n" + listed(summary.undecided);
  const std::string head = "<tr><th>claim</th><th>paper</th><th>provenance</th><th>verdict</th><th>expected</th><th>by precision</th>";
  b += "<table>" + head + "</tr>\n" + rows + "</table>\n";
  if (!findings.empty())
    b += "<h2>Findings</h2>\n<p>Claims our instances contradict, with the evidence in the repository; they are expected to be "
         "violated, and one that starts to hold fails the run.</p>\n<table>" + head + "<th>finding</th></tr>\n" + findings + "</table>\n";
  b += "<h2>Proof map</h2>\n<p>An edge runs from a lemma to the claim whose derivation uses it; each node has the claim's resolved "
       "verdict, so a failing theorem points at the failing step.</p>\n";
  b += proof_map(claims, verdict);
  b += "<p>Also: <a href=\"summary.json\">summary.json</a>, <a href=\"summary.md\">summary.md</a>, "
       "<a href=\"junit.xml\">junit.xml</a>.</p>\n";
  return page("thmcheck report", b);
}

std::string claim_html(const ClaimResult& result) {
  const Claim& c = result.claim();
  const std::vector<const ClaimRun*> runs = result.row_pointers();
  // Top-down: the statement, the verdict, the figure of the first worst case (measured beside the bound) and the
  // tightness; then what the claim rests on; the per-precision details last.
  std::string b = "<h1>" + html_escape(c.id) + "</h1>\n<p><b>" + html_escape(c.statement) + "</b></p>\n";
  const ResolvedVerdict& v = result.verdict;
  b += "<p class=\"" + std::string(to_string(v.verdict)) + "\"><b>Verdict: " + html_escape(describe_resolved(v)) + "</b>" +
       (v.cases_resolved ? " (" + std::to_string(v.cases_resolved) + " inconclusive double cases hold at mp50 and mp100)" : std::string()) +
       "</p>\n";
  if (c.finding)
    b += "<p>Finding: " + html_escape(c.finding->reason) + " (evidence: <code>" + html_escape(c.finding->doc) + "</code>)</p>\n";
  const ClaimRun* figured = nullptr;  // the run whose worst case leads the page with its figures
  for (const ClaimRun* r : runs)
    if (!figured && r->worst_case && !r->worst_evaluation->series.empty()) figured = r;
  if (figured)
    for (const std::string& plot : series_plots(figured->worst_evaluation->series,
                                                c.id + ": worst case (" + std::string(precision_name(figured->precision)) + ")"))
      b += plot;
  for (const ClaimRun* r : runs)
    if (r->strength)
      b += "<p>Tightness factor at " + std::string(precision_name(r->precision)) + ": <b>" + scientific(*r->strength) +
           "</b> (the largest factor its knob could be strengthened by with every judged case still holding).</p>\n";
  b += "<ul><li>paper: [" + c.source + "]</li><li>provenance: " + std::string(to_string(c.provenance)) + "</li><li>kind: " +
       std::string(to_string(c.kind)) + "</li><li>derivation: <code>" + html_escape(c.derivation) +
       "</code></li><li>negative control: " + html_escape(c.negative_control) + "</li>";
  if (!c.reading.empty()) b += "<li>reading of the finite data: <code>" + html_escape(c.reading) + "</code></li>";
  if (!c.supports.empty()) {
    b += "<li>supports:";
    for (const std::string& s : c.supports) b += " <a href=\"" + s + ".html\">" + html_escape(s) + "</a>";
    b += "</li>";
  }
  b += "</ul>\n";
  if (!v.conditions.empty()) {
    b += "<p>What holds and what fails: each condition judged on its own by the claim's support test.</p>\n"
         "<table><tr><th>condition</th><th>verdict</th><th>held / judged</th><th>expected</th></tr>\n";
    for (const ConditionVerdict& k : v.conditions)
      b += "<tr><td>" + html_escape(k.name) + "</td>" + verdict_cell(k.verdict) + "<td>" + std::to_string(k.counts.held) + " / " +
           std::to_string(k.counts.held + k.counts.violated) + "</td><td>" + std::string(to_string(k.expected)) + "</td></tr>\n";
    b += "</table>\n";
  }
  b += "<table><tr><th>precision</th><th>verdict</th><th>run</th><th>held</th><th>discarded</th>"
       "<th>inconclusive</th><th>violated</th><th>hypotheses met</th><th>min slack</th><th>tightness factor</th></tr>\n";
  for (const ClaimRun* r : runs)
    b += "<tr><td>" + std::string(precision_name(r->precision)) + "</td>" + verdict_cell(r->verdict) + "<td>" + std::to_string(r->cases_run) + "</td><td>" +
         std::to_string(r->cases_held) + "</td><td>" + std::to_string(r->cases_discarded) + "</td><td>" +
         std::to_string(r->cases_inconclusive) + "</td><td>" + std::to_string(r->cases_violated) + "</td><td>" +
         scientific(r->hypothesis_rate()) + "</td><td>" + (r->min_slack ? scientific(*r->min_slack) : "-") + "</td><td>" +
         (r->strength ? scientific(*r->strength) : "-") + "</td></tr>\n";
  b += "</table>\n";
  b += "<p>Resolving power (<code>thmcheck power</code>, docs/verdicts.md): a strength factor k scales the claim's knob, <i>" +
       html_escape(c.power_knob) + "</i>, towards a stronger statement. The tightness factor of a run is the largest k its judged "
       "cases all survive" +
       (c.resolving_factor > 0 ? "; the resolving factor k*, the smallest k a default run catches with probability at least 0.99, is " +
                                     scientific(c.resolving_factor)
                               : std::string()) +
       (c.control_factor > 0 ? "; the negative control is the claim at k = " + scientific(c.control_factor) : std::string()) + ".</p>\n";
  for (const ClaimRun* r : runs) {
    const std::string p(precision_name(r->precision));
    std::vector<double> slacks;
    for (const CaseRecord& rec : r->records)
      if (rec.outcome.verdict != CaseVerdict::discarded) slacks.push_back(rec.outcome.min_slack);
    PlotSpec hs;
    hs.title = "relative slack of the judged cases (" + p + ")";
    hs.x_label = "(rhs - lhs) / |rhs| of the worst condition";
    hs.height = 220;
    b += "<h2>" + p + "</h2>\n" + histogram(hs, slacks);
    const auto ladder = ladder_outcomes(*r);
    const std::map<std::string, int> reasons = discard_reasons(*r);
    if (!ladder.empty() || !reasons.empty()) {
      b += "<ul>\n";
      for (const auto& [what, cases] : ladder) b += "<li>" + html_escape(what) + ": " + html_escape(cases) + "</li>\n";
      for (const auto& [why, count] : reasons)
        b += "<li>discarded (hypothesis false; never a pass), " + std::to_string(count) + " x: " + html_escape(why) + "</li>\n";
      b += "</ul>\n";
    }
    if (r->shrunk) {
      const ShrunkCase& k = *r->shrunk;
      b += "<h3>Shrunk counterexample (from case " + std::to_string(k.from_case) + ")</h3>\n<p>Minimised by structure in " +
           std::to_string(k.evaluations) + " evaluations" + (k.capped ? " (stopped by the cap)" : "") + "; at mp50 and mp100: <b>" +
           std::string(to_string(k.ladder)) + "</b>.</p>\n<ul>\n";
      for (const std::string& st : k.steps) b += "<li>" + html_escape(st) + "</li>\n";
      b += "</ul>\n<p><code>" + html_escape(k.instance.describe()) + "</code></p>\n";
    }
    if (!r->certifications.empty()) {
      b += "<h3>Interval certificates: " + html_escape(describe_certified(*r)) +
           "</h3>\n<p>Each condition's margin (right side minus left side) enclosed in interval arithmetic for the exact numbers the "
           "instance defines: holds when positive, a certified counterexample when negative, not certified when it straddles "
           "zero. One row per certified case, with its tightest condition; every condition below.</p>\n<table><tr><th>case</th>"
           "<th>certificate</th><th>digits</th><th>tightest condition</th><th>margin enclosure</th><th>method</th></tr>\n";
      std::string all;
      for (const CaseCertification& k : r->certifications) {
        const int t = tightest_certified(k.certification);
        b += "<tr><td>" + std::to_string(k.index) + "</td><td>" + std::string(to_string(k.certification.verdict)) + "</td><td>" +
             std::to_string(k.digits) + "</td>";
        if (t < 0) {
          b += "<td></td><td></td><td>" + html_escape(k.certification.note) + "</td></tr>\n";
          continue;
        }
        const CertifiedCondition& c = k.certification.conditions[static_cast<std::size_t>(t)];
        b += "<td>" + html_escape(c.name) + "</td><td>[" + scientific(c.margin_lower) + ", " + scientific(c.margin_upper) + "]</td><td>" +
             html_escape(k.certification.note) + "</td></tr>\n";
        for (const CertifiedCondition& x : k.certification.conditions)
          all += "<tr><td>" + std::to_string(k.index) + "</td><td>" + html_escape(x.name) + "</td><td>[" + scientific(x.margin_lower) + ", " +
                 scientific(x.margin_upper) + "]</td><td>" + std::string(to_string(x.verdict)) + "</td></tr>\n";
      }
      b += "</table>\n<details><summary>Every certified condition</summary>\n<table><tr><th>case</th><th>condition</th><th>margin "
           "enclosure</th><th>certificate</th></tr>\n" + all + "</table>\n</details>\n";
    }
    if (!r->tightness.empty()) {
      b += "<h3>Tightness search</h3>\n<p>The derived constant beside the best empirical constant that hill climbing over the region "
           "found (a ratio near 1 means the constant is tight).</p>\n<table><tr><th>quantity</th><th>constant</th><th>derived</th>"
           "<th>best found</th><th>best / derived</th><th>evaluations</th></tr>\n";
      for (const Tightness& t : r->tightness)
        b += "<tr><td>" + html_escape(t.quantity) + "</td><td>" + html_escape(t.constant) + "</td><td>" + scientific(t.derived) + "</td><td>" +
             scientific(t.best) + "</td><td>" + scientific(t.ratio) + "</td><td>" + std::to_string(t.evaluations) + "</td></tr>\n";
      b += "</table>\n";
    }
    if (!r->worst_case) continue;
    b += "<h3>Worst case (case " + std::to_string(*r->worst_case) + ")</h3>\n<pre>" + html_escape(replay_command(*r)) + "</pre>\n<p><code>" +
         html_escape(r->worst_instance->describe()) + "</code></p>\n";
    const std::vector<Condition>& all = r->worst_evaluation->conditions;
    const auto table = [&](const std::vector<std::size_t>& rows) {
      std::string t = "<table><tr><th>condition</th><th>measured</th><th>relation</th><th>bound</th><th>margin</th><th>noise</th><th>verdict</th></tr>\n";
      for (std::size_t i : rows) {
        const Condition& cond = all[i];
        t += "<tr><td>" + html_escape(cond.name) + "</td><td>" + html_escape(cond.measured_exact().substr(0, 26)) + "</td><td>" +
             html_escape(cond.relation()) + "</td><td>" + html_escape(cond.bound_exact().substr(0, 26)) + "</td><td>" + scientific(cond.margin) +
             "</td><td>" + scientific(cond.noise) + "</td><td class=\"" + std::string(to_string(cond.verdict)) + "\">" +
             std::string(to_string(cond.verdict)) + "</td></tr>\n";
      }
      return t + "</table>\n";
    };
    const std::vector<std::size_t> lead = leading_conditions(all);
    b += table(lead);
    if (lead.size() < all.size()) {
      std::vector<std::size_t> every(all.size());
      for (std::size_t i = 0; i < every.size(); ++i) every[i] = i;
      b += "<p>The first and last " + std::to_string(kLeadingEdge) + " conditions and the tightest, of " + std::to_string(all.size()) +
           ".</p>\n<details><summary>all " + std::to_string(all.size()) + " conditions</summary>\n" + table(every) + "</details>\n";
    }
    // Series as plots (the leading run's are at the top), the other observations as a table.
    if (r != figured)
      for (const std::string& plot : series_plots(r->worst_evaluation->series, c.id + ": worst case (" + std::string(p) + ")")) b += plot;
    b += "<table><tr><th>observation</th><th>value</th></tr>\n";
    for (const auto& [k, v] : r->worst_evaluation->observations)
      b += "<tr><td>" + html_escape(k) + "</td><td>" + scientific(v) + "</td></tr>\n";
    b += "</table>\n";
  }
  return page(c.id, b);
}

std::string experiment_html(const std::string& title, const std::string& intro, const std::vector<Figure>& figures) {
  std::string b = "<h1>" + html_escape(title) + "</h1>\n<p>" + html_escape(intro) + "</p>\n";
  for (const Figure& f : figures)
    b += "<figure class=\"experiment\">\n" + f.svg + "<figcaption>" + html_escape(f.caption) + "</figcaption>\n</figure>\n";
  return page(title, b);
}

}  // namespace thm
