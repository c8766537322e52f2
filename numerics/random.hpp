// A seeded random source whose output is the same bits on every platform.
//
// Integers: xoshiro256** seeded through splitmix64 (pure 64-bit integer arithmetic).
// Reals: uniforms are k * 2^-53; normals use Marsaglia's polar method, whose only transcendental,
// log, is correctly rounded at 53 bits (cr_log), so no libm difference can leak in.
// (std::normal_distribution is implementation-defined and is never used.)
#pragma once

#include <cstdint>
#include <string_view>

namespace thm {

// Correctly rounded (round-to-nearest) exp and log of a double, via MPFR at 53 bits (log: the x87 log first, where its
// error bound decides the rounding; the same bits).
double cr_exp(double x);
double cr_log(double x);
// MPFR's correctly rounded log alone: the reference cr_log equals bit for bit (its test, its benchmark).
double mpfr_cr_log(double x);

// 64-bit FNV-1a of a string; used to give each claim its own stream from one seed.
std::uint64_t fnv1a64(std::string_view s);

class Rng {
 public:
  explicit Rng(std::uint64_t seed);
  // A stream for (seed, label, index): every random choice of one case of one claim.
  static Rng derive(std::uint64_t seed, std::string_view label, std::uint64_t index);

  std::uint64_t next_u64();
  // Uniform on [0, 1) with 53 random bits.
  double uniform01();
  double uniform(double a, double b);
  // Uniform integer in [lo, hi] (inclusive), unbiased (rejection).
  std::int64_t uniform_int(std::int64_t lo, std::int64_t hi);
  // exp(uniform(log a, log b)) for 0 < a <= b.
  double log_uniform(double a, double b);
  bool bernoulli(double p);
  // Standard normal N(0, 1).
  double normal();

 private:
  std::uint64_t s_[4];
  bool has_spare_ = false;
  double spare_ = 0.0;
};

}  // namespace thm
