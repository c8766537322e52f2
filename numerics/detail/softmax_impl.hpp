#pragma once

#include "numerics/softmax.hpp"

#include <cmath>

namespace thm {

template <class T>
Mat<T> softmax_rows(const Mat<T>& logits) {
  using std::exp;
  Mat<T> s(logits.rows(), logits.cols());
  for (Eigen::Index j = 0; j < logits.rows(); ++j) {
    const T row_max = logits.row(j).maxCoeff();
    T total = T(0);
    for (Eigen::Index k = 0; k < logits.cols(); ++k) {
      s(j, k) = exp(T(logits(j, k) - row_max));
      total += s(j, k);
    }
    for (Eigen::Index k = 0; k < logits.cols(); ++k) s(j, k) /= total;
  }
  return s;
}

}  // namespace thm
