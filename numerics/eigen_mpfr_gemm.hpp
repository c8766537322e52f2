// Eigen's matrix-matrix products of MPFR scalars through the Ozaki scheme (numerics/ozaki_product.hpp), so that every
// `A * B` of the suite at 50 or 100 digits, and the blocked products inside Eigen's decompositions, run as double
// GEMMs. This is how Eigen itself plugs in a BLAS (Eigen/src/Core/products/GeneralMatrixMatrix_BLAS.h): a
// specialisation of internal::general_matrix_matrix_product's column-major kernel, res += alpha op(lhs) op(rhs).
// Products small enough for Eigen's coefficient-based path (rows + cols + depth < 20) do not come here.
//
// Included by numerics/eigen_types.hpp only: the specialisation must be visible wherever MP matrices are multiplied.
#pragma once

#include "numerics/ozaki_product.hpp"
#include "numerics/scalar.hpp"

#include <Eigen/Core>

#include <vector>

namespace Eigen::internal {

template <typename Index, unsigned Digits, boost::multiprecision::mpfr_allocation_type Alloc, int LhsStorageOrder,
          bool ConjugateLhs, int RhsStorageOrder, bool ConjugateRhs>
struct general_matrix_matrix_product<
    Index, boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<Digits, Alloc>, boost::multiprecision::et_off>,
    LhsStorageOrder, ConjugateLhs,
    boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<Digits, Alloc>, boost::multiprecision::et_off>,
    RhsStorageOrder, ConjugateRhs, ColMajor, 1> {
  using T = boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<Digits, Alloc>,
                                          boost::multiprecision::et_off>;
  using Traits = gebp_traits<T, T>;

  static void run(Index rows, Index cols, Index depth, const T* lhs, Index lhsStride, const T* rhs, Index rhsStride,
                  T* res, Index /*resIncr*/, Index resStride, T alpha, level3_blocking<T, T>& /*blocking*/,
                  GemmParallelInfo<Index>* /*info*/ = 0) {
    if (rows == 0 || cols == 0) return;
    std::vector<mpfr_srcptr> a(static_cast<std::size_t>(rows * depth)), b(static_cast<std::size_t>(depth * cols));
    for (Index k = 0; k < depth; ++k)
      for (Index i = 0; i < rows; ++i)
        a[i + k * rows] = (LhsStorageOrder == ColMajor ? lhs[i + k * lhsStride] : lhs[i * lhsStride + k]).backend().data();
    for (Index j = 0; j < cols; ++j)
      for (Index k = 0; k < depth; ++k)
        b[k + j * depth] = (RhsStorageOrder == ColMajor ? rhs[k + j * rhsStride] : rhs[k * rhsStride + j]).backend().data();
    std::vector<T> c(static_cast<std::size_t>(rows * cols));
    std::vector<mpfr_ptr> pc(c.size());
    for (std::size_t e = 0; e < c.size(); ++e) pc[e] = c[e].backend().data();
    if (!thm::ozaki::worthwhile(rows, cols, depth) || !thm::ozaki::product(rows, cols, depth, a.data(), b.data(), pc.data()))
      thm::ozaki::loop_product(rows, cols, depth, a.data(), b.data(), pc.data());
    const bool unit = alpha == T(1);
    for (Index j = 0; j < cols; ++j)
      for (Index i = 0; i < rows; ++i) {
        T& r = res[i + j * resStride];
        if (unit) r += c[i + j * rows];
        else r += alpha * c[i + j * rows];
      }
  }
};

}  // namespace Eigen::internal
