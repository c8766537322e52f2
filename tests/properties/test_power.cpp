// Resolving power (properties/power.hpp; docs/verdicts.md, section 7): strengths, the strengthened claim, the power
// calculation against a synthetic claim whose strengths are known in closed form, and controls by factor.
#include "properties/power.hpp"
#include "properties/verdicts.hpp"
#include "tests/support/synthetic_claim.hpp"
#include "theorems/registry.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <string>

using namespace thm;

TEST_CASE("power: a condition's default strength is bound / measured, measured / bound for >=, NaN without a scale") {
  CHECK(make_le<double>("x <= 2", 0.5, 2.0, 0.0).strength == doctest::Approx(4.0));
  CHECK(make_ge<double>("y >= 3", 6.0, 3.0, 0.0).strength == doctest::Approx(2.0));
  CHECK(std::isinf(make_le<double>("0 <= 1", 0.0, 1.0, 0.0).strength));
  CHECK(std::isnan(make_le<double>("sign", -2.0, -1.0, 0.0).strength));
  CHECK(std::isnan(with_strength(make_le<double>("x <= 2", 0.5, 2.0, 0.0), kNotScaled).strength));
}

TEST_CASE("power: the strengthened evaluation judges each scalable condition at the factor, the others unchanged") {
  Evaluation e;
  e.conditions.push_back(make_le<double>("x <= 2", 1.0, 2.0, 0.0));  // strength 2
  e.conditions.push_back(with_strength(make_le<double>("kept", 1.0, 2.0, 0.0), kNotScaled));
  CHECK(judge(e, 1e-16).strength == doctest::Approx(2.0));
  const Evaluation weak = strengthened(e, 1.5), strong = strengthened(e, 3.0);
  CHECK(judge(weak, 1e-16).verdict == CaseVerdict::holds);
  CHECK(judge(strong, 1e-16).verdict == CaseVerdict::violated);
  CHECK(strong.conditions[1].verdict == CaseVerdict::holds);  // not scalable: its own verdict
  // Within the strength's rounding uncertainty: inconclusive, never a pass.
  e.conditions[0].strength_noise = 0.1;
  CHECK(judge(strengthened(e, 2.05), 1e-16).verdict == CaseVerdict::inconclusive);
}

TEST_CASE("power: tightness and resolving factor of a claim whose case strengths are 1/x, x uniform in [0, 0.5]") {
  // x <= 1 with x ~ U[0, 0.5]: strength 1/x >= 2; P(strength < k) = 1 - 2/k, so a run of 50 cases is caught at k with
  // probability 1 - (2/k)^50: 0.99 at k = 2 * 100^(1/50) = 2.19 (the lower confidence bound on the share moves it up
  // a little), 0.999 at 2 * 1000^(1/50) = 2.30.
  const Claim c = testing::synthetic_claim(0.0, 0.5);
  PowerOptions o;
  for (std::uint64_t s = 1; s <= 20; ++s) o.seeds.push_back(s);
  o.run.precisions = {Precision::float64};
  const ClaimPower p = measure_power(c, o);
  CHECK(p.status == "measured");
  CHECK(p.seeds == 20);
  CHECK(p.judged_per_run == 50);
  CHECK(p.strength >= 2.0);
  CHECK(p.strength < 2.05);
  CHECK(p.resolving_factor > 2.19);
  CHECK(p.resolving_factor < 2.3);
  CHECK(p.factor_999 > p.resolving_factor);
  CHECK(p.factor_999 < 2.45);
  for (const PowerPoint& g : p.grid)
    if (g.factor >= 4) CHECK(g.power > 0.999);
  CHECK(p.grid.front().power == 0);  // k = 1.1 < t: nothing is caught
}

TEST_CASE("power: a negative control by factor is the claim strengthened, and an empirical one raises the support") {
  Claim c = testing::synthetic_claim(0.0, 0.5);
  c.control_factor = 4;
  // The runner reads the control from the claim's evaluate; make_claim wires control_factor there for registered
  // claims, which a synthetic claim does by hand.
  const auto claim_eval = c.evaluate;
  c.evaluate = [claim_eval](const Instance& inst, Precision p, Variant v) {
    return v == Variant::claim ? claim_eval(inst, p, v) : strengthened(claim_eval(inst, p, Variant::claim), 4);
  };
  RunOptions o;
  o.precisions = {Precision::float64};
  CHECK(run_claim(c, o).front().verdict == ClaimVerdict::holds);
  o.variant = Variant::negative_control;
  CHECK(run_claim(c, o).front().verdict == ClaimVerdict::violated);

  Claim t = testing::synthetic_claim(0.0, 1.05);  // about 5% of cases violate x <= 1
  t.required_support = 0.8;
  t.control_factor = 100;  // support 1 - 0.2 / 100 = 0.998
  CHECK(required_support(t, Variant::negative_control) == doctest::Approx(0.998));
  CHECK(aggregate_verdict(t, CaseCounts{50, 47, 0, 0, 3}, Variant::claim) == ClaimVerdict::holds);
  CHECK(aggregate_verdict(t, CaseCounts{50, 47, 0, 0, 3}, Variant::negative_control) == ClaimVerdict::violated);
}

