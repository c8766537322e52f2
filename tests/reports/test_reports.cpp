// The report writers: JUnit (one test case per claim, failures = unexpected resolved verdicts,
// escaped), Markdown summary and per-claim pages, per-claim JSON, replay commands that replay.
#include "numerics/models/qin/model_instance.hpp"
#include "numerics/token_embedding.hpp"
#include "properties/runner.hpp"
#include "reports/counterexample.hpp"
#include "reports/csv.hpp"
#include "reports/describe.hpp"
#include "reports/escape.hpp"
#include "reports/figures.hpp"
#include "reports/json_reports.hpp"
#include "reports/labelled_text.hpp"
#include "reports/junit_xml.hpp"
#include "reports/pages.hpp"
#include "reports/run_result.hpp"
#include "reports/shard_file.hpp"
#include "reports/svg_plot.hpp"
#include "tests/support/synthetic_claim.hpp"
#include "theorems/registry.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <fstream>
#include <sstream>
#include <stdexcept>

using namespace thm;

namespace {

std::vector<ClaimRun> sample_runs(Variant v) {
  RunOptions o;
  o.precisions = {Precision::float64, Precision::mp50};
  o.cases = 20;
  o.variant = v;
  std::vector<ClaimRun> runs;
  for (const Claim* c : select_claims("qin.softmax.rank_collapse,qin.residual.sigma_min_lower_bound"))
    for (ClaimRun& r : run_claim(*c, o)) runs.push_back(std::move(r));
  return runs;
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

}  // namespace

namespace {

std::vector<ResolvedVerdict> resolved_verdicts(const std::vector<ClaimRun>& runs) {
  std::vector<ResolvedVerdict> out;
  for (const ClaimResult& c : resolve_run(1, Variant::claim, runs).claims) out.push_back(c.verdict);
  return out;
}

// A claim's page from its rows (copied), resolved as a run resolves them.
ClaimResult claim_result(const std::vector<const ClaimRun*>& rows) {
  std::vector<ClaimRun> copy;
  for (const ClaimRun* r : rows) copy.push_back(*r);
  return resolve_claim(std::move(copy));
}
std::string claim_markdown_of(const std::vector<const ClaimRun*>& rows) { return render_markdown(claim_page(claim_result(rows))); }
nlohmann::json claim_json_of(const std::vector<const ClaimRun*>& rows) { return claim_json(claim_result(rows)); }
std::string claim_html_of(const std::vector<const ClaimRun*>& rows) { return render_html(claim_page(claim_result(rows))); }

}  // namespace

TEST_CASE("reports: JUnit has one test case per claim and a failure per unexpected resolved verdict") {
  for (Variant v : {Variant::claim, Variant::negative_control}) {
    const std::vector<ClaimRun> runs = sample_runs(v);
    const std::vector<ResolvedVerdict> verdicts = resolved_verdicts(runs);
    int unexpected = 0;
    for (const ResolvedVerdict& r : verdicts) unexpected += !r.is_expected();
    const std::string x = junit_xml(resolve_run(1, v, runs));
    CHECK(count(x, "<testcase ") == static_cast<int>(verdicts.size()));
    CHECK(count(x, "<failure ") == unexpected);
    CHECK(x.find("failures=\"" + std::to_string(unexpected) + "\"") != std::string::npos);
    CHECK(x.find("<=") == std::string::npos);  // statements are escaped
    CHECK(x.find("&lt;=") != std::string::npos);
    CHECK(count(x, "double: ") == static_cast<int>(verdicts.size()));  // the precision rows, in system-out
  }
}

TEST_CASE("reports: a negative-control failure names the verdict and the replay command") {
  // One case is too few to catch the controls: their JUnit entries must fail and say how to replay.
  RunOptions o;
  o.precisions = {Precision::float64};
  o.cases = 1;
  o.variant = Variant::negative_control;
  std::vector<ClaimRun> runs;
  for (const Claim* c : select_claims("qin.softmax.rank_collapse,goel.population.invariances"))
    for (ClaimRun& r : run_claim(*c, o)) runs.push_back(std::move(r));
  const std::string x = junit_xml(resolve_run(1, Variant::negative_control, runs));
  int failing = 0;
  for (const ResolvedVerdict& r : resolved_verdicts(runs))
    if (!r.is_expected()) ++failing;
  for (const ClaimRun& r : runs)
    if (r.verdict != ClaimVerdict::violated) {
      CHECK(x.find("replay: " + xml_escape(replay_command(r))) != std::string::npos);
      CHECK(x.find("(expected violated)") != std::string::npos);
    }
  CHECK(count(x, "<failure ") == failing);
  // The summary pages open with what a reader needs first: the count, then each unexpected verdict, above the table.
  const RunResult result = resolve_run(1, Variant::negative_control, runs);
  const RunSummary summary = summarize_run(result);
  CHECK(summary.unexpected.size() == static_cast<std::size_t>(failing));
  CHECK(summary.headline == std::to_string(2 - failing) + " of 2 claims have the expected verdict.");
  const std::string md = render_markdown(summary_page(result)), html = render_html(summary_page(result));
  for (const auto& item : summary.unexpected) {
    const std::string& id = item.first;
    INFO(id);
    CHECK(md.find("- [" + id + "](claims/" + id + ".md): ") < md.find("| claim | paper |"));
    CHECK(html.find("<li><a href=\"claims/" + id + ".html\">") < html.find("<table>"));
    for (const auto& other : summary.undecided) CHECK(other.first != id);  // listed once
  }
  CHECK(html.find(summary.headline) < html.find("<table>"));
}

TEST_CASE("reports: Markdown summary and claim pages list every claim, precision and the replay command") {
  const std::vector<ClaimRun> runs = sample_runs(Variant::claim);
  const std::string md = render_markdown(summary_page(resolve_run(1, Variant::claim, runs)));
  CHECK(count(md, "| [qin.softmax.rank_collapse]") == 1);  // the resolved verdict
  CHECK(count(md, "| qin.softmax.rank_collapse | ") == 2);  // one row per precision
  CHECK(count(md, "| [qin.residual.sigma_min_lower_bound]") == 1);
  CHECK(md.find("2 of 2 claims have the expected verdict") != std::string::npos);
  CHECK(md.find("git_revision") != std::string::npos);
  std::vector<const ClaimRun*> mine;  // the rank-collapse rows (runs are in catalogue order: by id)
  for (const ClaimRun& r : runs)
    if (r.claim->id == "qin.softmax.rank_collapse") mine.push_back(&r);
  REQUIRE(mine.size() == 2);
  const std::string page = claim_markdown_of(mine);
  CHECK(page.find("# qin.softmax.rank_collapse") != std::string::npos);
  CHECK(page.find("**Verdict: holds**") != std::string::npos);
  CHECK(page.find("docs/derivations/qin.softmax.rank_collapse.md") != std::string::npos);
  CHECK(page.find(replay_command(*mine[0])) != std::string::npos);
  const nlohmann::json j = claim_json_of(mine);
  CHECK(j["runs"].size() == 2);
  CHECK(j["resolved"]["verdict"] == "holds");
  CHECK(j["runs"][0]["replay"] == replay_command(*mine[0]));
}

TEST_CASE("reports: the replay command of a worst case regenerates that case") {
  const std::vector<ClaimRun> runs = sample_runs(Variant::claim);
  const ClaimRun& r = runs[0];
  REQUIRE(r.worst_case.has_value());
  const std::string cmd = replay_command(r);
  CHECK(cmd.find("--case " + std::to_string(*r.worst_case)) != std::string::npos);
  CHECK(cmd.find("--cases " + std::to_string(r.case_count)) != std::string::npos);
  const Instance again = generate_case(*r.claim, r.seed, *r.worst_case, r.case_count);
  CHECK(again.params == r.worst_instance->params);
  CHECK(cmd.find("--budget") == std::string::npos);  // the standard budget is the default
  // A full-budget case (its grid is in the instance) replays only with the budget it ran with.
  ClaimRun full = r;
  full.budget = StudyBudget::full;
  CHECK(replay_command(full).find(" --budget full --case " + std::to_string(*r.worst_case)) != std::string::npos);
}

TEST_CASE("reports: CSV tables and series round-trip") {
  CsvTable t;
  t.header = {"a", "b"};
  t.rows = {{"1", "2.5"}, {"3", "-4e-3"}};
  CHECK(t.str() == "a,b\n1,2.5\n3,-4e-3\n");
}

TEST_CASE("svg: linear ticks are nice numbers that cover the range, with distinct labels") {
  const Ticks t = linear_ticks(0.0, 1.0);
  REQUIRE(t.values.size() == 6);
  CHECK(t.values.front() == 0.0);
  CHECK(t.values.back() == doctest::Approx(1.0));
  CHECK(t.labels[1] == "0.2");
  const Ticks n = linear_ticks(5.0755e-19, 5.11e-19);
  CHECK(n.values.size() >= 3);
  for (std::size_t i = 1; i < n.labels.size(); ++i) CHECK(n.labels[i] != n.labels[i - 1]);
  const Ticks big = linear_ticks(280.0, 1001.0);
  for (const std::string& l : big.labels) CHECK(l.find('e') == std::string::npos);
  const Ticks flat = linear_ticks(3.0, 3.0);  // degenerate range gets a unit window
  CHECK(flat.values.front() <= 3.0);
  CHECK(flat.values.back() >= 3.0);
}

TEST_CASE("svg: log ticks are powers of ten covering the range, thinned") {
  const Ticks t = log_ticks(2e-3, 5e4);
  CHECK(t.values.front() == doctest::Approx(1e-3));
  CHECK(t.values.back() == doctest::Approx(1e5));
  CHECK(t.labels.front() == "1e-3");
  const Ticks wide = log_ticks(1e-33, 1.0, 8);
  CHECK(wide.values.size() <= 9);
  CHECK(log_ticks(-1.0, 1.0).values.empty());
}

TEST_CASE("svg: plots skip non-finite and non-positive (log) points and say so, histograms survive empty input") {
  PlotSpec spec;
  spec.log_y = true;
  const std::string svg = line_plot(spec, {{"s", {0, 1, 2, 3}, {1.0, 0.0, NAN, 10.0}, true}});
  CHECK(svg.find("2 points not shown") != std::string::npos);
  CHECK(svg.find("<polyline") != std::string::npos);
  CHECK(histogram(spec, {}).find("no finite data") != std::string::npos);
  CHECK(histogram(spec, {1.0, 1.0, 1.0}).find("<rect") != std::string::npos);
  CHECK(line_plot(spec, {{"a<b", {1}, {1}, false}}).find("a&lt;b") != std::string::npos);
}

TEST_CASE("reports: an evaluation's series are typed curves, plotted one variable per plot") {
  Evaluation e;
  e.add_point("loss", "t", 0, 1.0);
  e.add_point("bound", "t", 0, 1.0);
  e.add_point("loss", "t", 1, 0.5);
  e.add_point("kappa", "beta", 0.25, 7.0);
  REQUIRE(e.series.size() == 3);
  CHECK(e.series[0].name == "loss");
  CHECK(e.series[0].x == std::vector<double>{0.0, 1.0});
  CHECK(e.series[0].y == std::vector<double>{1.0, 0.5});
  CHECK(e.series[2].variable == "beta");
  const std::vector<std::string> plots = series_plots(e.series, "test");
  REQUIRE(plots.size() == 2);  // t, then beta
  CHECK(plots[0].find("against t") != std::string::npos);
  CHECK(plots[0].find("bound") != std::string::npos);
  CHECK(plots[1].find("against beta") != std::string::npos);
  const nlohmann::json j = evaluation_json(e);
  CHECK(j["series"].size() == 3);
  CHECK(j["series"][0]["x"][1] == 1.0);
}

TEST_CASE("reports: HTML pages are self-contained and show every claim, precision and the proof map") {
  const std::vector<ClaimRun> runs = sample_runs(Variant::claim);
  const std::string index = render_html(summary_page(resolve_run(1, Variant::claim, runs)));
  CHECK(index.find("http") == std::string::npos);
  CHECK(index.find("<script") == std::string::npos);
  CHECK(count(index, "<td><a href=\"claims/qin.softmax.rank_collapse.html\">") == 1);  // one row per claim
  CHECK(count(index, "<td>double</td><td class=\"holds\">holds</td>") == 2);                                            // with its precisions
  CHECK(count(index, "<td>mp50</td><td class=\"holds\">holds</td>") == 2);
  CHECK(index.find("Proof map") != std::string::npos);
  CHECK(index.find("<rect") != std::string::npos);
  std::vector<const ClaimRun*> mine{&runs[0], &runs[1]};
  const std::string page = claim_html_of(mine);
  CHECK(page.find("http") == std::string::npos);
  CHECK(page.find(html_escape(replay_command(runs[0]))) != std::string::npos);
  CHECK(count(page, "<svg") >= 2);  // a slack histogram per precision
}

TEST_CASE("reports: Markdown tables are well formed (every row has the header's number of cells)") {
  const std::vector<ClaimRun> runs = sample_runs(Variant::claim);
  std::vector<const ClaimRun*> mine{&runs[0], &runs[1]};
  for (const std::string& md : {render_markdown(summary_page(resolve_run(1, Variant::claim, runs))), claim_markdown_of(mine)}) {
    int header = -1, rows = 0;
    std::size_t start = 0;
    while (start < md.size()) {
      const std::size_t end = md.find('\n', start);
      const std::string line = md.substr(start, end == std::string::npos ? std::string::npos : end - start);
      start = end == std::string::npos ? md.size() : end + 1;
      if (line.empty() || line[0] != '|') {
        header = -1;
        continue;
      }
      int cells = 0;
      for (std::size_t i = 0; i < line.size(); ++i) cells += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
      if (header < 0) header = cells;
      INFO(line);
      CHECK(cells == header);
      ++rows;
    }
    CHECK(rows > 3);
  }
}

TEST_CASE("counterexamples: a violated case round-trips through its file bit for bit") {
  const std::vector<ClaimRun> runs = sample_runs(Variant::negative_control);
  int written = 0;
  for (const ClaimRun& r : runs) {
    if (r.cases_violated == 0) continue;
    const std::filesystem::path path = std::filesystem::temp_directory_path() / counterexample_filename(r);
    {
      std::ofstream out(path);
      out << counterexample_json(r).dump(2);
    }
    const Counterexample c = read_counterexample(path);
    std::filesystem::remove(path);
    CHECK(c.claim == r.claim->id);
    CHECK(c.variant == Variant::negative_control);
    CHECK(c.case_index == *r.worst_case);
    CHECK(c.instance.params == r.worst_instance->params);
    REQUIRE(c.instance.matrices.size() == r.worst_instance->matrices.size());
    for (const auto& [name, m] : r.worst_instance->matrices) CHECK(c.instance.matrices.at(name) == m);  // exact
    // The reloaded instance gives the same verdict.
    CHECK(judge(r.claim->evaluate(c.instance, r.precision, c.variant), precision_epsilon(r.precision)).verdict ==
          CaseVerdict::violated);
    ++written;
  }
  CHECK(written > 0);
}

TEST_CASE("svg histogram: values spanning the whole double range do not crash and are all counted") {
  PlotSpec spec;
  spec.title = "extremes";
  const std::string svg = histogram(spec, {-1.7e308, -9.9e299, 0.5, 1.0, 1.7e308}, 10);
  CHECK(svg.find("no finite data") == std::string::npos);
  int total = 0;
  for (std::size_t at = svg.find("<title>"); at != std::string::npos; at = svg.find("<title>", at + 1)) total += std::stoi(svg.substr(at + 7));
  CHECK(total == 5);
}

TEST_CASE("svg histogram: the two ends of a narrow range are labelled apart") {
  PlotSpec spec;
  spec.title = "narrow";
  for (const auto& ends : std::vector<std::pair<double, double>>{{0.99999, 0.999999999}, {1e-9, 1.0000001e-9}, {-3.0000002, -3.0000001}, {123456.0, 123456.5}}) {
    const double lo = ends.first, hi = ends.second;
    const std::string svg = histogram(spec, {lo, (lo + hi) / 2, hi}, 10);
    // The end labels are the two texts after the axis line.
    const std::size_t axis = svg.find("<line");
    REQUIRE(axis != std::string::npos);
    const auto text_at = [&](std::size_t from) {
      const std::size_t open = svg.find('>', svg.find("<text", from)) + 1;
      return std::pair{svg.substr(open, svg.find("</text>", open) - open), svg.find("</text>", open)};
    };
    const auto [left, after] = text_at(axis);
    const auto [right, unused] = text_at(after);
    CAPTURE(lo);
    CHECK(left != right);
    CHECK(std::fabs(std::stod(left) - lo) <= (hi - lo) / 4);  // rounded, but nearer its end than the other
    CHECK(std::fabs(std::stod(right) - hi) <= (hi - lo) / 4);
  }
}

TEST_CASE("reports: rounding artifacts are listed, not counted as violations, the claim holds with a note") {
  const Claim* demo = nullptr;
  for (const Claim& c : all_claims())
    if (c.id == "demo.fp.one_pass_variance") demo = &c;
  REQUIRE(demo);
  RunOptions o;
  o.precisions = {Precision::float64};
  o.seed = 1;
  const std::vector<ClaimRun> runs = run_claim(*demo, o);
  const ClaimRun& r = runs.front();
  REQUIRE(r.cases_rounding_artifact > 0);  // the demonstration demonstrates: seed 1 has 13
  CHECK(r.cases_violated == 0);
  CHECK(r.verdict == ClaimVerdict::holds);
  REQUIRE(r.artifact_instance);
  const std::string md = claim_markdown_of({&r});
  CHECK(md.find("rounding artifacts (violated in double, hold at mp50 and mp100") != std::string::npos);
  CHECK(md.find(std::to_string(*r.artifact_case)) != std::string::npos);
  CHECK(claim_json_of({&r})["runs"][0]["rounding_artifact_cases"].size() == static_cast<std::size_t>(r.cases_rounding_artifact));
  CHECK(claim_html_of({&r}).find("rounding artifacts") != std::string::npos);
}

TEST_CASE("reports: a claim page leads with the statement, the verdict and the figure, and folds a long worst-case table") {
  Claim c = testing::synthetic_claim(0.0, 1.0);
  c.statement = "the synthetic trajectory stays under its bound";
  c.evaluate = [](const Instance&, Precision, Variant) {
    Evaluation e;
    for (int t = 0; t < 20; ++t)  // one condition per step; step 11 is the tightest
      e.conditions.push_back(make_le<double>("L_" + std::to_string(t) + " <= bound", t == 11 ? 0.99 : 0.5, 1.0, 1e-12));
    for (int t = 0; t < 20; ++t) e.add_point("loss L_t", "t", t, 0.5);
    return e;
  };
  RunOptions o;
  o.precisions = {Precision::float64};
  o.cases = 2;
  const std::vector<ClaimRun> runs = run_claim(c, o);
  const std::vector<Condition>& all = runs[0].worst_evaluation->conditions;
  CHECK(leading_conditions(all) == std::vector<std::size_t>{0, 1, 2, 11, 17, 18, 19});
  CHECK(leading_conditions(std::vector<Condition>(all.begin(), all.begin() + 7)).size() == 7);  // few rows: all shown
  const std::string html = claim_html_of({&runs[0]});
  const std::size_t statement = html.find(c.statement), verdict = html.find("Verdict:"), figure = html.find("<svg"),
                    details = html.find("<details>"), provenance = html.find("provenance:");
  REQUIRE(details != std::string::npos);
  CHECK(statement < verdict);
  CHECK(verdict < figure);
  CHECK(figure < provenance);
  CHECK(count(html.substr(0, details), "L_11 &lt;= bound") + count(html.substr(0, details), "L_11 <= bound") == 1);
  CHECK(count(html.substr(0, details), "L_5 ") == 0);  // folded
  const std::string md = claim_markdown_of({&runs[0]});
  CHECK(md.find(c.statement) < md.find("**Verdict:"));
  CHECK(md.find("**Verdict:") < md.find("- provenance:"));
  REQUIRE(md.find("<details>") != std::string::npos);
  CHECK(count(md.substr(0, md.find("<details>")), "| L_5 ") == 0);
}

TEST_CASE("reports: a >= condition reads in the direction of its name (measured, relation, bound)") {
  Claim c = testing::synthetic_claim(0.0, 1.0);
  c.evaluate = [](const Instance&, Precision, Variant) {
    Evaluation e;
    e.conditions.push_back(make_ge<double>("gradient >= bound", 3.0, 1.0, 1e-12));  // measured 3 >= bound 1
    e.conditions.push_back(make_le<double>("error <= tolerance", 0.25, 0.5, 1e-12));
    return e;
  };
  RunOptions o;
  o.precisions = {Precision::float64};
  o.cases = 3;
  const std::vector<ClaimRun> runs = run_claim(c, o);
  const Condition& ge = runs[0].worst_evaluation->conditions[0];
  CHECK(ge.ge);
  CHECK(ge.measured_exact() == "3");
  CHECK(ge.bound_exact() == "1");
  CHECK(ge.margin > 0);
  const std::vector<const ClaimRun*> mine{&runs[0]};
  const std::string md = claim_markdown_of(mine);
  CHECK(md.find("| condition | measured | relation | bound |") != std::string::npos);
  CHECK(md.find("| gradient >= bound | 3 | >= | 1 |") != std::string::npos);
  CHECK(md.find("| error <= tolerance | 0.25 | <= | 0.5 |") != std::string::npos);
  const std::string html = claim_html_of(mine);
  CHECK(html.find("<td>gradient &gt;= bound</td><td>3</td><td>&gt;=</td><td>1</td>") != std::string::npos);
  const nlohmann::json j = claim_json_of(mine);
  const nlohmann::json& cond = j["runs"][0]["worst"]["evaluation"]["conditions"][0];
  CHECK(cond["measured"] == "3");
  CHECK(cond["relation"] == ">=");
  CHECK(cond["bound"] == "1");
}

TEST_CASE("reports: the proof map of the whole catalogue fits the page and no edge crosses a node") {
  std::vector<ClaimRun> runs;
  for (const Claim& c : all_claims()) {
    ClaimRun r;
    r.claim = &c;
    r.verdict = ClaimVerdict::holds;
    runs.push_back(r);
  }
  const std::string index = render_html(summary_page(resolve_run(1, Variant::claim, runs)));
  const auto at = index.find("<svg class=\"proof-map\"");
  REQUIRE(at != std::string::npos);
  const std::string svg = index.substr(at, index.find("</svg>", at) - at);
  CHECK(svg.find("width=\"100%\"") != std::string::npos);  // scales down to the page
  struct Box {
    double x, y, w, h;
  };
  std::vector<Box> boxes;
  const auto attr = [](const std::string& tag, const std::string& name) {
    const auto p = tag.find(" " + name + "=\"");
    return std::stod(tag.substr(p + name.size() + 3));
  };
  for (std::size_t p = svg.find("<rect"); p != std::string::npos; p = svg.find("<rect", p + 1)) {
    const std::string tag = svg.substr(p, svg.find('>', p) - p);
    boxes.push_back({attr(tag, "x"), attr(tag, "y"), attr(tag, "width"), attr(tag, "height")});
  }
  REQUIRE(boxes.size() == all_claims().size());
  int edges = 0, long_edges = 0;
  for (std::size_t p = svg.find("<polyline points=\""); p != std::string::npos; p = svg.find("<polyline points=\"", p + 1)) {
    ++edges;
    std::stringstream ss(svg.substr(p + 18, svg.find('"', p + 18) - p - 18));
    std::vector<std::pair<double, double>> pts;
    for (std::string xy; ss >> xy;) pts.emplace_back(std::stod(xy.substr(0, xy.find(','))), std::stod(xy.substr(xy.find(',') + 1)));
    long_edges += pts.size() > 2;
    // Every point strictly inside a segment (sampled finely) lies outside every node's interior.
    for (std::size_t s = 0; s + 1 < pts.size(); ++s)
      for (int k = 1; k < 100; ++k) {
        const double x = pts[s].first + (pts[s + 1].first - pts[s].first) * k / 100.0;
        const double y = pts[s].second + (pts[s + 1].second - pts[s].second) * k / 100.0;
        for (const Box& b : boxes) {
          const bool inside = x > b.x + 0.5 && x < b.x + b.w - 0.5 && y > b.y + 0.5 && y < b.y + b.h - 0.5;
          CHECK_FALSE(inside);
        }
      }
  }
  CHECK(edges > 0);
  CHECK(long_edges > 0);  // the catalogue has lemmas two layers or more from a theorem: the routing is exercised
}

TEST_CASE("reports: every writer reads each claim's resolved verdict from the run result and none resolves again") {
  RunResult result = resolve_run(1, Variant::claim, sample_runs(Variant::claim));
  REQUIRE(result.claims.size() == 2);
  ClaimResult& first = result.claims[0];
  REQUIRE(first.verdict.verdict == ClaimVerdict::holds);
  // A verdict changed after resolving: a writer that resolved the rows again would still say holds.
  first.verdict.verdict = ClaimVerdict::violated;
  const std::string id = first.claim().id;
  CHECK_FALSE(result.all_as_expected());
  const nlohmann::json summary = summary_json(result);
  CHECK(summary["verdicts"][0]["verdict"] == "violated");
  CHECK(summary["all_as_expected"] == false);
  CHECK(claim_json(first)["resolved"]["verdict"] == "violated");
  CHECK(render_markdown(summary_page(result)).find("| [" + id + "](claims/" + id + ".md) | " + first.claim().source + " | " + std::string(to_string(first.claim().provenance)) +
                                     " | **violated** |") != std::string::npos);
  CHECK(count(junit_xml(result), "<failure ") == 1);
  CHECK(render_markdown(claim_page(first)).find("**Verdict: violated") != std::string::npos);
  CHECK(render_html(claim_page(first)).find("<b>Verdict: violated") != std::string::npos);
  CHECK(render_html(summary_page(result)).find("<td class=\"violated\"><b>violated</b></td><td>holds <b>(unexpected)</b>") != std::string::npos);
}

TEST_CASE("reports: resolve_run groups rows by claim in order of first appearance and resolves each group") {
  std::vector<ClaimRun> runs = sample_runs(Variant::claim);  // two claims, double and mp50 each
  const RunResult result = resolve_run(7, Variant::claim, runs);
  CHECK(result.seed == 7);
  REQUIRE(result.claims.size() == 2);
  for (std::size_t c = 0; c < 2; ++c) {
    REQUIRE(result.claims[c].rows.size() == 2);
    CHECK(result.claims[c].rows[0].precision == Precision::float64);
    CHECK(result.claims[c].rows[1].precision == Precision::mp50);
    const ResolvedVerdict v = resolve({&runs[2 * c], &runs[2 * c + 1]});
    CHECK(result.claims[c].verdict.verdict == v.verdict);
    CHECK(result.claims[c].verdict.counts.held == v.counts.held);
    CHECK(&result.claims[c].claim() == runs[2 * c].claim);
  }
  CHECK_THROWS_AS(resolve_claim({}), std::invalid_argument);
}

TEST_CASE("shards: merge takes every shard of one campaign once and refuses anything else, naming the shard") {
  const std::vector<const Claim*> claims = select_claims("qin.softmax.rank_collapse");
  const auto shard = [&](int index, int count) {
    ShardFile s;
    s.environment = {{"git_revision", "abc"}};
    s.seed = 11;
    s.precisions = {Precision::float64};
    s.shard = Shard{index, count};
    s.claims = claims;
    return s;
  };
  const std::vector<std::string> names{"a", "b", "c"};
  CHECK_NOTHROW(check_one_campaign({shard(0, 3), shard(2, 3), shard(1, 3)}, names));  // any order
  const auto refusal = [&](std::vector<ShardFile> shards, std::vector<std::string> given = {}) {
    if (given.empty()) given = std::vector<std::string>(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(shards.size()));
    try {
      check_one_campaign(shards, given);
    } catch (const DataError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  ShardFile other = shard(1, 3);
  other.seed = 12;
  CHECK(refusal({shard(0, 3), other, shard(2, 3)}) == "b: the seed differs from a's: not one campaign");
  other = shard(1, 3);
  other.environment = {{"git_revision", "abd"}};
  CHECK(refusal({shard(0, 3), other, shard(2, 3)}) == "b: the build (compiler, libraries or revision) differs from a's: not one campaign");
  other = shard(2, 3);
  other.variant = Variant::negative_control;
  CHECK(refusal({shard(0, 3), shard(1, 3), other}) == "c: the variant differs from a's: not one campaign");
  other = shard(1, 3);
  other.budget = StudyBudget::full;
  CHECK(refusal({shard(0, 3), other, shard(2, 3)}) == "b: the budget differs from a's: not one campaign");
  other = shard(1, 3);
  other.precisions = {Precision::float64, Precision::mp50};
  CHECK(refusal({shard(0, 3), other, shard(2, 3)}) == "b: the precisions differs from a's: not one campaign");
  other = shard(1, 3);
  other.cases = 3;
  CHECK(refusal({shard(0, 3), other, shard(2, 3)}) == "b: the case count differs from a's: not one campaign");
  other = shard(1, 3);
  other.claims = select_claims("qin.softmax.rank_collapse,qin.residual.weyl_interlacing");
  CHECK(refusal({shard(0, 3), other, shard(2, 3)}) == "b: the claim set differs from a's: not one campaign");
  CHECK(refusal({shard(0, 3), shard(1, 2), shard(2, 3)}) == "b: the number of shards differs from a's: not one campaign");
  CHECK(refusal({shard(0, 3), shard(0, 3), shard(2, 3)}) == "b: shard 0/3 given twice");
  CHECK(refusal({shard(0, 3), shard(2, 3)}) == "missing shard(s) 1 of 3");
  CHECK(refusal({shard(1, 4), shard(2, 4)}) == "missing shard(s) 0, 3 of 4");
  CHECK_THROWS_AS(check_one_campaign({}, {}), std::invalid_argument);
}

TEST_CASE("shards: take_shard_runs moves one claim's records out of every shard, in shard order") {
  const std::vector<const Claim*> claims = select_claims("qin.softmax.rank_collapse,qin.residual.weyl_interlacing");
  std::vector<ShardFile> shards(2);
  for (int k = 0; k < 2; ++k)
    for (const Claim* c : claims) {
      ShardRun r;
      r.claim = c;
      shards[static_cast<std::size_t>(k)].runs.push_back(std::move(r));
    }
  const std::vector<ShardRun> mine = take_shard_runs(shards, *claims[1]);
  REQUIRE(mine.size() == 2);
  CHECK(mine[0].claim == claims[1]);
  CHECK(mine[1].claim == claims[1]);
  CHECK(take_shard_runs(shards, *claims[0]).size() == 2);
}

TEST_CASE("reports: every page prints a number the same way (four significant digits, nan and infinities spelled out)") {
  CHECK(scientific(0.000123456) == "1.235e-04");
  CHECK(scientific(-2.0) == "-2.000e+00");
  CHECK(scientific(std::nan("")) == "nan");
  CHECK(scientific(std::numeric_limits<double>::infinity()) == "inf");
  CHECK(scientific(-std::numeric_limits<double>::infinity()) == "-inf");
}

TEST_CASE("read_series_csv fills a missing value by linear interpolation in time, and the ends by the nearest value") {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "thm_series_missing.csv";
  {
    std::ofstream out(path);
    out << "a,b,c\n,1,2\n10,NA,4\n,,6\n40,7,\n";
  }
  const DataSeries s = read_series_csv(path);
  std::filesystem::remove(path);
  CHECK(s.filled == 5);
  // a: 10 at the start (nearest), 25 halfway between 10 and 40; b: 1, 3, 5, 7 (two rows between 1 and 7); c: 6 at the end.
  const MatD want = (MatD(4, 3) << 10, 1, 2, 10, 3, 4, 25, 5, 6, 40, 7, 6).finished();
  CHECK(s.values == want);
}

TEST_CASE("read_series_csv refuses a column with no value, naming it") {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "thm_series_no_value.csv";
  {
    std::ofstream out(path);
    out << "a,b\n1,\n2,NA\n";
  }
  CHECK_THROWS_WITH_AS(read_series_csv(path), doctest::Contains("column 2 ('b') has no value"), DataError);
  std::filesystem::remove(path);
}

TEST_CASE("instance files: written by instance_file_json and read back exactly, a counterexample file read as its instance") {
  Instance inst;
  inst.family = "qin.model";
  inst.params = {{"n", 1}, {"beta", 0.1}};
  inst.matrices["X0"] = (MatD(2, 2) << 1.0 / 3, -2e-300, 5, 0.1).finished();
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "thm_instance_file.json";
  {
    std::ofstream out(path);
    out << instance_file_json(inst).dump(1);
  }
  const Instance back = read_instance_file(path);
  CHECK(back.family == inst.family);
  CHECK(back.params == inst.params);
  CHECK(back.matrices.at("X0") == inst.matrices.at("X0"));
  {
    std::ofstream out(path);
    out << R"({"format": "thmcheck-instance", "version": 2, "instance": {}})";
  }
  CHECK_THROWS_WITH_AS(read_instance_file(path), doctest::Contains("unsupported version"), DataError);
  {
    std::ofstream out(path);
    out << R"([1, 2])";
  }
  CHECK_THROWS_AS(read_instance_file(path), DataError);
  std::filesystem::remove(path);
}

namespace {

// The text written to a scratch file, read back as a corpus (or its one-line error).
LabelledText corpus_from(const std::string& text) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "thm_labelled_text.tsv";
  {
    std::ofstream out(path, std::ios::binary);
    out << text;
  }
  struct Remove {
    std::filesystem::path p;
    ~Remove() { std::filesystem::remove(p); }
  } remove{path};
  return read_labelled_text(path);
}

}  // namespace

TEST_CASE("read_labelled_text: two labels, tokens lower-cased runs of letters and digits, UTF-8 words whole") {
  const LabelledText c = corpus_from("\xEF\xBB\xBF# comment\nacq\tShares of ACME-Corp rose 3.5 pct\r\n\ncrude\tOPEC cut\toutput; caf\xC3\xA9 5\n");
  REQUIRE(c.classes == std::vector<std::string>{"acq", "crude"});
  REQUIRE(c.documents.size() == 2);
  CHECK(c.documents[0].label == 0);
  CHECK(c.documents[0].line == 2);
  CHECK(c.documents[0].tokens == std::vector<std::string>{"shares", "of", "acme", "corp", "rose", "3", "5", "pct"});
  CHECK(c.documents[1].label == 1);
  CHECK(c.documents[1].tokens == std::vector<std::string>{"opec", "cut", "output", "caf\xC3\xA9", "5"});
}

TEST_CASE("read_labelled_text refuses malformed corpora with the file, line and column") {
  CHECK_THROWS_WITH_AS(corpus_from("a\tx y\nb no tab\n"), doctest::Contains("thm_labelled_text.tsv:2:2: expected LABEL<TAB>TEXT, found no tab"),
                       DataError);
  CHECK_THROWS_WITH_AS(corpus_from("a\tx\nbb\n"), doctest::Contains(":2:3: expected LABEL<TAB>TEXT, found no tab"), DataError);
  CHECK_THROWS_WITH_AS(corpus_from("a\tx\nb\ty\nc\tz\n"), doctest::Contains(":3:1: a third label 'c'"), DataError);
  CHECK_THROWS_WITH_AS(corpus_from("a\tx\nb\t...\n"), doctest::Contains(":2:3: the document has no token"), DataError);
  CHECK_THROWS_WITH_AS(corpus_from("a\tx\nb\ty\x01z\n"), doctest::Contains(":2:4: control byte '\\x01'"), DataError);
  CHECK_THROWS_WITH_AS(corpus_from("a b\tx\n"), doctest::Contains(":1:2: a label is 1 to 64 characters"), DataError);
  CHECK_THROWS_WITH_AS(corpus_from("\tx\n"), doctest::Contains(":1:1: the label is empty"), DataError);
  CHECK_THROWS_WITH_AS(corpus_from("a\tx\na\ty\n"), doctest::Contains("one label only ('a')"), DataError);
  CHECK_THROWS_WITH_AS(corpus_from("# nothing\n\n"), doctest::Contains("no document"), DataError);
  CHECK_THROWS_WITH_AS(read_labelled_text("/no/such/corpus.tsv"), doctest::Contains("cannot read text file"), DataError);
}

TEST_CASE("build_qin_model_from_text: documents alternately of each class, the first N tokens embedded, the label at every position") {
  const LabelledText c = corpus_from("pos\tone two\npos\ta b c d\nneg\tw x y z\nneg\tp q r s t\npos\te f g h\n");
  QModelSpec s;
  s.n = 3;
  s.N = 3;
  s.d = 5;
  const Instance inst = build_qin_model_from_text(c, s, 42);
  // "one two" has fewer than N tokens: the first pos document is "a b c d", then neg "w x y z", then pos "e f g h".
  CHECK(inst.matrices.at("X0") == embed_tokens({"a", "b", "c"}, 5, 42));
  CHECK(inst.matrices.at("X1") == embed_tokens({"w", "x", "y"}, 5, 42));
  CHECK(inst.matrices.at("X2") == embed_tokens({"e", "f", "g"}, 5, 42));
  CHECK(inst.matrices.at("Y0") == MatD::Constant(3, 1, 1.0));
  CHECK(inst.matrices.at("Y1") == MatD::Constant(3, 1, -1.0));
  CHECK(inst.param("d_y") == 1);
  // One token, one vector, wherever it occurs; another seed, another map.
  CHECK(embed_token("a", 5, 42) == inst.matrices.at("X0").row(0));
  CHECK(embed_token("a", 5, 43) != embed_token("a", 5, 42));
  s.n = 5;  // three pos documents of 3 tokens are needed, two exist
  CHECK_THROWS_WITH_AS(build_qin_model_from_text(c, s, 42), doctest::Contains("class 'pos' has fewer than 3 documents of at least N = 3 tokens"),
                       std::invalid_argument);
}

TEST_CASE("reports: a control caught below its deciding budget reads as expected, and says why") {
  ResolvedVerdict v;
  v.claim = &all_claims().front();
  v.variant = Variant::negative_control;
  v.verdict = ClaimVerdict::violated;
  v.expected = ClaimVerdict::inconclusive;  // underpowered: a holds would be reported inconclusive
  v.underpowered = true;
  REQUIRE(v.is_expected());
  CHECK(describe_expected(v) == "inconclusive or violated (underpowered)");
  CHECK(describe_resolved(v).find("caught anyway, as expected") != std::string::npos);
  v.underpowered = false;  // at the deciding budget the same verdict is simply unexpected
  REQUIRE_FALSE(v.is_expected());
  CHECK(describe_expected(v) == "inconclusive");
  CHECK(describe_resolved(v).find("<-- unexpected") != std::string::npos);
}
