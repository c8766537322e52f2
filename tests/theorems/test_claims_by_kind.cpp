// What every claim of a kind must do, over the registry (theorems/registry.hpp), so a new claim is tested by its kind
// without a test of its own: RapidCheck finds no counterexample to an inequality claim, and every identity claim
// sharpens as the digits grow. The per-claim tests (test_claims_qin.cpp, test_claims_goel.cpp) keep only what is
// particular to one claim.
#include "properties/doctest_rapidcheck.hpp"
#include "properties/rc_choices.hpp"
#include "properties/runner.hpp"
#include "theorems/registry.hpp"

#include <algorithm>
#include <string>
#include <vector>

using namespace thm;

namespace {

std::vector<const Claim*> claims_of_kind(ClaimKind kind) {
  std::vector<const Claim*> out;
  for (const Claim& c : all_claims())
    if (c.kind == kind) out.push_back(&c);
  return out;
}

// A condition whose bound shrinks with the working precision: at least ten decades from double to mp50 and again from
// mp50 to mp100 (a rounding allowance falls with eps, 34 and 50 decades; a Richardson tolerance with about sqrt(eps),
// 17 and 25). Bounds that do not shrink (a Monte-Carlo z SE, a bias) are not precision's to sharpen.
bool precision_scaled(const Condition& d64, const Condition& d50, const Condition& d100) {
  return !d64.ge && d64.rhs > 0 && d50.rhs <= 1e-10 * d64.rhs && d100.rhs <= 1e-10 * d50.rhs;
}

}  // namespace

// RapidCheck drives each inequality claim's own generator at double; any violated case fails and shrinks. The
// property's id is the claim's, so RC_PARAMS="reproduce=..." replays it.
TEST_CASE("every inequality claim: RapidCheck finds no counterexample (double)") {
  const std::vector<const Claim*> claims = claims_of_kind(ClaimKind::inequality);
  REQUIRE(claims.size() >= 5);
  for (const Claim* c : claims) {
    const testing::PropertyResult r = testing::check_property(c->id + " has no RapidCheck counterexample (double)", [c] {
      RcChoices src;
      const Instance inst = c->generate(src);
      const Evaluation e = c->evaluate(inst, Precision::float64, Variant::claim);
      const CaseOutcome o = judge(e, precision_epsilon(Precision::float64));
      if (o.verdict == CaseVerdict::violated) {
        const Condition& w = e.conditions[o.worst_condition];
        RC_FAIL(w.name + ": lhs " + w.lhs_exact + ", rhs " + w.rhs_exact + ", margin " + exact_decimal(w.margin) + ", noise " +
                exact_decimal(w.noise) + " on " + inst.describe());
      }
      RC_TAG(std::string(to_string(o.verdict)));
    });
    INFO(c->id << ": " << r.message);
    CHECK(r.ok);
    CHECK(r.cases >= 100);  // RC_PARAMS max_success (tests/CMakeLists.txt): every property ran in full
  }
}

// The same instances at double, mp50 and mp100: the claim's conditions are the same list at every precision, some of
// them have a bound that shrinks with the precision, and each of those holds at mp50 and mp100, so the measured error
// has fallen with the bound by at least twenty decades. Double is judged by the claim's run (claim.<id>.as_expected),
// where a rounding artifact of the demonstration claim is expected.
TEST_CASE("every identity claim sharpens from double to mp50 to mp100 on the same instances") {
  constexpr int kInstances = 2;
  const std::vector<const Claim*> claims = claims_of_kind(ClaimKind::identity);
  REQUIRE(claims.size() >= 5);
  for (const Claim* c : claims) {
    int judged = 0, scaled = 0;
    for (int i = 0; i < kInstances; ++i) {
      const Instance inst = generate_case(*c, 20261207, i, kInstances);
      const Evaluation e64 = c->evaluate(inst, Precision::float64, Variant::claim), e50 = c->evaluate(inst, Precision::mp50, Variant::claim),
                       e100 = c->evaluate(inst, Precision::mp100, Variant::claim);
      if (!e64.hypotheses_hold || !e50.hypotheses_hold || !e100.hypotheses_hold) continue;
      ++judged;
      REQUIRE(e50.conditions.size() == e64.conditions.size());
      REQUIRE(e100.conditions.size() == e64.conditions.size());
      for (std::size_t k = 0; k < e64.conditions.size(); ++k) {
        const Condition &d64 = e64.conditions[k], &d50 = e50.conditions[k], &d100 = e100.conditions[k];
        CHECK(d50.name == d64.name);
        CHECK(d100.name == d64.name);
        if (!precision_scaled(d64, d50, d100)) continue;
        ++scaled;
        INFO(c->id << " case " << i << ", " << d64.name << ": " << d64.lhs << " / " << d50.lhs << " / " << d100.lhs << " against "
                   << d64.rhs << " / " << d50.rhs << " / " << d100.rhs);
        CHECK(d50.verdict == CaseVerdict::holds);
        CHECK(d100.verdict == CaseVerdict::holds);
      }
    }
    INFO(c->id);
    CHECK(judged > 0);  // never vacuous
    CHECK(scaled > 0);  // an identity has a part that the working precision decides
  }
}
