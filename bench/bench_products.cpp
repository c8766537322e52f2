// Square matrix products at 50 and 100 digits (mpfr_dynamic at 100, as the claims' mp100 rung): the Ozaki scheme (numerics/ozaki_product.hpp) beside the MPFR loop
// (product_mpfr_loop) and Eigen's double product, N in {8, 16, 32, 64, 128}. Entries: N(0, 1) / 3 formed at the
// working precision (every digit of the significand is used).
#include "numerics/matmul.hpp"
#include "numerics/random.hpp"
#include "numerics/scalar.hpp"

#include <benchmark/benchmark.h>

#include <array>
#include <optional>

namespace {

template <class T>
thm::Mat<T> operand(int n, std::uint64_t seed) {
  thm::Rng rng(seed);
  thm::Mat<T> m(n, n);
  for (Eigen::Index e = 0; e < m.size(); ++e) m.data()[e] = T(rng.normal()) / T(3);
  return m;
}

template <class T, int Digits = 0>
void BM_ProductOzaki(benchmark::State& state) {
  std::optional<thm::DigitsGuard> digits;  // mpfr_dynamic at Digits (the mp50 or mp100 rung)
  if constexpr (Digits > 0) digits.emplace(Digits);
  const int n = static_cast<int>(state.range(0));
  const thm::Mat<T> a = operand<T>(n, 1), b = operand<T>(n, 2);
  thm::Mat<T> c;
  for (auto _ : state) {
    if (!thm::product_ozaki(a, b, thm::Trans::none, thm::Trans::none, c)) state.SkipWithError("scheme declined");
    benchmark::DoNotOptimize(c.data());
  }
}

template <class T, int Digits = 0>
void BM_ProductMpfrLoop(benchmark::State& state) {
  std::optional<thm::DigitsGuard> digits;  // mpfr_dynamic at Digits (the mp50 or mp100 rung)
  if constexpr (Digits > 0) digits.emplace(Digits);
  const int n = static_cast<int>(state.range(0));
  const thm::Mat<T> a = operand<T>(n, 1), b = operand<T>(n, 2);
  for (auto _ : state) {
    thm::Mat<T> c = thm::product_mpfr_loop(a, b);
    benchmark::DoNotOptimize(c.data());
  }
}

void BM_ProductDouble(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const thm::MatD a = operand<double>(n, 1), b = operand<double>(n, 2);
  for (auto _ : state) {
    thm::MatD c = thm::product(a, b);
    benchmark::DoNotOptimize(c.data());
  }
}

}  // namespace

BENCHMARK_TEMPLATE(BM_ProductOzaki, thm::mpfr_dynamic, thm::mp50_digits)->RangeMultiplier(2)->Range(8, 128)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_ProductMpfrLoop, thm::mpfr_dynamic, thm::mp50_digits)->RangeMultiplier(2)->Range(8, 128)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_ProductOzaki, thm::mpfr_dynamic, thm::mp100_digits)->RangeMultiplier(2)->Range(8, 128)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_ProductMpfrLoop, thm::mpfr_dynamic, thm::mp100_digits)->RangeMultiplier(2)->Range(8, 128)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ProductDouble)->RangeMultiplier(2)->Range(8, 128)->Unit(benchmark::kMicrosecond);

namespace {

// Thin and small products (rows x inner x cols) as the [Q] models at small sizes make them: where the loop and the
// scheme cross (ozaki::kMinWork).
void BM_ProductShape(benchmark::State& state, bool ozaki) {
  using T = thm::mpfr_dynamic;
  const thm::DigitsGuard digits(thm::mp50_digits);
  const auto rows = state.range(0), inner = state.range(1), cols = state.range(2);
  thm::Rng rng(3);
  thm::Mat<T> a(rows, inner), b(inner, cols), c;
  for (Eigen::Index e = 0; e < a.size(); ++e) a.data()[e] = T(rng.normal()) / T(3);
  for (Eigen::Index e = 0; e < b.size(); ++e) b.data()[e] = T(rng.normal()) / T(3);
  for (auto _ : state) {
    if (ozaki) thm::product_ozaki(a, b, thm::Trans::none, thm::Trans::none, c);
    else c = thm::product_mpfr_loop(a, b);
    benchmark::DoNotOptimize(c.data());
  }
}

void shapes(benchmark::internal::Benchmark* b) {
  for (auto s : {std::array<long, 3>{4, 4, 4}, {8, 4, 8}, {8, 8, 8}, {16, 8, 8}, {8, 16, 8}, {16, 8, 16}, {16, 16, 16}, {8, 48, 48}})
    b->Args({s[0], s[1], s[2]});
}

}  // namespace

BENCHMARK_CAPTURE(BM_ProductShape, ozaki_mp50, true)->Apply(shapes)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ProductShape, loop_mp50, false)->Apply(shapes)->Unit(benchmark::kMicrosecond);
