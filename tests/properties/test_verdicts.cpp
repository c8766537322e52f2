// Verdicts users can bet on: documented findings are expected violations (and a finding that holds fails the
// run), a claim's resolved verdict applies the precision ladder to inconclusive double cases, and the support
// test of empirical claims has the false-failure probability and the power it states (checked by simulation).
#include "properties/runner.hpp"
#include "reports/json_reports.hpp"
#include "reports/junit_xml.hpp"
#include "reports/pages.hpp"
#include "reports/describe.hpp"
#include "tests/support/synthetic_claim.hpp"
#include "theorems/registry.hpp"
#include "numerics/numerical_failure.hpp"

#include <boost/math/distributions/binomial.hpp>
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

using namespace thm;

namespace {

std::vector<ClaimRun> run_rows(const Claim& c, std::vector<Precision> precisions, std::uint64_t seed = 1, int cases = -1) {
  RunOptions o;
  o.precisions = std::move(precisions);
  o.seed = seed;
  o.cases = cases;
  return run_claim(c, o);
}

ResolvedVerdict resolved(const std::vector<ClaimRun>& runs) {
  std::vector<const ClaimRun*> rows;
  for (const ClaimRun& r : runs) rows.push_back(&r);
  return resolve(rows);
}

Claim with_finding(Claim c) {
  c.finding = Finding{"x exceeds 1 on some instances", "docs/findings/test.synthetic.md"};
  return c;
}

// A claim whose single condition is within the noise in double and clear at 50 and 100 digits (or, with
// `clear_at_mp` false, within the noise at every precision).
Claim inconclusive_in_double(bool clear_at_mp) {
  Claim c = testing::synthetic_claim(0.0, 1.0);
  c.evaluate = [clear_at_mp](const Instance&, Precision p, Variant) {
    Evaluation e;
    const double noise = p == Precision::float64 || !clear_at_mp ? 1.0 : 1e-30;
    e.conditions.push_back(make_le<double>("margin 1e-3", 1.0, 1.001, noise));
    return e;
  };
  return c;
}

}  // namespace

TEST_CASE("findings: a documented finding that is violated is the expected verdict, and it is reported apart") {
  const Claim c = with_finding(testing::synthetic_claim(0.0, 1.2));  // about 1 in 6 cases violate x <= 1
  const std::vector<ClaimRun> runs = run_rows(c, {Precision::float64});
  const ResolvedVerdict v = resolved(runs);
  CHECK(v.verdict == ClaimVerdict::violated);
  CHECK(v.expected == ClaimVerdict::violated);
  CHECK(v.is_expected());
  CHECK(v.expected_finding());
  CHECK(describe_resolved(v).find("(expected: finding: x exceeds 1") != std::string::npos);
  const nlohmann::json j = summary_json(resolve_run(1, Variant::claim, runs));
  CHECK(j["all_as_expected"] == true);
  REQUIRE(j["findings"].size() == 1);
  CHECK(j["findings"][0] == "test.synthetic");
  CHECK(j["verdicts"][0]["finding"]["doc"] == "docs/findings/test.synthetic.md");
  CHECK(j["claims"][0]["expected_verdict"] == "violated");
  const std::string junit = junit_xml(resolve_run(1, Variant::claim, runs));
  CHECK(junit.find("<skipped message=\"finding (expected violated)") != std::string::npos);
  CHECK(junit.find("failures=\"0\" skipped=\"1\"") != std::string::npos);
  CHECK(render_markdown(summary_page(resolve_run(1, Variant::claim, runs))).find("## Findings") != std::string::npos);
}

