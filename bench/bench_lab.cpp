// Benchmarks of the counterexample lab: the interval singular-value enclosure of an N x N
// Gaussian matrix at 30 and 60 digits, the interval certification of one case of
// qin.residual.sigma_min_lower_bound, one shrink of its negative control and one tightness search; and, side by side for
// every claim with an interval evaluation, the certification of its largest judged case of seed 1 (certify_case:
// 32 digits, escalated while undecided) against the same case's evaluation at mp50 (BM_Certify/<id>, BM_Mp50/<id>).
// Inputs are built in double from fixed seeds outside the timed loop.
#include "numerics/interval.hpp"
#include "numerics/random.hpp"
#include "numerics/random_matrix.hpp"
#include "properties/certification.hpp"
#include "properties/runner.hpp"
#include "properties/structural_search.hpp"
#include "theorems/registry.hpp"

#include <benchmark/benchmark.h>

namespace {

const thm::Claim& claim(const char* id) {
  for (const thm::Claim& c : thm::all_claims())
    if (c.id == id) return c;
  throw std::runtime_error("no claim");
}

void BM_EncloseSingularValues(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const unsigned digits = static_cast<unsigned>(state.range(1));
  thm::Rng rng(42);
  const thm::MatD m = thm::gaussian_matrix(rng, n, n, 1.0);
  const thm::IntervalPrecision guard(digits);
  const thm::IMat a = thm::to_interval(m);
  for (auto _ : state) benchmark::DoNotOptimize(thm::enclose_singular_values(a));
}
BENCHMARK(BM_EncloseSingularValues)->Args({4, 30})->Args({8, 30})->Args({16, 30})->Args({8, 60})->Unit(benchmark::kMillisecond);

void BM_CertifySigmaMin(benchmark::State& state) {
  const thm::Claim& c = claim("qin.residual.sigma_min_lower_bound");
  const thm::Instance inst = thm::generate_case(c, 1, 100, 200);
  for (auto _ : state) benchmark::DoNotOptimize(c.certify(inst, 60, thm::Variant::claim));
}
BENCHMARK(BM_CertifySigmaMin)->Unit(benchmark::kMillisecond);

void BM_ShrinkControl(benchmark::State& state) {
  const thm::Claim& c = claim("qin.residual.sigma_min_lower_bound");
  const thm::RecordedCase start = thm::record_case(c, 1, 150, 200);
  for (auto _ : state)
    benchmark::DoNotOptimize(thm::shrink_violation(c, start, thm::Variant::negative_control, thm::SearchLimits{200, 60}, 1));
}
BENCHMARK(BM_ShrinkControl)->Unit(benchmark::kMillisecond);

void BM_Tighten(benchmark::State& state) {
  const thm::Claim& c = claim("qin.residual.sigma_min_lower_bound");
  for (auto _ : state) benchmark::DoNotOptimize(thm::tighten(c, thm::Variant::claim, 1, thm::SearchLimits{200, 60}));
}
BENCHMARK(BM_Tighten)->Unit(benchmark::kMillisecond);

// The largest case of the claim's default budget (seed 1) that double judges: what a certificate costs at its worst.
thm::Instance largest_judged(const thm::Claim& c) {
  for (int i = c.default_cases - 1; i > 0; --i) {
    thm::Instance inst = thm::generate_case(c, 1, i, c.default_cases);
    if (thm::judge(thm::evaluate_case(c, inst, thm::Precision::float64, thm::Variant::claim), 1e-16).verdict != thm::CaseVerdict::discarded)
      return inst;
  }
  return thm::generate_case(c, 1, 0, c.default_cases);
}

const bool certificates_registered = [] {
  for (const thm::Claim& c : thm::all_claims()) {
    if (!c.certify) continue;
    const thm::Claim* p = &c;
    benchmark::RegisterBenchmark(("BM_Certify/" + c.id).c_str(), [p](benchmark::State& state) {
      const thm::Instance inst = largest_judged(*p);
      for (auto _ : state) benchmark::DoNotOptimize(thm::certify_case(*p, inst, thm::Variant::claim));
    })->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("BM_Mp50/" + c.id).c_str(), [p](benchmark::State& state) {
      const thm::Instance inst = largest_judged(*p);
      for (auto _ : state) benchmark::DoNotOptimize(thm::evaluate_case(*p, inst, thm::Precision::mp50, thm::Variant::claim));
    })->Unit(benchmark::kMillisecond);
  }
  return true;
}();

}  // namespace
