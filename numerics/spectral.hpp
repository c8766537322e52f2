// Singular values, spectral norm, condition number.
//
// Accuracy (Eigen's SVD documentation; Demmel & Kahan): both JacobiSVD and BDCSVD are backward
// stable, so each computed sigma_i is within ||E||_2 <= p(m,n) eps ||M||_2 of the exact one.
// JacobiSVD is the accurate choice for small matrices; BDCSVD is faster from about 16 columns on.
// Never form M^T M: its eigenvalues lose sigma_min when kappa is large (docs/spec/pitfalls.md).
#pragma once

#include "numerics/eigen_types.hpp"

namespace thm {

// automatic: for MPFR scalars, refinement of a double SVD to the working precision with an a posteriori bound
// and an MPFR Jacobi fallback (numerics/refined_svd.hpp); for double, Jacobi up to 16 x 16, else BDC.
// jacobi, bdc: Eigen's decompositions, the reference paths; at MPFR scalars both are JacobiSVD (no MPFR BDCSVD is
// compiled: it would cost every build 23 s per type for a path no claim takes).
enum class SvdMethod { automatic, jacobi, bdc };

// All min(m, n) singular values, in decreasing order.
template <class T>
Vec<T> singular_values(const Mat<T>& m, SvdMethod method = SvdMethod::automatic);

// sigma_1(M).
template <class T>
T spectral_norm(const Mat<T>& m);

// sigma_1 / sigma_min(m,n); +infinity when sigma_min is exactly zero.
template <class T>
T condition_number(const Vec<T>& singular_values_desc);

// Absolute error bound used for every computed singular value of an m x n matrix with
// ||M||_2 = norm: 8 max(m, n) eps norm (the backward-stability bound with a generous constant).
template <class T>
T singular_value_error_bound(Eigen::Index rows, Eigen::Index cols, const T& norm) {
  return T(8) * T(std::max(rows, cols)) * epsilon<T>() * norm;
}

#define THM_SPECTRAL_EXTERN(T)                                           \
  extern template Vec<T> singular_values(const Mat<T>&, SvdMethod);     \
  extern template T spectral_norm(const Mat<T>&);                       \
  extern template T condition_number(const Vec<T>&);
THM_SPECTRAL_EXTERN(double)
THM_SPECTRAL_EXTERN(mpfr_dynamic)
#undef THM_SPECTRAL_EXTERN

}  // namespace thm
