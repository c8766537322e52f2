// One full gradient-descent step of the [Q] transformer at double, mp50 and mp100 (mpfr_dynamic at 50 and 100 digits, as the
// claims' rungs):
// forward + exact reverse-mode gradient of all six blocks (W_Q, W_K, W_V, W_1, W_2, W_U) + the
// update theta <- theta - eta grad.
//
// Instance (fixed seed, built in double outside the timed loop and lifted exactly to each rung):
//   n = 4 samples, N = 8 tokens, d = 48, m = 64, d_y = 4, L = 1, beta = 1, FFN residual 1,
//   softplus activation, c = 1/sqrt(d), entropy 42.
// eta = 1e-4 keeps the loss finite over the many iterations Google Benchmark runs; the loss at the
// end of the run is reported as a counter (and the run fails if it is not finite).
// bench/numpy_gd_step.py is a NumPy reference of the same step (see bench/README.md).
#include "numerics/scalar.hpp"
#include "numerics/models/qin/transformer.hpp"
#include "numerics/models/qin/model_instance.hpp"
#include "numerics/ordered_gemm.hpp"

#include <benchmark/benchmark.h>

#include <cmath>
#include <optional>
#include <string>

namespace {

constexpr double kEta = 1e-4;

thm::Instance make_gd_instance(int n = 4, int N = 8, int d = 48, int m = 64, int d_y = 4) {
  thm::QModelSpec s;
  s.n = n;
  s.N = N;
  s.d = d;
  s.m = m;
  s.d_y = d_y;
  s.L = 1;
  s.config.beta = 1.0;
  s.config.ffn_residual = 1.0;
  s.config.c = 0.0;  // 1/sqrt(d)
  s.config.activation = thm::Activation::softplus;
  s.entropy = 42;
  return thm::build_qin_model(s);
}

template <class T, int Digits = 0>  // Digits: mpfr_dynamic's precision, 0 for double
void BM_GdStep(benchmark::State& state) {
  std::optional<thm::DigitsGuard> digits;
  if constexpr (Digits > 0) digits.emplace(Digits);
  const thm::Instance inst = make_gd_instance();
  auto q = thm::lift_qin_model<T>(inst);
  const T minus_eta = T(-kEta);
  T loss = T(0);
  for (auto _ : state) {
    thm::TransformerParams<T> g = thm::transformer_gradient<T>(q.params, q.config, q.X, q.Y, &loss);
    for (std::size_t k = 0; k < q.params.block_count(); ++k) q.params.block(k) += minus_eta * g.block(k);  // in place
    benchmark::DoNotOptimize(q.params);
    benchmark::ClobberMemory();
  }
  if constexpr (Digits == 0) state.SetLabel(std::string(thm::gemm_isa_name(thm::gemm_isa())));  // the products' kernel
  const double last = thm::to_double(loss);
  if (!std::isfinite(last)) state.SkipWithError("loss is not finite");
  state.counters["loss"] = last;  // loss at theta before the last step
}

// The double step at another shape (n, N, d, m, d_y), the rest as BM_GdStep but eta = 1e-6 (at d = 256, m = 1024 the
// loss starts near 850 and 1e-4 diverges within a few hundred steps): bench/gd_step_side_by_side.py times it beside
// PyTorch and NumPy at d = 256, m = 1024, N = 32.
constexpr double kEtaShape = 1e-6;

void BM_GdStepShape(benchmark::State& state) {
  const auto arg = [&](int i) { return static_cast<int>(state.range(i)); };
  const thm::Instance inst = make_gd_instance(arg(0), arg(1), arg(2), arg(3), arg(4));
  auto q = thm::lift_qin_model<double>(inst);
  double loss = 0;
  for (auto _ : state) {
    thm::TransformerParams<double> g = thm::transformer_gradient<double>(q.params, q.config, q.X, q.Y, &loss);
    for (std::size_t k = 0; k < q.params.block_count(); ++k) q.params.block(k) += -kEtaShape * g.block(k);
    benchmark::DoNotOptimize(q.params);
    benchmark::ClobberMemory();
  }
  if (!std::isfinite(loss)) state.SkipWithError("loss is not finite");
  state.SetLabel(std::string(thm::gemm_isa_name(thm::gemm_isa())));
  state.counters["loss"] = loss;
}

// Each runs for at least 0.5 s. double in microseconds, MP in milliseconds.
constexpr double kMinTime = 0.5;

BENCHMARK(BM_GdStep<double>)->Unit(benchmark::kMicrosecond)->MinTime(kMinTime);
BENCHMARK(BM_GdStep<thm::mpfr_dynamic, thm::mp50_digits>)->Unit(benchmark::kMillisecond)->MinTime(kMinTime);
BENCHMARK(BM_GdStep<thm::mpfr_dynamic, thm::mp100_digits>)->Unit(benchmark::kMillisecond)->MinTime(kMinTime);
BENCHMARK(BM_GdStepShape)->ArgNames({"n", "N", "d", "m", "dy"})->Args({4, 32, 256, 1024, 4})->Unit(benchmark::kMillisecond)->MinTime(kMinTime);

}  // namespace
