// The choice tape, structural shrinking and the tightness search (properties/structural_search.hpp).
#include "properties/doctest_rapidcheck.hpp"
#include "properties/rc_choices.hpp"
#include "properties/runner.hpp"
#include "properties/structural_search.hpp"
#include "tests/support/synthetic_claim.hpp"
#include "theorems/registry.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>

using namespace thm;

namespace {

// The synthetic claim with a dimension choice before x (tests/support/synthetic_claim.hpp).
Claim synthetic_with_dimension(double lo, double hi) { return testing::synthetic_claim(lo, hi, true); }

const Claim& claim(const char* id) {
  for (const Claim& c : all_claims())
    if (c.id == id) return c;
  throw std::runtime_error("no claim");
}

}  // namespace

TEST_CASE("a recorded tape regenerates every claim's case exactly") {
  for (const Claim& c : all_claims()) {
    INFO(c.id);
    const RecordedCase r = record_case(c, 7, 3, 10);
    CHECK(r.instance.describe() == generate_case(c, 7, 3, 10).describe());
    const RecordedCase again = replay_tape(c, r.tape, r.size, 7);
    CHECK(again.instance.describe() == r.instance.describe());
    REQUIRE(again.instance.matrices.size() == r.instance.matrices.size());
    for (const auto& [name, m] : r.instance.matrices) CHECK(again.instance.matrix(name) == m);
  }
}

TEST_CASE("shrinking keeps the violation, lowers dimensions and rounds scales") {
  const Claim c = synthetic_with_dimension(1.0, 10.0);  // x in [1, 10]: violated unless x == 1
  RecordedCase start;
  for (int i = 0; i < 20; ++i) {
    start = record_case(c, 3, i, 20);
    if (start.instance.param("n") > 1 && start.instance.param("x") > 1.5) break;
  }
  REQUIRE(start.instance.param("x") > 1.5);
  const ShrinkResult r = shrink_violation(c, start, Variant::claim, SearchLimits{200, 10}, 3);
  CHECK(judge(r.evaluation, precision_epsilon(Precision::float64)).verdict == CaseVerdict::violated);
  CHECK(r.minimal.instance.param("n") == 1);  // the dimension at its lower end
  const double x = r.minimal.instance.param("x");
  CHECK(x == std::round(x));  // rounded to one significant digit
  CHECK(x > 1);
  CHECK(!r.steps.empty());
  CHECK(!r.capped);
  // A budget too small to finish says so.
  const ShrinkResult cut = shrink_violation(c, start, Variant::claim, SearchLimits{2, 10}, 3);
  CHECK(cut.capped);
  CHECK(cut.evaluations <= 2);
  CHECK(judge(cut.evaluation, precision_epsilon(Precision::float64)).verdict == CaseVerdict::violated);
}

TEST_CASE("shrinking terminates on a generator that rejects and redraws, and never oscillates between round values") {
  Claim c = synthetic_with_dimension(0.125, 10.0);
  c.generate = [](ChoiceSource& src) {
    Instance inst;
    inst.family = "test";
    inst.params["n"] = double(src.integer(1, 9));
    double x = 0;
    do x = src.real(0.125, 10.0);  // redraw until x > 2: shrinking x to 0.125 forces fresh draws
    while (x <= 2);
    inst.params["x"] = x;
    return inst;
  };
  const RecordedCase start = record_case(c, 4, 10, 20);
  const ShrinkResult r = shrink_violation(c, start, Variant::claim, SearchLimits{500, 30}, 4);
  CHECK(!r.capped);
  CHECK(r.evaluations < 50);
  CHECK(judge(r.evaluation, precision_epsilon(Precision::float64)).verdict == CaseVerdict::violated);
}

TEST_CASE("shrinking a real claim's negative control: smaller, still violated, genuine at mp50 and mp100") {
  RunOptions o;
  o.precisions = {Precision::float64};
  o.cases = 20;
  o.seed = 5;
  o.variant = Variant::negative_control;
  o.shrink = true;
  const auto runs = run_claim(claim("qin.residual.sigma_min_lower_bound"), o);
  REQUIRE(runs[0].shrunk);
  const ShrunkCase& s = *runs[0].shrunk;
  CHECK(judge(s.evaluation, precision_epsilon(Precision::float64)).verdict == CaseVerdict::violated);
  CHECK(s.ladder == LadderResult::genuine);
  CHECK(s.instance.param("N") <= runs[0].worst_instance->param("N"));
  CHECK(s.evaluations <= o.shrink_evaluations);
}

