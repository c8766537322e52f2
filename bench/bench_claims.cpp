// Whole-claim cost: generating and evaluating one case of each claim, per precision. This is what
// sizes the default budgets (make run) and the MP tiers.
#include "properties/runner.hpp"
#include "theorems/registry.hpp"

#include <benchmark/benchmark.h>

namespace {

void BM_ClaimCase(benchmark::State& state, const thm::Claim* claim, thm::Precision p) {
  // A mid-size case of the default budget, fixed seed.
  const thm::Instance inst = thm::generate_case(*claim, 1, claim->default_cases / 2, claim->default_cases);
  for (auto _ : state) {
    thm::Evaluation e = claim->evaluate(inst, p, thm::Variant::claim);
    benchmark::DoNotOptimize(e);
  }
  state.SetLabel(inst.describe().substr(0, 60));
}

const bool claim_cases_registered = [] {
  for (const thm::Claim& c : thm::all_claims())
    for (thm::Precision p : {thm::Precision::float64, thm::Precision::mp50, thm::Precision::mp100})
      benchmark::RegisterBenchmark((c.id + "/" + std::string(thm::precision_name(p))).c_str(), BM_ClaimCase, &c, p)
          ->Unit(benchmark::kMillisecond)
          ->MinTime(0.05);
  return true;
}();

}  // namespace
