// Benchmarks of attention_forward and singular_values at double, mp50 and mp100 (mpfr_dynamic at 50 and 100 digits, as the
// claims' rungs), for N in {8, 16, 32}.
//
// Every input is built in double from a fixed seed outside the timed loop and lifted (exactly) to
// the scalar type under test, so each rung times the same instance.
//   attention: X is N x d with d = N, entries N(0, 1); W_Q, W_K, W_V are d x d with entries
//              N(0, 1/d); beta = 1; c = 1/sqrt(d).
//   SVD:       an N x N spectrum-first matrix with singular values geometric from 1 to 1e-3
//              (kappa = 1e3), through JacobiSVD and BDCSVD (double; MPFR: Jacobi only), and (BM_SingularValuesRefined, also N = 64) by
//              refinement of a double SVD (numerics/refined_svd.hpp); its `refined` counter is the fraction of
//              calls that took the refined path rather than the MPFR fallback.
//   log:       cr_log (the x87 log with Ziv's rounding test, MPFR where it does not decide) beside MPFR's correctly rounded
//              log alone and libm's log (not correctly rounded: the floor), on Rng::normal's arguments s = u^2 + v^2 in (0, 1).
//   exp:       the project's exp (numerics/exp_fixed.hpp) over an array and one call at a time, beside libm's exp, on
//              softmax's arguments in [-30, 0].
#include "numerics/models/qin/attention.hpp"
#include "numerics/eigen_types.hpp"
#include "numerics/exp_fixed.hpp"
#include "numerics/random.hpp"
#include "numerics/random_matrix.hpp"
#include "numerics/refined_svd.hpp"
#include "numerics/scalar.hpp"
#include "numerics/spectral.hpp"

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

namespace {

constexpr std::uint64_t kSeed = 42;
constexpr double kKappa = 1e3;

struct AttentionInputD {
  thm::MatD X, W_Q, W_K, W_V;
  double c;
};

AttentionInputD make_attention_input(int n) {
  thm::Rng rng(kSeed);
  const int d = n;
  const double w_scale = 1.0 / std::sqrt(static_cast<double>(d));
  AttentionInputD in;
  in.X = thm::gaussian_matrix(rng, n, d, 1.0);
  in.W_Q = thm::gaussian_matrix(rng, d, d, w_scale);
  in.W_K = thm::gaussian_matrix(rng, d, d, w_scale);
  in.W_V = thm::gaussian_matrix(rng, d, d, w_scale);
  in.c = w_scale;
  return in;
}

thm::MatD make_svd_input(int n) {
  thm::Rng rng(kSeed);
  return thm::spectrum_first_matrix(rng, n, n, thm::geometric_spectrum(n, 1.0, kKappa));
}

template <class T, int Digits = 0>
void BM_AttentionForward(benchmark::State& state) {
  std::optional<thm::DigitsGuard> digits;  // mpfr_dynamic at Digits (the mp50 or mp100 rung); 0 for double
  if constexpr (Digits > 0) digits.emplace(Digits);
  const int n = static_cast<int>(state.range(0));
  const AttentionInputD in = make_attention_input(n);
  const thm::Mat<T> X = thm::lift<T>(in.X);
  const thm::AttentionWeights<T> w{thm::lift<T>(in.W_Q), thm::lift<T>(in.W_K), thm::lift<T>(in.W_V),
                                   T(in.c)};
  const T beta(1);
  for (auto _ : state) {
    auto out = thm::attention_forward<T>(X, w, beta);
    benchmark::DoNotOptimize(out);
    benchmark::ClobberMemory();
  }
}

template <class T, thm::SvdMethod Method, int Digits = 0>
void BM_SingularValues(benchmark::State& state) {
  std::optional<thm::DigitsGuard> digits;  // mpfr_dynamic at Digits (the mp50 or mp100 rung); 0 for double
  if constexpr (Digits > 0) digits.emplace(Digits);
  const int n = static_cast<int>(state.range(0));
  const thm::Mat<T> M = thm::lift<T>(make_svd_input(n));
  for (auto _ : state) {
    auto sv = thm::singular_values<T>(M, Method);
    benchmark::DoNotOptimize(sv);
    benchmark::ClobberMemory();
  }
}

template <class T, int Digits = 0>
void BM_SingularValuesRefined(benchmark::State& state) {
  std::optional<thm::DigitsGuard> digits;  // mpfr_dynamic at Digits (the mp50 or mp100 rung); 0 for double
  if constexpr (Digits > 0) digits.emplace(Digits);
  const int n = static_cast<int>(state.range(0));
  const thm::Mat<T> M = thm::lift<T>(make_svd_input(n));
  double calls = 0, refined = 0;
  for (auto _ : state) {
    auto sv = thm::refined_singular_values<T>(M);
    calls += 1;
    refined += sv.path == thm::SvdPath::refined ? 1 : 0;
    benchmark::DoNotOptimize(sv);
    benchmark::ClobberMemory();
  }
  state.counters["refined"] = calls > 0 ? refined / calls : 0;
}

// Rng::normal's log arguments, drawn once.
const std::vector<double>& log_arguments() {
  static const std::vector<double> xs = [] {
    thm::Rng r(kSeed);
    std::vector<double> out;
    while (out.size() < 4096) {
      const double u = r.uniform(-1.0, 1.0), v = r.uniform(-1.0, 1.0), s = u * u + v * v;
      if (s < 1.0 && s > 0.0) out.push_back(s);
    }
    return out;
  }();
  return xs;
}

// One elementary function over its arguments, one call at a time.
template <double (*F)(double), const std::vector<double>& (*Arguments)()>
void BM_Elementary(benchmark::State& state) {
  const std::vector<double>& xs = Arguments();
  for (auto _ : state)
    for (double x : xs) benchmark::DoNotOptimize(F(x));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * xs.size()));
}
template <double (*Log)(double)>
void BM_Log(benchmark::State& state) {
  BM_Elementary<Log, log_arguments>(state);
}
double libm_log(double x) { return std::log(x); }
BENCHMARK(BM_Log<thm::cr_log>)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Log<thm::mpfr_cr_log>)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Log<libm_log>)->Unit(benchmark::kMicrosecond);

