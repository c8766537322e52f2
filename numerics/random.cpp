#include "numerics/random.hpp"

#include <mpfr.h>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace thm {

namespace {

std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

template <int (*F)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t)>
double mpfr_unary53(double x) {
  mpfr_t t;
  mpfr_init2(t, 53);
  mpfr_set_d(t, x, MPFR_RNDN);
  F(t, t, MPFR_RNDN);
  const double r = mpfr_get_d(t, MPFR_RNDN);
  mpfr_clear(t);
  return r;
}

}  // namespace

double cr_exp(double x) { return mpfr_unary53<mpfr_exp>(x); }

// Ziv's rounding test with the x87 log as the first attempt: logl's result y carries a relative error below 2^-63
// (measured worst 0.65 x 2^-63 over 3e6 arguments in (0, 1) and down to 2^-106; glibc's x86-64 logl is the FYL2X
// instruction), so log x lies in [y - e, y + e] with e = 2^-58 |y|, 32 times that. Round-to-nearest is monotonic: where
// both ends round to the same double, that double is RN(log x), the value MPFR returns. Otherwise (about 3% of the
// arguments) and where long double has no more digits than double, MPFR decides. 15x faster than MPFR alone
// (Rng::normal's one log), bit for bit the same (tests/numerics/test_random.cpp). Emulators that run x87 code at 53 bits
// (valgrind) break the bound: never run the suite's numbers under them.
double cr_log(double x) {
  if constexpr (std::numeric_limits<long double>::digits >= 64) {
    if (x > 0 && x < std::numeric_limits<double>::infinity()) {
      const long double y = std::log(static_cast<long double>(x));
      const long double e = std::fabs(y) * 0x1p-58L;
      const double lo = static_cast<double>(y - e), hi = static_cast<double>(y + e);
      if (lo == hi) return lo;
    }
  }
  return mpfr_cr_log(x);
}

double mpfr_cr_log(double x) { return mpfr_unary53<mpfr_log>(x); }

std::uint64_t fnv1a64(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

Rng::Rng(std::uint64_t seed) {
  std::uint64_t x = seed;
  for (auto& s : s_) s = splitmix64(x);
}

Rng Rng::derive(std::uint64_t seed, std::string_view label, std::uint64_t index) {
  std::uint64_t x = seed ^ fnv1a64(label);
  const std::uint64_t a = splitmix64(x);
  std::uint64_t y = a ^ (index * 0xd1342543de82ef95ULL + 1);
  return Rng(splitmix64(y));
}

std::uint64_t Rng::next_u64() {
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

double Rng::uniform01() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

double Rng::uniform(double a, double b) { return a + (b - a) * uniform01(); }

std::int64_t Rng::uniform_int(std::int64_t lo, std::int64_t hi) {
  if (hi < lo) throw std::invalid_argument("Rng::uniform_int: empty range");
  const std::uint64_t span = static_cast<std::uint64_t>(hi - lo) + 1;
  if (span == 0) return static_cast<std::int64_t>(next_u64());  // full 64-bit range
  const std::uint64_t limit = UINT64_MAX - (UINT64_MAX % span);
  std::uint64_t r;
  do r = next_u64();
  while (r >= limit);
  return lo + static_cast<std::int64_t>(r % span);
}

double Rng::log_uniform(double a, double b) {
  if (!(a > 0 && b >= a)) throw std::invalid_argument("Rng::log_uniform: need 0 < a <= b");
  return cr_exp(uniform(cr_log(a), cr_log(b)));
}

bool Rng::bernoulli(double p) { return uniform01() < p; }

double Rng::normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  double u, v, s;
  do {
    u = uniform(-1.0, 1.0);
    v = uniform(-1.0, 1.0);
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  const double f = std::sqrt(-2.0 * cr_log(s) / s);  // sqrt is correctly rounded by IEEE 754
  spare_ = v * f;
  has_spare_ = true;
  return u * f;
}

}  // namespace thm