// A claim with two conditions judged alone, x <= 1 (always) and x <= `b` (in about b of the cases, x uniform in [0, 1]):
// expected to hold and to fail, as a finding pins what holds and what fails.
Claim with_expected_conditions(double b) {
  Claim c = testing::synthetic_claim(0.0, 1.0);
  c.evaluate = [b](const Instance& inst, Precision, Variant) {
    Evaluation e;
    e.conditions.push_back(make_le<double>("x <= 1", inst.param("x"), 1.0, 1e-12));
    e.judged_alone.push_back(make_le<double>("x <= b", inst.param("x"), b, 1e-12));
    // A condition that applies only where x > 0.6 (its regime); elsewhere not applicable, not inconclusive.
    e.judged_alone.push_back(inst.param("x") > 0.6 ? make_ge<double>("x >= 0.5 where x > 0.6", inst.param("x"), 0.5, 1e-12)
                                                   : not_applicable("x >= 0.5 where x > 0.6"));
    return e;
  };
  c.required_support = 0.9;
  c.min_hypothesis_rate = 0.25;
  c.expected_conditions = {{"x <= 1", ClaimVerdict::holds}, {"x <= b", ClaimVerdict::violated},
                           {"x >= 0.5 where x > 0.6", ClaimVerdict::holds}};
  return c;
}

TEST_CASE("expected conditions: each is judged alone, and one that turns around makes the run unexpected") {
  // As measured: "x <= b" holds in a tenth of the cases, so it is violated, as expected; the claim holds (the condition
  // judged alone does not enter the case verdict).
  const Claim as_measured = with_expected_conditions(0.1), broken = with_expected_conditions(1.0);
  std::vector<ClaimRun> runs = run_rows(as_measured, {Precision::float64});
  ResolvedVerdict v = resolved(runs);
  CHECK(v.verdict == ClaimVerdict::holds);
  REQUIRE(v.conditions.size() == 3);
  CHECK(v.conditions[0].verdict == ClaimVerdict::holds);
  CHECK(v.conditions[0].counts.held == 50);
  CHECK(v.conditions[1].verdict == ClaimVerdict::violated);
  // Judged on the cases it applies to: the others are discarded for it, and it holds (more cases outside its regime
  // than inside would have made it inconclusive had they counted as inconclusive).
  CHECK(v.conditions[2].verdict == ClaimVerdict::holds);
  CHECK(v.conditions[2].counts.inconclusive == 0);
  CHECK(v.conditions[2].counts.discarded > v.conditions[2].counts.held);
  CHECK(v.conditions[2].counts.held + v.conditions[2].counts.discarded == 50);
  CHECK(v.is_expected());
  nlohmann::json j = summary_json(resolve_run(1, Variant::claim, runs));
  CHECK(j["all_as_expected"] == true);
  REQUIRE(j["verdicts"][0]["conditions"].size() == 3);
  CHECK(j["verdicts"][0]["conditions"][1]["expected"] == "violated");
  // A broken implementation (here: b no longer what was measured) turns the condition around: the claim's own verdict
  // is unchanged, the run is not as expected, and the reports say which condition.
  runs = run_rows(broken, {Precision::float64});
  v = resolved(runs);
  CHECK(v.verdict == ClaimVerdict::holds);
  CHECK(v.conditions[1].verdict == ClaimVerdict::holds);
  CHECK_FALSE(v.is_expected());
  CHECK(describe_resolved(v).find("<-- unexpected") != std::string::npos);
  const std::vector<std::string> lines = describe_conditions(v);
  REQUIRE(lines.size() == 3);
  CHECK(lines[1].find("x <= b: holds") == 0);
  CHECK(lines[1].find("<-- unexpected") != std::string::npos);
  j = summary_json(resolve_run(1, Variant::claim, runs));
  CHECK(j["all_as_expected"] == false);
  CHECK(j["verdicts"][0]["conditions"][1]["as_expected"] == false);
  // The negative control is judged on its own conditions only.
  RunOptions o;
  o.precisions = {Precision::float64};
  o.variant = Variant::negative_control;
  const std::vector<ClaimRun> control = run_claim(as_measured, o);
  CHECK(resolved(control).conditions.empty());
}

