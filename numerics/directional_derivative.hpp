// The derivative of a scalar function of one real variable at 0, from values alone: central differences at h and
// h/2 combined by one Richardson step, with an estimate of the error (docs/derivations/qin.gd.gradient_step.md,
// "Reference derivative").
//
//   D(h) = (f(h) - f(-h)) / (2h) = f'(0) + a h^2 + b h^4 + ...
//   R    = (4 D(h/2) - D(h)) / 3 = f'(0) - b h^4 / 4 + ...
//   truncation: |D(h) - D(h/2)| = |3a h^2 / 4 + 15 b h^4 / 16 + ...|, which exceeds |b| h^4 / 4 unless a and b cancel
//   rounding:   with every value of f within delta of the exact one, |R - R_exact| <= 3 delta / h.
#pragma once

#include <cmath>

namespace thm {

template <class T>
struct DirectionalDerivative {
  T value;       // R
  T truncation;  // |D(h) - D(h/2)|
};

// f: T -> T, evaluated at +-h and +-h/2.
template <class T, class F>
DirectionalDerivative<T> directional_derivative(F&& f, const T& h) {
  using std::abs;
  const T half = h / T(2);
  const T d_h = (f(h) - f(T(-h))) / (T(2) * h);
  const T d_half = (f(half) - f(T(-half))) / h;
  return {T((T(4) * d_half - d_h) / T(3)), T(abs(T(d_h - d_half)))};
}

// The rounding bound of R when every value of f is within delta: 3 delta / h.
template <class T>
T directional_rounding(const T& delta, const T& h) {
  return T(3) * delta / h;
}

}  // namespace thm
