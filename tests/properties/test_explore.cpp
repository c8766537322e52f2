// explore's ladder (properties/explore.hpp) without the command line: each rung's verdict, the digits on which
// consecutive margins agree, the quantities per rung, and the classification the runner's ladder gives.
#include "properties/explore.hpp"

#include <doctest/doctest.h>

#include <cmath>

using namespace thm;

namespace {

// (1 + 1e-20) - 1 >= 0.5e-20: true, but double rounds 1 + 1e-20 to 1 (false only in floating point); the negative
// control 1 >= 2 is false at every precision. Observes the left side, and a two-point curve.
template <class T>
Evaluation floating_point_only_with_curve(bool broken) {
  Evaluation e;
  const T lhs = broken ? T(1) : T(T(1) + T(1e-20)) - T(1);
  const T rhs = broken ? T(2) : T(0.5e-20);
  e.conditions.push_back(make_ge<T>(broken ? "1 >= 2" : "(1 + 1e-20) - 1 >= 0.5e-20", lhs, rhs, T(0)));
  e.observations.emplace_back("lhs", static_cast<double>(lhs));
  e.add_point("curve", "t", 0, 1.0);
  e.add_point("curve", "t", 1, 0.5);
  return e;
}

Claim ladder_claim_with_curve() {
  Claim c;
  c.id = "test.floating_point_only";
  c.source = "test";
  c.provenance = Provenance::derived;
  c.kind = ClaimKind::identity;
  c.generate = [](ChoiceSource&) { return Instance{}; };
  c.evaluate = [](const Instance&, Precision, Variant v) { return floating_point_only_with_curve<double>(v == Variant::negative_control); };
  c.evaluate_digits = [](const Instance&, int digits, Variant v) {
    const DigitsGuard guard(digits);
    return floating_point_only_with_curve<mpfr_dynamic>(v == Variant::negative_control);
  };
  return c;
}

}  // namespace

TEST_CASE("explore: a violation only double sees is a rounding artifact, and the rungs and their agreement are reported") {
  const Claim c = ladder_claim_with_curve();
  std::vector<std::string> seen;
  const ExploreResult r = explore_ladder(c, Instance{}, Variant::claim, {30, 50}, [&](const ExploreRung& k) { seen.push_back(k.name); });
  CHECK(seen == std::vector<std::string>{"double", "30 digits", "50 digits"});  // each rung as soon as it is evaluated
  REQUIRE(r.rungs.size() == 3);
  CHECK(r.rungs[0].digits == 0);
  CHECK(r.rungs[0].outcome.verdict == CaseVerdict::violated);
  CHECK(r.rungs[1].outcome.verdict == CaseVerdict::holds);
  CHECK(r.rungs[2].outcome.verdict == CaseVerdict::holds);
  CHECK(r.rungs[0].condition == "(1 + 1e-20) - 1 >= 0.5e-20");
  CHECK(r.rungs[0].ge);
  CHECK(r.rungs[0].measured == "0");
  CHECK_FALSE(r.rungs[0].agreeing_digits.has_value());
  // Margins: -0.5e-20 in double, about +0.5e-20 at 30 and at 50 digits (1 + 1e-20 rounded to about 100 bits is off
  // by about 1e-30, ten digits below the margin).
  REQUIRE(r.rungs[1].agreeing_digits.has_value());
  CHECK(*r.rungs[1].agreeing_digits == doctest::Approx(agreeing_digits(r.rungs[0].margin, r.rungs[1].margin)));
  CHECK(*r.rungs[1].agreeing_digits < 1);  // opposite signs agree on no digit
  CHECK(*r.rungs[2].agreeing_digits > 5);
  CHECK(r.classification == ExploreClass::rounding_artifact);
  // The quantities: the observation, then each point of the curve labelled with its abscissa; one value per rung.
  const std::vector<QuantityRow> table = quantity_table(r, 40);
  REQUIRE(table.size() == 3);
  CHECK(table[0].name == "lhs");
  CHECK(table[1].name == "curve (t = 0)");
  CHECK(table[2].name == "curve (t = 1)");
  REQUIRE(table[0].values.size() == 3);
  CHECK(*table[0].values[0] == 0.0);
  CHECK(*table[0].values[1] == doctest::Approx(1e-20).epsilon(1e-6));
  CHECK(*table[2].agreeing_digits == 17);  // 0.5 at 30 and at 50 digits
  CHECK(quantity_table(r, 1).size() == 1);
}

TEST_CASE("explore: violated at every rung is genuine, holding at every rung holds") {
  const Claim c = ladder_claim_with_curve();
  CHECK(explore_ladder(c, Instance{}, Variant::negative_control, {30}).classification == ExploreClass::genuine);
  Claim holds = c;
  holds.evaluate = [](const Instance&, Precision, Variant) {
    Evaluation e;
    e.conditions.push_back(make_le<double>("1 <= 2", 1.0, 2.0, 0.0));
    return e;
  };
  holds.evaluate_digits = [&](const Instance& i, int, Variant v) { return holds.evaluate(i, Precision::float64, v); };
  const ExploreResult r = explore_ladder(holds, Instance{}, Variant::claim, {30, 40});
  CHECK(r.classification == ExploreClass::holds);
  CHECK(*r.rungs[2].agreeing_digits == 17);  // the same margin
  Claim discards = c;
  discards.evaluate = [](const Instance&, Precision, Variant) { return Evaluation::discarded("hypothesis false"); };
  const ExploreResult d = explore_ladder(discards, Instance{}, Variant::claim, {30});
  CHECK(d.classification == ExploreClass::discarded);
  CHECK(d.rungs[0].condition == "hypothesis false");
  CHECK(d.rungs[0].outcome.worst_condition < 0);
}

TEST_CASE("explore: interval certification refuses a matrix beyond its largest side, naming it") {
  Instance inst;
  inst.matrices["small"] = MatD::Zero(3, 3);
  CHECK_FALSE(oversized_for_interval(inst).has_value());
  inst.matrices["wide"] = MatD::Zero(2, kMaxIntervalDimension + 1);
  const std::optional<OversizedMatrix> m = oversized_for_interval(inst);
  REQUIRE(m.has_value());
  CHECK(m->name == "wide");
  CHECK(m->rows == 2);
  CHECK(m->cols == kMaxIntervalDimension + 1);
}

TEST_CASE("explore: an instance judged in double gets the double rung's evaluation and verdict") {
  const Claim c = ladder_claim_with_curve();
  const JudgedInstance claim = judge_in_double(c, Instance{}, Variant::claim);
  CHECK(claim.verdict == CaseVerdict::violated);  // double rounds 1 + 1e-20 to 1
  REQUIRE(claim.evaluation.conditions.size() == 1);
  CHECK(claim.evaluation.conditions[0].name == "(1 + 1e-20) - 1 >= 0.5e-20");
  CHECK(judge_in_double(c, Instance{}, Variant::negative_control).evaluation.conditions[0].name == "1 >= 2");
}