TEST_CASE("findings: a finding that starts to hold is unexpected (a strict expected failure)") {
  const Claim c = with_finding(testing::synthetic_claim(0.0, 1.0));  // every case holds
  const std::vector<ClaimRun> runs = run_rows(c, {Precision::float64});
  const ResolvedVerdict v = resolved(runs);
  CHECK(v.verdict == ClaimVerdict::holds);
  CHECK_FALSE(v.is_expected());
  CHECK(describe_resolved(v).find("<-- unexpected") != std::string::npos);
  CHECK(summary_json(resolve_run(1, Variant::claim, runs))["all_as_expected"] == false);
  CHECK(junit_xml(resolve_run(1, Variant::claim, runs)).find("failures=\"1\"") != std::string::npos);
}

TEST_CASE("findings: the negative control of a finding is still expected to be violated") {
  const Claim c = with_finding(testing::synthetic_claim(0.0, 1.0));
  CHECK(expected_verdict(c, Variant::negative_control) == ClaimVerdict::violated);
  RunOptions o;
  o.precisions = {Precision::float64};
  o.variant = Variant::negative_control;
  const std::vector<ClaimRun> runs = run_claim(c, o);
  CHECK(resolved(runs).is_expected());
  CHECK_FALSE(resolved(runs).expected_finding());
}

TEST_CASE("underpowered budgets: below decided_from a holds is reported inconclusive and expected, a violation is not") {
  Claim c = testing::synthetic_claim(0.0, 1.0);  // every case holds (x <= 1)
  c.decided_from = StudyBudget::full;
  c.underpowered_reason = "the grid is too short";
  RunOptions o;
  o.precisions = {Precision::float64};
  // Standard budget: underpowered, inconclusive as expected, reported as such everywhere.
  std::vector<ClaimRun> runs = run_claim(c, o);
  ResolvedVerdict v = resolved(runs);
  CHECK(v.underpowered);
  CHECK(v.verdict == ClaimVerdict::inconclusive);
  CHECK(v.expected == ClaimVerdict::inconclusive);
  CHECK(v.is_expected());
  CHECK(describe_resolved(v).find("underpowered at this budget, as expected: the grid is too short") != std::string::npos);
  CHECK(summary_json(resolve_run(1, Variant::claim, runs))["verdicts"][0]["underpowered"] == "the grid is too short");
  CHECK(junit_xml(resolve_run(1, Variant::claim, runs)).find("skipped=\"1\"") != std::string::npos);
  // The full budget decides: holds, as expected.
  o.budget = StudyBudget::full;
  v = resolved(run_claim(c, o));
  CHECK_FALSE(v.underpowered);
  CHECK(v.verdict == ClaimVerdict::holds);
  CHECK(v.is_expected());
  // A violation on the short grid is still a violation, and unexpected.
  o.budget = StudyBudget::standard;
  Claim broken = testing::synthetic_claim(1.5, 2.0);  // every case violates x <= 1
  broken.decided_from = StudyBudget::full;
  v = resolved(run_claim(broken, o));
  CHECK(v.verdict == ClaimVerdict::violated);
  CHECK_FALSE(v.is_expected());
  // The negative control caught anyway is as expected; one that holds is reported inconclusive, as expected too.
  o.variant = Variant::negative_control;
  v = resolved(run_claim(broken, o));
  CHECK(v.verdict == ClaimVerdict::violated);
  CHECK(v.is_expected());
  Claim mild = testing::synthetic_claim(0.0, 0.4);  // the control's x <= 0.5 holds
  mild.decided_from = StudyBudget::full;
  v = resolved(run_claim(mild, o));
  CHECK(v.verdict == ClaimVerdict::inconclusive);
  CHECK(v.is_expected());
}

