// The symmetric eigendecomposition at the working precision by iterative refinement (Ogita & Aishima, "Iterative
// refinement for symmetric eigenvalue decomposition", Japan J. Indust. Appl. Math. 2018): a double
// SelfAdjointEigenSolver, then X <- X (I + E) with the products of numerics/matmul.hpp, and the acceptance bound of
// docs/derivations/refined_svd.md ("Symmetric eigendecomposition"); otherwise Eigen's MPFR SelfAdjointEigenSolver.
#pragma once

#include "numerics/eigen_types.hpp"
#include "numerics/refined_svd.hpp"

namespace thm {

template <class T>
struct RefinedEigen {
  Vec<T> values;   // ascending (as SelfAdjointEigenSolver)
  Mat<T> vectors;  // columns, orthonormal, A = X diag(values) X^T; empty unless requested
  SvdPath path = SvdPath::refined;
  int iterations = 0;
  T error_bound = T(0);  // refined path: the accepted bound on max_i |lambda_i(A) - values_i|
};

// A must be square and symmetric (only symmetry of the rounding to double is assumed by the start; the refinement
// uses A as given). Throws NumericalFailure on non-finite input or a failed fallback. max_iterations as
// refined_svd's.
template <class T>
RefinedEigen<T> refined_symmetric_eigen(const Mat<T>& a, bool vectors = true, int max_iterations = -1);

#define THM_REFINED_EIGEN_EXTERN(T) extern template RefinedEigen<T> refined_symmetric_eigen(const Mat<T>&, bool, int);
THM_REFINED_EIGEN_EXTERN(double)
THM_REFINED_EIGEN_EXTERN(mpfr_dynamic)
#undef THM_REFINED_EIGEN_EXTERN

}  // namespace thm
