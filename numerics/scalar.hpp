// Scalar types of the precision ladder and the few facts the suite needs about each.
// Pitfalls (docs/spec/pitfalls.md): expression templates off for every type that meets Eigen,
// doctest or RapidCheck; mpfr_float_backend<N> counts *decimal* digits.
#pragma once

#include <boost/multiprecision/mpfr.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace thm {

namespace bmp = boost::multiprecision;

// Precision chosen at run time (explore --digits N); set with mpfr_dynamic::default_precision(N) or DigitsGuard.
using mpfr_dynamic = bmp::number<bmp::mpfr_float_backend<0>, bmp::et_off>;
// The multiprecision rungs are mpfr_dynamic at these many digits (DigitsGuard): no fixed-precision type is
// instantiated, which keeps the heavy template instantiations of every build at two scalar types (double and this
// one) plus the intervals. MPFR rounds every operation to the target's precision, and Boost turns digits into bits
// with the same rule for both kinds of backend, so the bits are those a fixed mpfr_float_backend<50> or <100> gives
// (docs/spec/pitfalls.md, "One multiprecision type"); the fixed 50-digit type ran a GD step 1.12x faster (bench_gd).
inline constexpr int mp50_digits = 50;
inline constexpr int mp100_digits = 100;

// The fixed rungs of the ladder, in increasing precision.
enum class Precision { float64, mp50, mp100 };

std::string_view precision_name(Precision p);
std::optional<Precision> parse_precision(std::string_view name);
// Machine epsilon of the rung (2^-52 for double, about 5.3e-51 for mp50, 5.7e-101 for mp100).
double precision_epsilon(Precision p);
// Decimal digits of a multiprecision rung (mp50_digits, mp100_digits); 0 for double.
constexpr int precision_digits(Precision p) {
  return p == Precision::mp50 ? mp50_digits : p == Precision::mp100 ? mp100_digits : 0;
}

// Frees the MPFR caches of the calling thread (constants such as log 2 and pi, computed on first use and kept per
// thread). A thread that ran multiprecision arithmetic calls it before it ends, or the caches leak
// (docs/spec/pitfalls.md, "MPFR and threads").
void release_thread_caches();

// Decimal digits T carries: numeric_limits for double, the calling thread's default precision
// for mpfr_dynamic (whose numeric_limits<>::digits10 is INT_MAX).
template <class T>
int decimal_digits() {
  if constexpr (std::is_same_v<T, mpfr_dynamic>)
    return static_cast<int>(mpfr_dynamic::thread_default_precision());
  else
    return std::numeric_limits<T>::digits10;
}

// mpfr_dynamic at `digits` on the calling thread for the scope, every operation at exactly that precision (Boost's
// default lets a result take its operands' precision); precision and option restored on the way out. Thread-local
// only, so the runner's workers may each hold one (docs/spec/pitfalls.md, "Default precision").
class DigitsGuard {
 public:
  explicit DigitsGuard(int digits)
      : thread_(mpfr_dynamic::thread_default_precision()),
        options_(mpfr_dynamic::thread_default_variable_precision_options()) {
    mpfr_dynamic::thread_default_variable_precision_options(bmp::variable_precision_options::assume_uniform_precision);
    mpfr_dynamic::thread_default_precision(static_cast<unsigned>(digits));
  }
  ~DigitsGuard() {
    mpfr_dynamic::thread_default_precision(thread_);
    mpfr_dynamic::thread_default_variable_precision_options(options_);
  }
  DigitsGuard(const DigitsGuard&) = delete;
  DigitsGuard& operator=(const DigitsGuard&) = delete;

 private:
  unsigned thread_;
  bmp::variable_precision_options options_;
};

// Machine epsilon of T as T.
template <class T>
T epsilon() {
  return std::numeric_limits<T>::epsilon();
}

template <class T>
double to_double(const T& x) {
  if constexpr (std::is_same_v<T, double>)
    return x;
  else
    return x.template convert_to<double>();
}

// All the digits of x: round-trip for double ("%.17g"), every digit the type carries otherwise.
std::string exact_decimal(double x);
// (str(0) gives every digit of the value's own precision; numeric_limits<mpfr_dynamic>::max_digits10
// is meaningless for runtime precision.)
template <class T>
std::string exact_decimal(const T& x) {
  return x.str(0, std::ios_base::scientific);
}

}  // namespace thm
