#pragma once

#include "numerics/fault.hpp"
#include "numerics/matmul.hpp"
#include "numerics/numerical_failure.hpp"
#include "numerics/refined_svd.hpp"
#include "numerics/spectral.hpp"

#include <Eigen/SVD>
#include <limits>

namespace thm {

template <class T>
Vec<T> singular_values_descending(const Mat<T>& m, SvdMethod method) {
  if (m.size() == 0) return Vec<T>();
  // A non-finite input leaves Eigen's singular values unset: refuse it, and check info() on the way out.
  if (!m.allFinite()) throw NumericalFailure("SVD of a non-finite matrix (an intermediate overflowed)");
  // MPFR scalars: refinement of a double SVD, with its own MPFR fallback (numerics/refined_svd.hpp).
  if constexpr (is_mpfr_number<T>::value)
    if (method == SvdMethod::automatic) return refined_singular_values<T>(m).values;
  if (method == SvdMethod::automatic) method = m.cols() <= 16 && m.rows() <= 16 ? SvdMethod::jacobi : SvdMethod::bdc;
  const auto checked = [](const auto& svd) {
    if (svd.info() != Eigen::Success) throw NumericalFailure("the SVD did not converge");
    return Vec<T>(svd.singularValues());
  };
  // BDCSVD is instantiated for double only: at an MPFR type it costs every build 23 s of compile per type (36 s
  // against Jacobi's 13) for a path no claim takes; MPFR's reference is Jacobi, the accurate one (spectral.hpp).
  if constexpr (is_mpfr_number<T>::value) return checked(Eigen::JacobiSVD<Mat<T>>(m));
  else if (method == SvdMethod::jacobi) return checked(Eigen::JacobiSVD<Mat<T>>(m));
  else return checked(Eigen::BDCSVD<Mat<T>>(m));
}

template <class T>
Vec<T> singular_values(const Mat<T>& m, SvdMethod method) {
  if (THM_FAULT(singular_values_ascending)) return singular_values_descending(m, method).reverse();
  return singular_values_descending(m, method);
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