TEST_CASE("power: the support calculation matches the binomial test") {
  CHECK(std::isinf(support_strength(50, 50, 0.9)));
  // 45 of 50 held: the largest support not rejected at 1e-3 is below 1, so a finite factor would catch it.
  const double t = support_strength(45, 50, 0.9);
  CHECK(t > 0);
  CHECK(std::isfinite(t));
  // A hold rate of 0.5 against a claimed 0.9: caught at factor 1 with near certainty (docs/verdicts.md, section 6).
  CHECK(support_power(500, 1000, 50, 0.9, 1.0) > 0.99);
  CHECK(support_power(1000, 1000, 50, 0.9, 1e6) == 0);  // every case held: no support is rejected
}

// The measured resolving power is one fact in two places: docs/power.json (thmcheck power --seeds 1..20 --out, which the
// catalogue's table is generated from) and each claim's ClaimInfo::resolving_factor (its reports print it). They agree to
// the four significant digits the claim files carry, and a claim has one exactly when the file measured it.
TEST_CASE("power: every claim's resolving factor is the one docs/power.json measured") {
  std::ifstream f(std::string(THM_SOURCE_DIR) + "/docs/power.json");
  REQUIRE(f.good());
  const nlohmann::json power = nlohmann::json::parse(f);
  std::map<std::string, double> measured;
  for (const nlohmann::json& c : power.at("claims"))
    if (c.at("status") == "measured" && c.at("resolving_factor").is_number() && std::isfinite(c.at("resolving_factor").get<double>()))
      measured[c.at("id").get<std::string>()] = c.at("resolving_factor").get<double>();
  for (const Claim& c : all_claims()) {
    const auto it = measured.find(c.id);
    INFO(c.id);
    if (it == measured.end()) {
      CHECK(c.resolving_factor == 0.0);
    } else {
      CHECK(std::fabs(c.resolving_factor - it->second) <= 5e-4 * it->second);
    }
  }
}

static std::string derivation_text(const Claim& c) {
  std::ifstream in(std::filesystem::path(THM_SOURCE_DIR) / c.derivation);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The support test's tail by direct summation in long double, sharing nothing with Boost.Math: P(Bin(n, p) <= k).
static long double binomial_cdf_by_sum(int n, long double p, int k) {
  long double term = std::pow(1.0L - p, n), sum = 0;  // P(X = 0)
  for (int i = 0; i <= k; ++i) {
    sum += term;
    term *= static_cast<long double>(n - i) / (i + 1) * p / (1.0L - p);  // P(X = i + 1) from P(X = i)
  }
  return sum;
}

TEST_CASE("named alternatives: every empirical trend that is not a finding names a weaker hold rate, its power is the "
          "support test's, and a claim below 0.99 says in its derivation that it is underpowered against it") {
  int named = 0;
  for (const Claim& c : all_claims()) {
    if (c.required_support >= 1.0 || c.finding) continue;
    CAPTURE(c.id);
    REQUIRE(c.alternative_support > 0);
    CHECK(c.alternative_support < c.required_support);
    // The rejection region from its definition: held <= k for the largest k with P(Bin(n, p0) <= k) < 1e-3.
    int k = -1;
    while (k + 1 < c.default_cases && binomial_cdf_by_sum(c.default_cases, c.required_support, k + 1) < 1e-3L) ++k;
    const double expected = k < 0 ? 0.0 : static_cast<double>(binomial_cdf_by_sum(c.default_cases, c.alternative_support, k));
    CHECK(alternative_power(c) == doctest::Approx(expected).epsilon(1e-9));
    CHECK(describe_alternative(c).find("power") != std::string::npos);
    if (alternative_power(c) < kResolvingPower)
      CHECK(derivation_text(c).find("underpowered against its alternative") != std::string::npos);
    ++named;
  }
  CHECK(named >= 6);
  // Claims judged case by case name none.
  for (const Claim& c : all_claims())
    if (c.required_support >= 1.0) CHECK(std::isnan(alternative_power(c)));
}

// A finding's power to show (finding_power): the support test at its default cases, computed by the binomial sum above
// at the share's upper bound; every finding with a measured share shows with probability at least 0.99 at its default
// cases (else make run would call it underpowered), and one shown by a study's grid has none.
TEST_CASE("findings: the power to show each one at its default cases is the support test's, at least 0.99") {
  int shown_by_cases = 0, shown_by_grid = 0;
  for (const Claim& c : all_claims()) {
    if (!c.finding) {
      CHECK(std::isnan(finding_power(c)));
      CHECK(describe_finding_power(c).empty());
      continue;
    }
    CAPTURE(c.id);
    if (!c.finding->measured) {
      CHECK(std::isnan(finding_power(c)));
      CHECK(describe_finding_power(c).find("study's grid") != std::string::npos);
      ++shown_by_grid;
      continue;
    }
    const double p = share_upper_bound(*c.finding->measured);
    int k = -1;
    while (k + 1 < c.default_cases && binomial_cdf_by_sum(c.default_cases, c.required_support, k + 1) < 1e-3L) ++k;
    const double expected = k < 0 ? 0.0 : static_cast<double>(binomial_cdf_by_sum(c.default_cases, p, k));
    CHECK(finding_power(c) == doctest::Approx(expected).epsilon(1e-9));
    CHECK(finding_power(c) >= kPowerLevel);
    CHECK(describe_finding_power(c).find("shows with probability") != std::string::npos);
    ++shown_by_cases;
  }
  CHECK(shown_by_cases >= 2);
  CHECK(shown_by_grid >= 1);
}