TEST_CASE("underpowered budgets: a finding's pinned conditions, undecided below decided_from, are as expected, and decided against their pin they are not") {
  // One condition that holds (pinned holds), one the grid leaves undecided (pinned violated): what a finding decided only
  // at the full budget reports on the standard one (goel.risk.excess_bound_v1).
  const auto finding_with = [](CaseVerdict second) {
    Claim c = with_finding(testing::synthetic_claim(0.0, 1.0));
    c.decided_from = StudyBudget::full;
    c.underpowered_reason = "the grid is too short";
    c.expected_conditions = {{"trend", ClaimVerdict::holds}, {"exponent", ClaimVerdict::violated}};
    c.evaluate = [second](const Instance&, Precision, Variant) {
      Evaluation e;
      e.conditions.push_back(make_le<double>("trend", 0.0, 1.0, 0.0));
      Condition x = make_le<double>("exponent", 0.0, 1.0, 0.0);
      x.verdict = second;
      e.conditions.push_back(x);
      return e;
    };
    return c;
  };
  // (The claims outlive the verdicts, which point at them.)
  const Claim undecided = finding_with(CaseVerdict::inconclusive), shown = finding_with(CaseVerdict::violated);
  RunOptions o;
  o.precisions = {Precision::float64};
  ResolvedVerdict v = resolved(run_claim(undecided, o));
  CHECK(v.underpowered);
  CHECK(v.verdict == ClaimVerdict::inconclusive);
  REQUIRE(v.conditions.size() == 2);
  CHECK(v.conditions[0].verdict == ClaimVerdict::inconclusive);  // a holds below the deciding budget is reported inconclusive
  CHECK(v.conditions[0].expected == ClaimVerdict::inconclusive);
  CHECK(v.conditions[1].verdict == ClaimVerdict::inconclusive);
  CHECK(v.conditions[1].expected == ClaimVerdict::inconclusive);
  CHECK(v.is_expected());
  // Shown anyway on the short grid: the finding's violation is as expected, and so is its pinned condition.
  v = resolved(run_claim(shown, o));
  CHECK(v.verdict == ClaimVerdict::violated);
  CHECK(v.conditions[1].expected == ClaimVerdict::violated);
  CHECK(v.is_expected());
  // At the full budget the pins are judged as they stand.
  o.budget = StudyBudget::full;
  v = resolved(run_claim(shown, o));
  CHECK_FALSE(v.underpowered);
  CHECK(v.is_expected());
  CHECK_FALSE(resolved(run_claim(undecided, o)).is_expected());
}

TEST_CASE("resolved verdict: inconclusive double cases that hold at mp50 and mp100 are resolved") {
  Claim c = inconclusive_in_double(true);
  c.ladder_checks = c.default_cases;
  const std::vector<ClaimRun> runs = run_rows(c, {Precision::float64, Precision::mp50});
  CHECK(runs[0].verdict == ClaimVerdict::inconclusive);  // the double row keeps its own verdict
  CHECK(runs[0].cases_inconclusive == 50);
  CHECK(runs[0].cases_resolved == 50);
  CHECK(runs[1].verdict == ClaimVerdict::holds);
  const ResolvedVerdict v = resolved(runs);
  CHECK(v.verdict == ClaimVerdict::holds);
  CHECK(v.cases_resolved == 50);
  CHECK(v.is_expected());
  const nlohmann::json j = summary_json(resolve_run(1, Variant::claim, runs));
  CHECK(j["claims"][0]["resolved_cases"].size() == 50);
  CHECK(j["verdicts"][0]["cases_resolved"] == 50);
}

TEST_CASE("resolved verdict: a claim undecided at every rung stays inconclusive and is unexpected") {
  Claim c = inconclusive_in_double(false);
  c.ladder_checks = c.default_cases;
  const std::vector<ClaimRun> runs = run_rows(c, {Precision::float64, Precision::mp50});
  const ResolvedVerdict v = resolved(runs);
  CHECK(v.cases_resolved == 0);
  CHECK(v.verdict == ClaimVerdict::inconclusive);
  CHECK_FALSE(v.is_expected());
}