TEST_CASE("the tightness search climbs towards the bound and never scores a discarded instance") {
  const Claim c = synthetic_with_dimension(-1.0, 1.0);  // holds everywhere; the sup of x / 1 is 1
  const TightenResult r = tighten(c, Variant::claim, 11, SearchLimits{150, 30});
  REQUIRE(r.found);
  CHECK(r.tightest.ratio <= 1.0);
  CHECK(r.tightest.ratio >= 0.99);
  CHECK(r.tightest.ratio >= r.first_ratio);
  CHECK(r.best.instance.param("x") >= 0);  // never a discarded one
  CHECK(r.evaluations <= 150);
  const TightenResult none = tighten(synthetic_with_dimension(-2.0, -1.0), Variant::claim, 11, SearchLimits{30, 10});
  CHECK(!none.found);
  CHECK(none.discarded == none.evaluations);
}

TEST_CASE("the tightness search finds a derived constant's slack: sigma_min_lower_bound's bound is nearly attained") {
  const TightenResult r = tighten(claim("qin.residual.sigma_min_lower_bound"), Variant::claim, 1, SearchLimits{100, 30});
  REQUIRE(r.found);
  CHECK(r.tightest.ratio <= 1.0);
  CHECK(r.tightest.ratio > 0.9);
}

// Interval certification of the two claims that have it (Claim::certify, in the claim files).
TEST_CASE("interval certification: sigma_min_lower_bound certified where it holds, its control certified violated") {
  const Claim& c = claim("qin.residual.sigma_min_lower_bound");
  int certified_holds = 0, certified_violated = 0, judged = 0;
  for (int i = 0; i < 12; ++i) {
    const Instance inst = generate_case(c, 2, i, 12);
    const Evaluation e = c.evaluate(inst, Precision::float64, Variant::claim);
    if (!e.hypotheses_hold) continue;
    ++judged;
    certified_holds += c.certify(inst, 40, Variant::claim).verdict == CertifiedVerdict::holds;
    certified_violated += c.certify(inst, 40, Variant::negative_control).verdict == CertifiedVerdict::violated;
  }
  REQUIRE(judged >= 6);
  CHECK(certified_holds == judged);
  CHECK(certified_violated == judged);
}

TEST_CASE("interval certification: every double violation of the demonstration claim is certified to hold") {
  const Claim& c = claim("demo.fp.one_pass_variance");
  int artifacts = 0;
  for (int i = 0; i < 40; ++i) {
    const Instance inst = generate_case(c, 1, i, 40);
    if (judge(c.evaluate(inst, Precision::float64, Variant::claim), precision_epsilon(Precision::float64)).verdict != CaseVerdict::violated)
      continue;
    ++artifacts;
    CHECK(c.certify(inst, 50, Variant::claim).verdict == CertifiedVerdict::holds);
    CHECK(c.certify(inst, 50, Variant::negative_control).verdict == CertifiedVerdict::violated);
  }
  CHECK(artifacts >= 5);  // the demonstration demonstrates something
}

TEST_CASE("interval certification never contradicts a clear verdict, and certifies most judged cases") {
  for (const char* id : {"qin.softmax.rank_collapse", "qin.residual.weyl_interlacing", "qin.residual.sigma_min_lower_bound",
                         "demo.fp.one_pass_variance"}) {
    const Claim& c = claim(id);
    REQUIRE(c.certify);
    for (Variant v : {Variant::claim, Variant::negative_control}) {
      int judged = 0, certified = 0;
      for (int i = 0; i < 24; ++i) {
        const Instance inst = generate_case(c, 9, i, 24);
        // At 60 digits the verdict is the real-number one for these claims (the demonstration's double is not).
        const Evaluation e = c.evaluate_digits(inst, 60, v);
        const CaseVerdict verdict = judge(e, 1e-59).verdict;
        if (verdict == CaseVerdict::discarded) continue;
        const Certification cert = c.certify(inst, 40, v);
        INFO(id, " case ", i, " ", to_string(v), ": ", to_string(verdict), " vs ", to_string(cert.verdict));
        if (verdict == CaseVerdict::holds) CHECK(cert.verdict != CertifiedVerdict::violated);
        if (verdict == CaseVerdict::violated) CHECK(cert.verdict != CertifiedVerdict::holds);
        ++judged;
        certified += cert.verdict == CertifiedVerdict::holds || cert.verdict == CertifiedVerdict::violated;
      }
      INFO(id, " ", to_string(v));
      CHECK(judged >= 8);
      CHECK(certified * 2 >= judged);
    }
  }
}

