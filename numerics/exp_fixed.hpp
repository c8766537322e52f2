// exp in double, the same bits on every IEEE-754 machine and inlined where softmax calls it: Tang's table method with
// N = 128, written with + and * only (no FMA: -ffp-contract=off), so neither the CPU's features nor the C library
// choose its last bit. exp x = 2^(k/N) e^r, k = round(x N / ln 2), |r| <= ln2/(2N) < 2.71e-3; e^r - 1 by its Taylor
// polynomial to r^5 (the remainder r^6/720 < 5.5e-19, 0.005 ulp); the table (numerics/detail/exp_table.inc, written by
// scripts/exp-table) holds 2^(j/N) as a double and its rounding error. Error below 0.52 ulp on the fast path (measured
// against MPFR in tests/numerics/test_exp_fixed.cpp). |x| >= 512, |x| < 2^-54, infinities and NaN go to std::exp,
// which the suite runs in the C library's baseline version (numerics/baseline_libm.hpp).
#pragma once

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>

namespace thm {

namespace detail {
struct ExpEntry {
  double tail;
  std::uint64_t sbits;
};
#include "numerics/detail/exp_table.inc"
}  // namespace detail

// The fast path without the range check: any argument gives a finite or NaN double and reads the table in bounds.
inline double exp_fixed_unchecked(double x) {
  constexpr double shift = 0x1.8p52;  // x N/ln2 + shift rounds to an integer in the low bits of the sum
  double kd = x * detail::exp_inv_ln2_n + shift;
  const std::uint64_t ki = std::bit_cast<std::uint64_t>(kd);
  kd -= shift;
  // r = x - k ln2/N: k times the 36-bit high part is exact (|k| < 2^17).
  const double r = x + kd * detail::exp_neg_ln2_hi_n + kd * detail::exp_neg_ln2_lo_n;
  const detail::ExpEntry& e = detail::exp_table[ki % 128];
  const double scale = std::bit_cast<double>(e.sbits + (ki << 45));  // 2^(k/N) rounded: k div N added to the exponent
  const double r2 = r * r;
  const double tmp = e.tail + r + r2 * (0.5 + r * (1.0 / 6)) + r2 * r2 * (1.0 / 24 + r * (1.0 / 120));
  return scale + scale * tmp;
}

// Biased exponents 0x3c9 (2^-54) to 0x407 (|x| < 512): the fast path; outside it, or inf/NaN (0x7ff), the C library.
inline bool exp_fixed_fast_path(double x) {
  const std::uint32_t abstop = static_cast<std::uint32_t>(std::bit_cast<std::uint64_t>(x) >> 52) & 0x7ff;
  return abstop - 0x3c9u < 0x408u - 0x3c9u;
}

inline double exp_fixed(double x) { return exp_fixed_fast_path(x) ? exp_fixed_unchecked(x) : std::exp(x); }

// y[i] = exp_fixed(x[i]) for i < n, the same bits; the fast path for every element first (a loop the compiler vectorises,
// 2.5x std::exp per element with SSE2), then the arguments outside it again. x and y must not overlap.
inline void exp_fixed(const double* x, double* y, std::ptrdiff_t n) {
  for (std::ptrdiff_t i = 0; i < n; ++i) y[i] = exp_fixed_unchecked(x[i]);
  for (std::ptrdiff_t i = 0; i < n; ++i)
    if (!exp_fixed_fast_path(x[i])) y[i] = std::exp(x[i]);
}

}  // namespace thm
