// Rounding-noise bounds of the [G] checks (docs/derivations/goel.model.md, "Rounding"). First-order,
// in Higham's gamma_n style: a chain of products with inner dimensions summing to n, evaluated in
// floating point with unit roundoff eps, is off by at most about n eps times the product of the factors'
// norms; the factor 16 covers the eigensolver and SVD (backward stable with small constants) and the
// few additions. Frobenius norms throughout (they bound the spectral ones).
#pragma once

#include "numerics/fault.hpp"
#include "numerics/models/goel/population_instance.hpp"

namespace thm::detail {

template <class T>
T chain_eps(int n) {
  if (THM_FAULT(goel_chain_eps_shrunk)) return T(16) * T(n) * epsilon<T>() / T(100);
  return T(16) * T(n) * epsilon<T>();
}

// Error of the computed (P, Q) = (A Sigma^{1/2}, Sigma^{1/2} B Sigma^{1/2}) and of the computed
// projection onto S (the SVD of Z* moves the factors by about eps sigma_1 / sqrt(sigma_r)).
template <class T>
T factor_noise(const GProblem<T>& g, const Mat<T>& A, const Mat<T>& B, const T& sigma_1, const T& sigma_r) {
  using std::sqrt;
  const T r = g.task.roots.sqrt.norm();
  return chain_eps<T>(g.k + g.d) * (A.norm() * r + r * r * B.norm() + sigma_1 / sqrt(sigma_r));
}

// Error of the computed gradient of f at (P, Q) (E = P Q^T - Z, N = P^T P - Q^T Q and their products).
template <class T>
T gradient_noise(const GProblem<T>& g, const Factors<T>& f) {
  const T p = f.P.norm(), q = f.Q.norm();
  return chain_eps<T>(g.k + g.d) * (T(1) + g.lambda) * (p + q) * (p * q + g.task.Z.norm() + p * p + q * q);
}

}  // namespace thm::detail
