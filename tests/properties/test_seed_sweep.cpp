// stability's seed sweep (properties/seed_sweep.hpp) and its JSON (reports/stability_json.hpp) without the command
// line: worker processes give the resolved verdict run gives for each seed, the same table for any number of workers,
// and a failing worker fails the sweep.
#include "properties/seed_sweep.hpp"
#include "reports/stability_json.hpp"
#include "tests/support/synthetic_claim.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <stdexcept>

using namespace thm;

namespace {

RunOptions small_run() {
  RunOptions o;
  o.precisions = {Precision::float64};
  o.cases = 20;
  return o;
}

}  // namespace

TEST_CASE("seed sweep: every seed's verdict is the resolved verdict of run_claim, in seed order, whatever the workers") {
  Claim holds = testing::synthetic_claim(0.0, 1.0);  // x <= 1 on x in [0, 1]: holds on every seed
  holds.id = "test.sweep.holds";
  Claim fails = testing::synthetic_claim(0.0, 2.0);  // x in [0, 2]: about half the cases violate x <= 1
  fails.id = "test.sweep.fails";
  const std::vector<const Claim*> claims{&holds, &fails};
  const std::vector<std::uint64_t> seeds{3, 11, 2026};
  const RunOptions o = small_run();
  std::size_t last_done = 0, last_total = 0;
  const SeedSweep one = sweep_seeds(claims, seeds, o, 1);
  const SeedSweep three = sweep_seeds(claims, seeds, o, 3, [&](std::size_t done, std::size_t total, int workers) {
    last_done = done;
    last_total = total;
    CHECK(workers == 3);
  });
  CHECK(last_done <= last_total);
  REQUIRE(one.verdicts.size() == seeds.size());
  CHECK(one.seeds == seeds);
  for (std::size_t k = 0; k < seeds.size(); ++k) {
    REQUIRE(one.verdicts[k].size() == claims.size());
    for (std::size_t c = 0; c < claims.size(); ++c) {
      RunOptions direct = o;
      direct.seed = seeds[k];
      const std::vector<ClaimRun> rows = run_claim(*claims[c], direct);
      const ResolvedVerdict v = resolve({&rows.front()});
      CHECK(one.verdicts[k][c].verdict == v.verdict);
      CHECK(one.verdicts[k][c].expected == v.expected);
      CHECK(one.verdicts[k][c].as_expected == v.is_expected());
      CHECK(three.verdicts[k][c].verdict == one.verdicts[k][c].verdict);
      CHECK(three.verdicts[k][c].as_expected == one.verdicts[k][c].as_expected);
    }
  }
  // The holding claim is as expected everywhere; the failing one is listed on every seed, in seed order.
  CHECK(one.unexpected(0).empty());
  const auto bad = one.unexpected(1);
  REQUIRE(bad.size() == seeds.size());
  for (std::size_t k = 0; k < seeds.size(); ++k) {
    CHECK(bad[k].first == seeds[k]);
    CHECK(bad[k].second == ClaimVerdict::violated);
  }
  CHECK(one.unexpected_total() == static_cast<int>(seeds.size()));
}

TEST_CASE("seed sweep: a worker that fails fails the sweep (no table)") {
  Claim broken = testing::synthetic_claim(0.0, 1.0);
  broken.id = "test.sweep.throws";
  broken.generate = [](ChoiceSource&) -> Instance { throw std::runtime_error("generator broken on purpose"); };
  CHECK_THROWS_AS(sweep_seeds({&broken}, {1, 2}, small_run(), 2), std::runtime_error);
}

TEST_CASE("seed sweep: the stability JSON lists each claim's expected verdict and unexpected seeds, and every seed's verdicts") {
  Claim a = testing::synthetic_claim(0.0, 1.0);
  a.id = "test.sweep.a";
  Claim b = testing::synthetic_claim(0.0, 1.0);
  b.id = "test.sweep.b";
  SeedSweep sweep;
  sweep.seeds = {5, 9};
  sweep.claims = {&a, &b};
  sweep.verdicts = {{{ClaimVerdict::holds, ClaimVerdict::holds, true}, {ClaimVerdict::inconclusive, ClaimVerdict::inconclusive, true}},
                    {{ClaimVerdict::violated, ClaimVerdict::holds, false}, {ClaimVerdict::inconclusive, ClaimVerdict::inconclusive, true}}};
  const nlohmann::json j = nlohmann::json::parse(stability_json(sweep, "5,9", Variant::claim, "double"));
  CHECK(j["seeds"] == "5,9");
  CHECK(j["variant"] == "claim");
  CHECK(j["precision"] == "double");
  REQUIRE(j["claims"].size() == 2);
  CHECK(j["claims"][0]["id"] == "test.sweep.a");
  CHECK(j["claims"][0]["expected_verdict"] == "holds");
  REQUIRE(j["claims"][0]["unexpected"].size() == 1);
  CHECK(j["claims"][0]["unexpected"][0]["seed"] == 9);
  CHECK(j["claims"][0]["unexpected"][0]["verdict"] == "violated");
  CHECK(j["claims"][1]["expected_verdict"] == "inconclusive");
  CHECK(j["claims"][1]["unexpected"].empty());
  REQUIRE(j["per_seed"].size() == 2);
  CHECK(j["per_seed"][1]["seed"] == 9);
  CHECK(j["per_seed"][1]["verdicts"]["test.sweep.a"] == "violated");
  CHECK(sweep.unexpected_total() == 1);
}
