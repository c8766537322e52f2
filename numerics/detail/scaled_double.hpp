// The double starting point of the Ogita-Aishima refinements (refined_svd_impl.hpp, refined_eigen_impl.hpp): A scaled
// by 2^-e, e the binary exponent of max |a_ij| (exact), then rounded to double, so no entry overflows; entries that
// underflow only degrade the starting guess, which the acceptance bound judges (docs/derivations/refined_svd.md,
// "Starting point").
#pragma once

#include "numerics/eigen_types.hpp"

#include <cmath>

namespace thm::detail {

template <class T>
MatD scaled_to_double(const Mat<T>& a, int& e) {
  e = 0;
  {
    using std::frexp;
    (void)frexp(T(a.cwiseAbs().maxCoeff()), &e);
  }
  MatD ad(a.rows(), a.cols());
  for (Eigen::Index j = 0; j < a.cols(); ++j)
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
      using std::ldexp;
      ad(i, j) = to_double(T(ldexp(a(i, j), -e)));
    }
  return ad;
}

}  // namespace thm::detail