// --- RapidCheck properties -----------------------------------------------------------------------------
THM_PROPERTY("a recorded tape replays any case of a claim exactly (RapidCheck over seeds and cases)", ()) {
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const int cases = *rc::gen::inRange(1, 200);
  const int index = *rc::gen::inRange(0, cases);
  for (const char* id : {"qin.softmax.rank_collapse", "qin.residual.sigma_min_lower_bound", "goel.geometry.one_point_strong_convexity",
                         "demo.fp.one_pass_variance"}) {
    const Claim& c = claim(id);
    const RecordedCase r = record_case(c, seed, index, cases);
    RC_ASSERT(r.instance.describe() == generate_case(c, seed, index, cases).describe());
    const RecordedCase again = replay_tape(c, r.tape, r.size, seed);
    RC_ASSERT(again.instance.describe() == r.instance.describe());
    for (const auto& [name, m] : r.instance.matrices) RC_ASSERT(again.instance.matrix(name) == m);
  }
}

THM_PROPERTY("interval certification never certifies a violation of qin.residual.sigma_min_lower_bound (a theorem)", ()) {
  const Claim& c = claim("qin.residual.sigma_min_lower_bound");
  RcChoices choices;
  const Instance inst = c.generate(choices);
  if (!c.evaluate(inst, Precision::float64, Variant::claim).hypotheses_hold) RC_DISCARD("bound not positive");
  const Certification cert = c.certify(inst, 40, Variant::claim);
  RC_ASSERT(cert.verdict != CertifiedVerdict::violated);
}

TEST_CASE("the demonstration identity sharpens as the digits grow: |S1 - S2| / S2 falls with eps at every rung") {
  const Claim& c = claim("demo.fp.one_pass_variance");
  for (int i = 0; i < 8; ++i) {
    const Instance inst = generate_case(c, 5, i, 8);
    double rel[3] = {0, 0, 0};
    int k = 0;
    for (Precision p : {Precision::float64, Precision::mp50, Precision::mp100}) {
      const Evaluation e = c.evaluate(inst, p, Variant::claim);  // kept: its conditions are read below
      const Condition& cond = e.conditions.front();
      rel[k++] = cond.lhs / (cond.rhs / std::sqrt(precision_epsilon(p)));  // |S1 - S2| / S2
    }
    const double cancellation = inst.param("mean") * inst.param("mean");  // what S1 loses, up to O(n / spread^2)
    INFO("case ", i, ": ", rel[0], " / ", rel[1], " / ", rel[2], ", mean^2 = ", cancellation);
    CHECK(rel[0] <= 1e3 * 2.3e-16 * (1 + cancellation));
    CHECK(rel[1] <= 1e3 * 1e-50 * (1 + cancellation));
    CHECK(rel[2] <= 1e3 * 1e-100 * (1 + cancellation));
    CHECK(rel[1] < 1e-25);  // far inside the 50-digit tolerance: no 50-digit violation is possible
  }
}

TEST_CASE("claim demo.fp.one_pass_variance: holds at double (artifacts only) and mp50, its control is violated at both") {
  const Claim& c = claim("demo.fp.one_pass_variance");
  RunOptions o;
  o.precisions = {Precision::float64, Precision::mp50};
  for (const ClaimRun& r : run_claim(c, o)) CHECK(r.verdict == ClaimVerdict::holds);
  o.variant = Variant::negative_control;
  for (const ClaimRun& r : run_claim(c, o)) {
    CHECK(r.verdict == ClaimVerdict::violated);
    CHECK(r.cases_violated == r.cases_run);
  }
  CHECK(c.provenance == Provenance::derived);
  CHECK(std::filesystem::exists(std::filesystem::path(THM_SOURCE_DIR) / c.derivation));
}
