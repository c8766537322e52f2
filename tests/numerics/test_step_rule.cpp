// The step rule where the run goes (numerics/models/goel/factor_hessian.hpp, settled_run; goel.finite_data.md, "Step
// size"): a run that climbs where its end point breaks GD's hypothesis eta lambda_max <= 1 is repeated at the cap there;
// a run that descends, or climbs within the hypothesis, keeps its step. Runs and Hessians are stand-ins here: the rule's
// logic alone (the instance that needed it is in tests/theorems/test_claims_goel.cpp).
#include "numerics/models/goel/factor_hessian.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace {

struct FakeRecord {
  std::vector<double> objective;
};
// A run's end point is one number here, its curvature lambda_max the Hessian's one entry.
struct FakeRun {
  FakeRecord record;
  double final = 0;
  bool diverged = false;
};

// The options a run takes: only the step here.
struct FakeOptions {
  double eta = 1.0;
};

thm::MatD curvature(double lambda) { return thm::MatD::Constant(1, 1, lambda); }

const std::vector<double> kDescends{3.0, 2.0, 1.5, 1.25, 1.25};
const std::vector<double> kCycles{3.0, 1.0, 1.2, 1.1, 1.2, 1.1};

}  // namespace

TEST_CASE("step rule: a climb within rounding is no climb, one beyond it is") {
  const double eps = std::numeric_limits<double>::epsilon();
  CHECK_FALSE(thm::objective_rose(kDescends));
  CHECK_FALSE(thm::objective_rose(std::vector<double>{1.0, 1.0 + 50 * eps, 1.0}));
  CHECK(thm::objective_rose(std::vector<double>{1.0, 1.0 + 300 * eps}));
  CHECK(thm::objective_rose(kCycles));
  CHECK_FALSE(thm::objective_rose(std::vector<double>{}));
}

TEST_CASE("step rule: a run that cycles where eta lambda_max > 1 is repeated at the cap there, a power of two") {
  std::vector<double> steps;
  FakeOptions o;
  const FakeRun run = thm::settled_run(
      o,
      [&](const FakeOptions& at) {
        steps.push_back(at.eta);
        return FakeRun{{at.eta < 0.5 ? kDescends : kCycles}, 3.0};  // the end point: curvature 3 (eta lambda = 3 at eta 1)
      },
      [](double at) { return curvature(at); });
  CHECK(steps == std::vector<double>{1.0, 0.25});  // 2^floor(log2(1/3))
  CHECK(o.eta == 0.25);
  CHECK_FALSE(thm::objective_rose(run.record.objective));
}

TEST_CASE("step rule: a run that descends, or climbs within GD's hypothesis, or diverges keeps its step") {
  int runs = 0;
  const auto count = [&](FakeRun r) {
    return [&runs, r](const FakeOptions&) {
      ++runs;
      return r;
    };
  };
  const auto hessian = [](double at) { return curvature(at); };
  FakeOptions o;
  thm::settled_run(o, count(FakeRun{{kDescends}, 3.0}), hessian);  // descends although eta lambda = 3
  CHECK((runs == 1 && o.eta == 1.0));
  runs = 0;
  thm::settled_run(o, count(FakeRun{{kCycles}, 0.9}), hessian);  // climbs, eta lambda = 0.9 (a non-descent method)
  CHECK((runs == 1 && o.eta == 1.0));
  runs = 0;
  thm::settled_run(o, count(FakeRun{{kCycles}, 3.0, true}), hessian);  // diverged: the claims judge it
  CHECK((runs == 1 && o.eta == 1.0));
}

TEST_CASE("step rule: a run that climbs at every step tried is repeated at most kStepSettles times") {
  int runs = 0;
  FakeOptions o;
  thm::settled_run(
      o,
      [&](const FakeOptions& at) {
        ++runs;
        return FakeRun{{kCycles}, 3.0 / at.eta};  // eta lambda = 3 at every step
      },
      [](double at) { return curvature(at); });
  CHECK(runs == 1 + thm::kStepSettles);
  CHECK(o.eta == std::ldexp(1.0, -2 * thm::kStepSettles));  // a quarter each time: 2^floor(log2(eta / 3))
}
