// Square roots of a symmetric positive definite matrix from its eigen-decomposition
// Sigma = V diag(l) V^T: Sigma^{1/2} = V diag(sqrt l) V^T, Sigma^{-1/2}, Sigma^{-1}.
// Never Cholesky: [G]'s change of variables P = A Sigma^{1/2}, Q = Sigma^{1/2} B Sigma^{1/2} needs the
// symmetric root (a Cholesky factor C gives A C C^T B^T ... only up to an orthogonal gauge).
#pragma once

#include "numerics/eigen_types.hpp"

namespace thm {

template <class T>
struct SymmetricRoots {
  Vec<T> eigenvalues;   // ascending
  Mat<T> eigenvectors;  // columns, orthonormal: Sigma = V diag(l) V^T
  Mat<T> sqrt, inv_sqrt, inv;
};

// Throws std::domain_error when sigma is not square, not exactly symmetric or not positive definite.
template <class T>
SymmetricRoots<T> symmetric_roots(const Mat<T>& sigma);

#define THM_SYMMETRIC_ROOTS_EXTERN(T) extern template SymmetricRoots<T> symmetric_roots(const Mat<T>&);
THM_SYMMETRIC_ROOTS_EXTERN(double)
THM_SYMMETRIC_ROOTS_EXTERN(mpfr_dynamic)
#undef THM_SYMMETRIC_ROOTS_EXTERN

}  // namespace thm
