#pragma once

#include "numerics/spectral.hpp"

#include <Eigen/SVD>
#include <limits>

namespace thm {

template <class T>
Vec<T> singular_values(const Mat<T>& m, SvdMethod method) {
  if (m.size() == 0) return Vec<T>();
  if (method == SvdMethod::automatic) method = m.cols() <= 16 && m.rows() <= 16 ? SvdMethod::jacobi : SvdMethod::bdc;
  if (method == SvdMethod::jacobi) {
    Eigen::JacobiSVD<Mat<T>> svd(m);
    return svd.singularValues();
  }
  Eigen::BDCSVD<Mat<T>> svd(m);
  return svd.singularValues();
}

template <class T>
T spectral_norm(const Mat<T>& m) {
  if (m.size() == 0) return T(0);
  return singular_values(m)(0);
}

template <class T>
T condition_number(const Vec<T>& s) {
  if (s.size() == 0) return T(1);
  const T smin = s(s.size() - 1);
  if (smin == 0) return std::numeric_limits<T>::infinity();
  return s(0) / smin;
}

}  // namespace thm