TEST_CASE("resolved verdict: the ladder resolves at most ladder_checks inconclusive cases") {
  Claim c = inconclusive_in_double(true);
  c.ladder_checks = 10;
  const ResolvedVerdict v = resolved(run_rows(c, {Precision::float64}));
  CHECK(v.cases_resolved == 10);
  CHECK(v.counts.inconclusive == 40);
  CHECK(v.verdict == ClaimVerdict::inconclusive);  // 40 unresolved outnumber 10 held
}

TEST_CASE("resolved verdict: a violated multiprecision row makes the claim violated") {
  Claim c = testing::synthetic_claim(0.0, 1.0);
  c.evaluate = [](const Instance&, Precision p, Variant) {
    Evaluation e;
    e.conditions.push_back(make_le<double>("holds only in double", p == Precision::float64 ? 0.5 : 2.0, 1.0, 1e-12));
    return e;
  };
  const ResolvedVerdict v = resolved(run_rows(c, {Precision::float64, Precision::mp50}));
  CHECK(v.verdict == ClaimVerdict::violated);
}

// docs/verdicts.md, section 1: a NaN margin (a side that overflowed, 0/0) is a violation, never doubt.
TEST_CASE("numerical failures: a NaN margin on a third of the cases makes the run violated, never holds") {
  for (const double support : {1.0, 0.9}) {
    Claim c = testing::synthetic_claim(0.0, 1.0);
    c.required_support = support;
    c.evaluate = [](const Instance& inst, Precision, Variant) {
      const double x = inst.param("x");
      Evaluation e;
      const double lhs = x > 2.0 / 3.0 ? std::numeric_limits<double>::quiet_NaN() : x;  // planted on a third of the cases
      e.conditions.push_back(make_le<double>("x <= 1 (NaN planted)", lhs, 1.0, 1e-12));
      return e;
    };
    c.default_cases = 300;
    const ResolvedVerdict v = resolved(run_rows(c, {Precision::float64, Precision::mp50}));
    INFO("support " << support << ": " << v.counts.violated << " violated of " << v.counts.run);
    CHECK(v.counts.violated > 60);
    CHECK(v.counts.inconclusive == 0);
    // Support 1: any failure rejects; support 0.9 (the project's empirical trends): a third failing is rejected.
    CHECK(v.verdict == ClaimVerdict::violated);
    CHECK(v.cases_rounding_artifact == 0);
  }
}

TEST_CASE("numerical failures: a failed decomposition is a violation and one that holds at mp50 and mp100 is a rounding artifact") {
  Claim c = testing::synthetic_claim(0.0, 1.0);
  c.ladder_checks = c.default_cases;
  c.evaluate = [](const Instance& inst, Precision p, Variant) -> Evaluation {
    if (p == Precision::float64 && inst.param("x") > 0.5) throw NumericalFailure("no convergence in double");
    Evaluation e;
    e.conditions.push_back(make_le<double>("x <= 1", inst.param("x"), 1.0, 1e-12));
    return e;
  };
  const std::vector<ClaimRun> runs = run_rows(c, {Precision::float64});
  CHECK(runs[0].cases_inconclusive == 0);  // never doubt
  const ResolvedVerdict v = resolved(runs);
  CHECK(v.cases_rounding_artifact > 0);  // each failure in double holds at mp50 and mp100
  CHECK(v.counts.violated == 0);
  CHECK(v.verdict == ClaimVerdict::holds);
  Claim always = c;
  always.evaluate = [](const Instance& inst, Precision, Variant) -> Evaluation {
    if (inst.param("x") > 0.5) throw NumericalFailure("no convergence at any precision");
    Evaluation e;
    e.conditions.push_back(make_le<double>("x <= 1", inst.param("x"), 1.0, 1e-12));
    return e;
  };
  CHECK(resolved(run_rows(always, {Precision::float64})).verdict == ClaimVerdict::violated);
}

