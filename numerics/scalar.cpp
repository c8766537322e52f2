#include "numerics/scalar.hpp"
#include "numerics/activation.hpp"

#include <mpfr.h>

#include <cstdio>

namespace thm {

std::string_view precision_name(Precision p) {
  switch (p) {
    case Precision::float64: return "double";
    case Precision::mp50: return "mp50";
    case Precision::mp100: return "mp100";
  }
  return "?";
}

std::optional<Precision> parse_precision(std::string_view name) {
  if (name == "double") return Precision::float64;
  if (name == "mp50") return Precision::mp50;
  if (name == "mp100") return Precision::mp100;
  return std::nullopt;
}

double precision_epsilon(Precision p) {
  switch (p) {
    case Precision::float64: return std::numeric_limits<double>::epsilon();
    case Precision::mp50:
    case Precision::mp100: {
      const DigitsGuard digits(precision_digits(p));
      return to_double(epsilon<mpfr_dynamic>());
    }
  }
  return 0.0;
}

std::string_view activation_name(Activation a) {
  switch (a) {
    case Activation::softplus: return "softplus";
    case Activation::tanh: return "tanh";
    case Activation::gelu: return "gelu";
    case Activation::relu: return "relu";
  }
  return "?";
}

std::optional<Activation> parse_activation(std::string_view name) {
  for (Activation a : {Activation::softplus, Activation::tanh, Activation::gelu, Activation::relu})
    if (activation_name(a) == name) return a;
  return std::nullopt;
}

std::string exact_decimal(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

void release_thread_caches() { mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE); }

}  // namespace thm
