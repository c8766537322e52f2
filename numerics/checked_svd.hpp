// An SVD that either ran on finite input and reported success, or throws NumericalFailure: Eigen 3.4 leaves the
// results of a failed decomposition unset and says so only through info().
#pragma once

#include "numerics/eigen_types.hpp"
#include "numerics/numerical_failure.hpp"

#include <Eigen/SVD>
#include <string>

namespace thm {

template <class T>
Eigen::JacobiSVD<Mat<T>> checked_jacobi_svd(const Mat<T>& m, unsigned options, const char* what) {
  if (!m.allFinite()) throw NumericalFailure(std::string(what) + ": SVD of a non-finite matrix");
  Eigen::JacobiSVD<Mat<T>> svd(m, options);
  if (svd.info() != Eigen::Success) throw NumericalFailure(std::string(what) + ": the SVD did not converge");
  return svd;
}

}  // namespace thm