TEST_CASE("support test power: exact binomial values, against figures computed independently (mpmath, 30 digits)") {
  // docs/verdicts.md, "Too few cases to show a finding": the upper bounds and powers were computed by a separate mpmath
  // script summing the binomial terms and bisecting the Clopper-Pearson bound.
  CHECK(share_upper_bound({2142, 3000}) == doctest::Approx(0.7330662342).epsilon(1e-8));
  CHECK(share_upper_bound({355, 996}) == doctest::Approx(0.3927539728).epsilon(1e-8));
  CHECK(support_test_power(30, 0.9, share_upper_bound({2142, 3000})) == doctest::Approx(0.2626952042).epsilon(1e-7));
  CHECK(support_test_power(30, 0.9, share_upper_bound({2385, 3000})) == doctest::Approx(0.0423956330).epsilon(1e-7));
  CHECK(support_test_power(30, 0.5, share_upper_bound({355, 996})) == doctest::Approx(0.0208188379).epsilon(1e-7));
  CHECK(support_test_power(700, 0.5, share_upper_bound({355, 996})) == doctest::Approx(0.9951224944).epsilon(1e-8));
  CHECK(1 - support_test_power(600, 0.9, share_upper_bound({2142, 3000})) < 1e-12);
  CHECK(support_test_power(10, 1.0, 0.9) == doctest::Approx(1 - std::pow(0.9, 10)));
  const int need = judged_cases_to_show({355, 996}, 0.5);
  CHECK(support_test_power(need, 0.5, share_upper_bound({355, 996})) >= kPowerLevel);
  CHECK(support_test_power(need - 1, 0.5, share_upper_bound({355, 996})) < kPowerLevel);
}

TEST_CASE("findings: too few cases to show a finding are underpowered, not a regression") {
  // The synthetic claim holds on a share p of its cases (x ~ U[0, 1/p]); as a finding at support 0.9 measured at 700 of
  // 1000, 20 cases show it with probability below 0.99, 300 cases with more.
  Claim c = with_finding(testing::synthetic_claim(0.0, 1.0 / 0.7));
  c.required_support = 0.9;
  c.finding->measured = MeasuredShare{700, 1000};
  c.expected_conditions = {{"x <= bound", ClaimVerdict::violated, MeasuredShare{700, 1000}}};
  const auto judged = [&](int cases) { return resolved(run_rows(c, {Precision::float64}, 20261205, cases)); };
  const ResolvedVerdict few = judged(20);
  CHECK(few.underpowered);
  CHECK(few.underpowered_by_cases);
  CHECK(few.verdict != ClaimVerdict::holds);
  CHECK(few.is_expected());
  CHECK(few.underpowered_why.find("judged cases decide") != std::string::npos);
  CHECK(describe_resolved(few).find("underpowered at this number of cases") != std::string::npos);
  // Every case holding (the finding cannot show in 20 cases of a claim that holds everywhere) is as expected too.
  Claim holding = c;
  holding.generate = testing::synthetic_claim(0.0, 1.0).generate;
  const ResolvedVerdict quiet = resolved(run_rows(holding, {Precision::float64}, 20261205, 20));
  CHECK(quiet.verdict == ClaimVerdict::inconclusive);
  CHECK(quiet.is_expected());
  // At 300 cases the finding is decided: shown, it is as expected; a claim that holds everywhere is unexpected.
  const ResolvedVerdict many = judged(300);
  CHECK_FALSE(many.underpowered);
  CHECK(many.verdict == ClaimVerdict::violated);
  CHECK(many.is_expected());
  CHECK_FALSE(resolved(run_rows(holding, {Precision::float64}, 20261205, 300)).is_expected());
}

