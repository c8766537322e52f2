// Singular values and the SVD at the working precision by iterative refinement (Ogita & Aishima, "Iterative
// refinement for singular value decomposition based on matrix multiplication", J. Comput. Appl. Math. 2020):
// a double SVD of the double rounding of A, then Newton-like steps U <- U (I + F), V <- V (I + G) whose costly
// parts are the matrix products of numerics/matmul.hpp; each step squares the error of U and V.
//
// The singular values are returned only when an a posteriori bound on their error (derived in
// docs/derivations/refined_svd.md) is within singular_value_error_bound(m, n, ||A||_2), the allowance the MPFR
// Jacobi SVD is held to; otherwise (clustered or exactly repeated or zero singular values, a double SVD that
// failed, no convergence within max_iterations) the result comes from the MPFR Jacobi SVD and says so.
#pragma once

#include "numerics/eigen_types.hpp"

#include <cstdint>

namespace thm {

enum class SvdPath { refined, mpfr_fallback };
enum class SvdVectors { none, full };

template <class T>
struct RefinedSvd {
  Vec<T> values;  // all min(m, n) singular values, decreasing, >= 0
  Mat<T> U, V;    // SvdVectors::full: m x m and n x n orthogonal, A = U diag(values) V^T; empty otherwise
  SvdPath path = SvdPath::refined;
  int iterations = 0;  // refinement steps applied (updates of U and V)
  // Refined path: the bound on max_i |sigma_i(A) - values_i| that was accepted (the derivation's bound plus the
  // rounding model of forming T); zero on the fallback path, which carries Eigen's backward-stability guarantee.
  T error_bound = T(0);
};

// max_iterations < 0: automatic (ceil(log2(digits10 / 15)) + 4 steps). max_iterations = 0 accepts the double
// SVD's vectors or falls back at once. Throws NumericalFailure on non-finite input or a failed fallback SVD.
// With SvdVectors::full the refined path also requires the last correction to predict U and V orthogonal and
// singular to the working precision (quadratic convergence: error after the step ~ c ||F||^2).
template <class T>
RefinedSvd<T> refined_svd(const Mat<T>& a, SvdVectors vectors = SvdVectors::full, int max_iterations = -1);

// Singular values only (no U, V returned): refined_svd(a, SvdVectors::none).
template <class T>
RefinedSvd<T> refined_singular_values(const Mat<T>& a, int max_iterations = -1) {
  return refined_svd<T>(a, SvdVectors::none, max_iterations);
}

// How often each path was taken by refined_svd on the calling thread (thread-local; for tests and benchmarks).
struct SvdPathCounts {
  std::uint64_t refined = 0, mpfr_fallback = 0;
};
SvdPathCounts& svd_path_counts();

#define THM_REFINED_SVD_EXTERN(T) extern template RefinedSvd<T> refined_svd(const Mat<T>&, SvdVectors, int);
THM_REFINED_SVD_EXTERN(double)
THM_REFINED_SVD_EXTERN(mpfr_dynamic)
#undef THM_REFINED_SVD_EXTERN

}  // namespace thm