// The softmax's arguments (logit minus the row's maximum, in [-30, 0]), drawn once: the project's exp
// (numerics/exp_fixed.hpp) over the array as softmax_rows calls it, one call at a time, and glibc's (baseline) exp.
const std::vector<double>& exp_arguments() {
  static const std::vector<double> xs = [] {
    thm::Rng r(kSeed);
    std::vector<double> out(4096);
    for (double& x : out) x = r.uniform(-30.0, 0.0);
    return out;
  }();
  return xs;
}
void BM_ExpFixedArray(benchmark::State& state) {
  const std::vector<double>& xs = exp_arguments();
  std::vector<double> ys(xs.size());
  for (auto _ : state) {
    thm::exp_fixed(xs.data(), ys.data(), static_cast<std::ptrdiff_t>(xs.size()));
    benchmark::DoNotOptimize(ys.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * xs.size()));
}
template <double (*Exp)(double)>
void BM_Exp(benchmark::State& state) {
  BM_Elementary<Exp, exp_arguments>(state);
}
double libm_exp(double x) { return std::exp(x); }
double fixed_exp(double x) { return thm::exp_fixed(x); }
BENCHMARK(BM_ExpFixedArray)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Exp<fixed_exp>)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Exp<libm_exp>)->Unit(benchmark::kMicrosecond);

// double: default timing, microseconds. MP types: milliseconds and a short minimum time, so the
// whole run stays well under a minute.
constexpr double kMpMinTime = 0.05;

#define THM_BENCH_DOUBLE(...) BENCHMARK(__VA_ARGS__)->Arg(8)->Arg(16)->Arg(32)->Unit(benchmark::kMicrosecond)
#define THM_BENCH_MP(...) \
  BENCHMARK(__VA_ARGS__)->Arg(8)->Arg(16)->Arg(32)->Unit(benchmark::kMillisecond)->MinTime(kMpMinTime)

THM_BENCH_DOUBLE(BM_AttentionForward<double>);
THM_BENCH_MP(BM_AttentionForward<thm::mpfr_dynamic, thm::mp50_digits>);
THM_BENCH_MP(BM_AttentionForward<thm::mpfr_dynamic, thm::mp100_digits>);

THM_BENCH_DOUBLE(BM_SingularValues<double, thm::SvdMethod::jacobi>);
THM_BENCH_DOUBLE(BM_SingularValues<double, thm::SvdMethod::bdc>);
THM_BENCH_MP(BM_SingularValues<thm::mpfr_dynamic, thm::SvdMethod::jacobi, thm::mp50_digits>);
THM_BENCH_MP(BM_SingularValues<thm::mpfr_dynamic, thm::SvdMethod::jacobi, thm::mp100_digits>);
THM_BENCH_MP(BM_SingularValuesRefined<thm::mpfr_dynamic, thm::mp50_digits>)->Arg(64);
THM_BENCH_MP(BM_SingularValuesRefined<thm::mpfr_dynamic, thm::mp100_digits>)->Arg(64);

}  // namespace

BENCHMARK_MAIN();
