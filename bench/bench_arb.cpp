// MPFI (Boost.Multiprecision through Eigen, the certification layer) beside Arb's ball arithmetic (Debian's
// libflint-arb-dev) on the kernels of the [Q] interval gradient, at the certificates' first precision (32 digits,
// 107 bits): the matrix product at the gradient's shapes (N x d times d x m for the stacked samples, d x d) and the
// elementwise exp of softmax. Side by side in one run: the ratio is what matters (bench/README.md, "Certification").
// Also the whole interval gradient of the [Q] model at bench_gd.cpp's instance, with the mp50 gradient beside it.
#include "numerics/interval.hpp"
#include "numerics/interval_functions.hpp"
#include "numerics/models/qin/model_instance.hpp"
#include "numerics/models/qin/transformer_interval.hpp"
#include "numerics/random.hpp"
#include "numerics/random_matrix.hpp"
#include "numerics/scalar.hpp"

#include <arb.h>
#include <arb_mat.h>
#include <benchmark/benchmark.h>

namespace {

constexpr unsigned kDigits = 32;
constexpr slong kBits = 107;  // 32 decimal digits

thm::MatD gaussian(int rows, int cols, std::uint64_t seed) {
  thm::Rng rng(seed);
  return thm::gaussian_matrix(rng, rows, cols);
}

void BM_MpfiProduct(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0)), k = static_cast<int>(state.range(1)), m = static_cast<int>(state.range(2));
  const thm::IntervalPrecision guard(kDigits);
  const thm::IMat a = thm::to_interval(gaussian(n, k, 1)), b = thm::to_interval(gaussian(k, m, 2));
  for (auto _ : state) benchmark::DoNotOptimize(thm::IMat(a * b));
}

void BM_MpfiLoopProduct(benchmark::State& state) {  // the specialisation the interval models use
  const int n = static_cast<int>(state.range(0)), k = static_cast<int>(state.range(1)), m = static_cast<int>(state.range(2));
  const thm::IntervalPrecision guard(kDigits);
  const thm::IMat a = thm::to_interval(gaussian(n, k, 1)), b = thm::to_interval(gaussian(k, m, 2));
  for (auto _ : state) benchmark::DoNotOptimize(thm::product(a, b));
}

void BM_ArbProduct(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0)), k = static_cast<int>(state.range(1)), m = static_cast<int>(state.range(2));
  const thm::MatD ad = gaussian(n, k, 1), bd = gaussian(k, m, 2);
  arb_mat_t a, b, c;
  arb_mat_init(a, n, k);
  arb_mat_init(b, k, m);
  arb_mat_init(c, n, m);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < k; ++j) arb_set_d(arb_mat_entry(a, i, j), ad(i, j));
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < m; ++j) arb_set_d(arb_mat_entry(b, i, j), bd(i, j));
  for (auto _ : state) {
    arb_mat_mul(c, a, b, kBits);
    benchmark::DoNotOptimize(c);
  }
  arb_mat_clear(a);
  arb_mat_clear(b);
  arb_mat_clear(c);
  flint_cleanup();
}

void BM_MpfiExp(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const thm::IntervalPrecision guard(kDigits);
  const thm::IMat a = thm::to_interval(gaussian(n, n, 3));
  for (auto _ : state) benchmark::DoNotOptimize(thm::IMat(a.unaryExpr([](const thm::mpfi_dynamic& x) { return thm::mpfi_dynamic(exp(x)); })));
}

void BM_ArbExp(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const thm::MatD ad = gaussian(n, n, 3);
  arb_mat_t a, c;
  arb_mat_init(a, n, n);
  arb_mat_init(c, n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) arb_set_d(arb_mat_entry(a, i, j), ad(i, j));
  for (auto _ : state) {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) arb_exp(arb_mat_entry(c, i, j), arb_mat_entry(a, i, j), kBits);
    benchmark::DoNotOptimize(c);
  }
  arb_mat_clear(a);
  arb_mat_clear(c);
  flint_cleanup();
}

// bench_gd.cpp's instance (n = 4, N = 8, d = 48, m = 64, d_y = 4).
thm::Instance gd_instance() {
  thm::QModelSpec s;
  s.n = 4;
  s.N = 8;
  s.d = 48;
  s.m = 64;
  s.d_y = 4;
  s.entropy = 42;
  return thm::build_qin_model(s);
}

void BM_IntervalGradient(benchmark::State& state) {
  const thm::Instance inst = gd_instance();
  const thm::IntervalPrecision guard(kDigits);
  const thm::QModel<thm::mpfi_dynamic> q = thm::interval_qin_model(inst);
  for (auto _ : state) benchmark::DoNotOptimize(thm::transformer_gradient(q.params, q.config, q.X, q.Y));
}

void BM_Mp50Gradient(benchmark::State& state) {
  const thm::Instance inst = gd_instance();
  const thm::DigitsGuard digits(thm::mp50_digits);
  const thm::QModel<thm::mpfr_dynamic> q = thm::lift_qin_model<thm::mpfr_dynamic>(inst);
  for (auto _ : state) benchmark::DoNotOptimize(thm::transformer_gradient(q.params, q.config, q.X, q.Y));
}

}  // namespace

// The stacked samples times a weight (32 x 48 by 48 x 64, 32 x 48 by 48 x 48), a weight's gradient (48 x 32 by 32 x 64),
// and one sample's logits (8 x 48 by 48 x 8).
BENCHMARK(BM_MpfiProduct)->Args({32, 48, 64})->Args({32, 48, 48})->Args({48, 32, 64})->Args({8, 48, 8})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MpfiLoopProduct)->Args({32, 48, 64})->Args({32, 48, 48})->Args({48, 32, 64})->Args({8, 48, 8})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ArbProduct)->Args({32, 48, 64})->Args({32, 48, 48})->Args({48, 32, 64})->Args({8, 48, 8})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MpfiExp)->Arg(8)->Arg(32)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ArbExp)->Arg(8)->Arg(32)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_IntervalGradient)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Mp50Gradient)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