// The support test: with the true share of holding cases exactly p0 (the least favourable case of the null),
// the test rejects with probability at most kSupportTestLevel; with a share well below p0 it rejects with the
// power the binomial distribution gives. Simulated on the synthetic claim (x ~ U[0, 1/p], "x <= 1" holds with
// probability p) over many seeds; the observed counts are compared with the exact probabilities by a binomial
// acceptance region of probability 1 - 1e-6, so the test itself fails falsely about once in a million runs.
TEST_CASE("support test: false-failure probability <= 1e-3 at the boundary and the stated power, by simulation") {
  const double p0 = 0.9;
  const int cases = 50, seeds = 3000;
  const auto rejection_rate = [&](double p_true) {
    // The exact probability that the test rejects when each case holds with probability p_true.
    const boost::math::binomial_distribution<double> held(cases, p_true);
    double rate = 0;
    for (int k = 0; k <= cases; ++k)
      if (support_p_value(k, cases, p0) < kSupportTestLevel) rate += boost::math::pdf(held, k);
    return rate;
  };
  const auto simulate = [&](double p_true) {
    Claim c = testing::synthetic_claim(0.0, 1.0 / p_true);
    c.required_support = p0;
    c.default_cases = cases;
    int violated = 0;
    for (int s = 0; s < seeds; ++s) violated += run_rows(c, {Precision::float64}, 1000 + s).front().verdict == ClaimVerdict::violated;
    return violated;
  };
  const auto acceptance = [&](double rate) {
    const boost::math::binomial_distribution<double> count(seeds, rate);
    return std::pair<double, double>{boost::math::quantile(count, 0.5e-6), boost::math::quantile(boost::math::complement(count, 0.5e-6))};
  };
  const double size = rejection_rate(p0);
  CHECK(size <= kSupportTestLevel);
  CHECK(size > 1e-5);  // the test is not trivially conservative at this budget
  const int false_failures = simulate(p0);
  const auto [lo0, hi0] = acceptance(size);
  CHECK(false_failures <= hi0);
  CHECK(false_failures >= lo0);
  const double power = rejection_rate(0.5);
  CHECK(power > 1 - 1e-3);
  const int caught = simulate(0.5);
  const auto [lo1, hi1] = acceptance(power);
  CHECK(caught >= lo1);
  CHECK(caught <= hi1);
}

TEST_CASE("support test: p-values from Boost.Math's binomial") {
  CHECK(support_p_value(50, 50, 0.9) == 1.0);
  CHECK(support_p_value(0, 10, 1.0) == 0.0);
  // P(Bin(20, 0.9) <= 13) = 0.0023861
  CHECK(support_p_value(13, 20, 0.9) == doctest::Approx(0.0023861).epsilon(1e-3));
}

TEST_CASE("registry: every finding has a one-line reason, its evidence file, its conditions and an instance in the corpus") {
  namespace fs = std::filesystem;
  // Every corpus file of a finding belongs to a claim that is one (a finding that was withdrawn leaves none behind).
  for (const auto& f : fs::directory_iterator(fs::path(THM_SOURCE_DIR) / "tests/corpus/finding")) {
    const std::string name = f.path().filename().string();
    INFO(name);
    CHECK(std::any_of(all_claims().begin(), all_claims().end(),
                      [&](const Claim& c) { return c.finding && name.rfind(c.id + "-", 0) == 0; }));
  }
  for (const Claim& c : all_claims()) {
    if (!c.finding) continue;
    INFO(c.id);
    // What holds and what fails, each with its expected verdict (ClaimInfo::expected_conditions).
    CHECK_FALSE(c.expected_conditions.empty());
    CHECK_FALSE(c.finding->reason.empty());
    CHECK(c.finding->reason.find('\n') == std::string::npos);
    CHECK(c.finding->doc == "docs/findings/" + c.id + ".md");
    CHECK(fs::exists(fs::path(THM_SOURCE_DIR) / c.finding->doc));
    bool instance = false;
    for (const auto& f : fs::directory_iterator(fs::path(THM_SOURCE_DIR) / "tests/corpus/finding"))
      instance = instance || f.path().filename().string().rfind(c.id + "-", 0) == 0;
    CHECK(instance);
  }
}
