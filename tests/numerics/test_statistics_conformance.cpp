// The statistics behind the verdicts and the trend claims, against their textbook definitions
// (tests/fixtures/conformance/statistics.json, written by scripts/conformance/generate.py in mpmath, sharing nothing with
// numerics/ or properties/): the support test's binomial tail P(X <= held) (properties/verdicts.hpp), the exact
// Jonckheere-Terpstra tail (enumerated arrangement by arrangement) and its normal approximation with the continuity
// correction (numerics/trend_test.hpp), Spearman's rho with ties at their average rank (numerics/rank_correlation.hpp) and
// the least-squares slope's standard error on N - 2 degrees of freedom (numerics/statistics.hpp). Each to 1e-12 relative:
// the references carry 50 digits, and every quantity here is a few dozen well-conditioned double operations (Boost.Math's
// binomial and normal tails are accurate to a few ulps). With fault points built in, each checker fault of
// numerics/fault.hpp in these functions fails its comparison (the catalogue's `checks`: statistics).
#include "numerics/fault.hpp"
#include "numerics/rank_correlation.hpp"
#include "numerics/statistics.hpp"
#include "numerics/trend_test.hpp"
#include "properties/verdicts.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

using namespace thm;
using nlohmann::json;

namespace {

constexpr double kTolerance = 1e-12;

const json& fixtures() {
  static const json j = [] {
    std::ifstream f(std::string(THM_SOURCE_DIR) + "/tests/fixtures/conformance/statistics.json");
    REQUIRE_MESSAGE(f.good(), "missing fixture statistics.json (scripts/conformance/generate.py)");
    return json::parse(f);
  }();
  return j;
}

double number(const json& s) { return std::strtod(s.get<std::string>().c_str(), nullptr); }
std::vector<double> numbers(const json& a) {
  std::vector<double> v;
  for (const json& s : a) v.push_back(number(s));
  return v;
}
bool close(double measured, double reference) { return std::fabs(measured - reference) <= kTolerance * std::fabs(reference); }

// How many references of each family the code misses (0 when all agree to rounding).
int binomial_mismatches() {
  int bad = 0;
  for (const json& c : fixtures().at("binomial_lower_tail"))
    bad += !close(support_p_value(c.at("held").get<int>(), c.at("judged").get<int>(), number(c.at("p0"))), number(c.at("p_value")));
  return bad;
}
int jonckheere_exact_mismatches() {
  int bad = 0;
  for (const json& c : fixtures().at("jonckheere_exact")) {
    const std::vector<int> sizes = c.at("sizes").get<std::vector<int>>();
    const std::vector<double> tails = numbers(c.at("tails"));
    for (std::size_t j = 0; j < tails.size(); ++j) bad += !close(jonckheere_upper_tail(sizes, static_cast<int>(j)), tails[j]);
  }
  return bad;
}
int jonckheere_normal_mismatches() {
  int bad = 0;
  for (const json& c : fixtures().at("jonckheere_normal"))
    bad += !close(jonckheere_upper_tail(c.at("sizes").get<std::vector<int>>(), c.at("j").get<int>()), number(c.at("tail")));
  return bad;
}
int spearman_mismatches() {
  int bad = 0;
  for (const json& c : fixtures().at("spearman")) bad += !close(spearman_rho(numbers(c.at("x")), numbers(c.at("y"))), number(c.at("rho")));
  return bad;
}
int slope_mismatches() {
  int bad = 0;
  for (const json& c : fixtures().at("slope")) {
    const SlopeTest t = slope_test(numbers(c.at("x")), numbers(c.at("y")), 0.05);
    bad += !close(t.slope, number(c.at("slope"))) + !close(t.se, number(c.at("se")));
  }
  return bad;
}

}  // namespace

TEST_CASE("statistics conformance: each statistic equals its textbook definition to 1e-12") {
  CHECK(binomial_mismatches() == 0);
  CHECK(jonckheere_exact_mismatches() == 0);
  CHECK(jonckheere_normal_mismatches() == 0);
  CHECK(spearman_mismatches() == 0);
  CHECK(slope_mismatches() == 0);
  // The normal cases are above the exact table's size, so they exercise the approximation itself.
  for (const json& c : fixtures().at("jonckheere_normal")) {
    int n = 0;
    for (int s : c.at("sizes").get<std::vector<int>>()) n += s;
    CHECK(n > kJonckheereExactMax);
  }
}

#ifdef THM_FAULTS
TEST_CASE("statistics conformance: every checker fault in the statistics fails its comparison") {
  // The catalogue's `checks` is a promise: the faults it says this test catches are the four below.
  std::vector<std::string_view> promised;
  for (const FaultInfo& f : all_faults())
    if (f.checks == "statistics") promised.push_back(f.name);
  CHECK(promised == std::vector<std::string_view>{"support_tail_off_by_one", "trend_tail_no_continuity", "spearman_ties_ordinal", "slope_se_over_n"});
  {
    const ActiveFault guard(Fault::support_tail_off_by_one);
    CHECK(binomial_mismatches() > 0);
  }
  {
    const ActiveFault guard(Fault::trend_tail_no_continuity);
    CHECK(jonckheere_normal_mismatches() > 0);
  }
  {
    const ActiveFault guard(Fault::spearman_ties_ordinal);
    CHECK(spearman_mismatches() > 0);
  }
  {
    const ActiveFault guard(Fault::slope_se_over_n);
    CHECK(slope_mismatches() > 0);
  }
}
#endif
