// Activations of the [Q] feed-forward layer and their derivatives, generic in the scalar (double,
// MPFR types, Eigen AutoDiff scalars). GELU is the tanh form
//   gelu(x) = x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))),
// whose derivative is elementary (erf is not available to AutoDiff); documented in
// docs/derivations/qin.model.md.
#pragma once

#include "numerics/fault.hpp"

#include <cmath>
#include <optional>
#include <string>
#include <string_view>

namespace thm {

enum class Activation { softplus, tanh, gelu, relu };

std::string_view activation_name(Activation a);
std::optional<Activation> parse_activation(std::string_view name);

template <class T>
T activate(Activation a, const T& x) {
  using std::exp;
  using std::log;
  using std::sqrt;
  using std::tanh;
  using std::atan;
  switch (a) {
    case Activation::softplus:  // log(1 + e^x), without overflow
      return x > T(0) ? T(x + log(T(1) + exp(T(-x)))) : T(log(T(1) + exp(x)));
    case Activation::tanh:
      return tanh(x);
    case Activation::gelu: {
      const T k = sqrt(T(2) / (T(4) * atan(T(1))));
      const T a = T(44715) / T(1000000);  // 0.044715 to the working precision, not a double's
      return T(0.5) * x * (T(1) + tanh(T(k * (x + a * x * x * x))));
    }
    case Activation::relu:
      return x > T(0) ? x : T(0);
  }
  return x;
}

template <class T>
T activate_prime(Activation a, const T& x) {
  using std::exp;
  using std::sqrt;
  using std::tanh;
  using std::atan;
  switch (a) {
    case Activation::softplus:  // the logistic function
      if (THM_FAULT(softplus_prime_is_softplus)) return activate(a, x);
      if (x > T(0)) return T(T(1) / (T(1) + exp(T(-x))));
      else {
        const T e = exp(x);  // once: exp is the costly part at multiprecision
        return T(e / (T(1) + e));
      }
    case Activation::tanh: {
      const T t = tanh(x);
      return T(1) - t * t;
    }
    case Activation::gelu: {
      const T k = sqrt(T(2) / (T(4) * atan(T(1))));
      const T a = T(44715) / T(1000000);
      const T t = tanh(T(k * (x + a * x * x * x)));
      return T(0.5) * (T(1) + t) + T(0.5) * x * (T(1) - t * t) * k * (T(1) + T(3) * a * x * x);
    }
    case Activation::relu:  // the a.e. derivative; ReLU is excluded from smoothness-based claims
      return x > T(0) ? T(1) : T(0);
  }
  return T(1);
}

}  // namespace thm
