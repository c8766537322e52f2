// Random orthogonal matrices formed at the working precision, for tests that build a matrix from its spectrum.
#pragma once

#include "numerics/eigen_types.hpp"
#include "numerics/random.hpp"

namespace thm::test {

// A product of n Householder reflections H = I - 2 v v^T / (v^T v), v Gaussian, formed in T: orthogonal to the
// working precision.
template <class T>
Mat<T> orthogonal(Rng& rng, int n) {
  Mat<T> q = Mat<T>::Identity(n, n);
  for (int k = 0; k < n; ++k) {
    Vec<T> v(n);
    for (int i = 0; i < n; ++i) v(i) = T(rng.normal());
    const T vv = v.squaredNorm();
    q = (q - (T(2) / vv) * (q * v) * v.transpose()).eval();
  }
  return q;
}

}  // namespace thm::test
