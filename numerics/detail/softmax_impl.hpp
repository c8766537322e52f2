#pragma once

#include "numerics/fault.hpp"
#include "numerics/softmax.hpp"

#include <cmath>

namespace thm {

template <class T>
Mat<T> softmax_rows(const Mat<T>& logits) {
  using std::exp;
  Mat<T> s(logits.rows(), logits.cols());
  if (THM_FAULT(softmax_columns)) {  // the bug: each column normalised, not each row
    for (Eigen::Index k = 0; k < logits.cols(); ++k) {
      const T col_max = logits.col(k).maxCoeff();
      T total = T(0);
      for (Eigen::Index j = 0; j < logits.rows(); ++j) total += s(j, k) = exp(T(logits(j, k) - col_max));
      for (Eigen::Index j = 0; j < logits.rows(); ++j) s(j, k) /= total;
    }
    return s;
  }
  for (Eigen::Index j = 0; j < logits.rows(); ++j) {
    const T row_max = THM_FAULT(softmax_max_not_subtracted) ? T(0) : T(logits.row(j).maxCoeff());
    T total = T(0);
    const Eigen::Index summed = THM_FAULT(softmax_row_sum_off_by_one) ? logits.cols() - 1 : logits.cols();
    for (Eigen::Index k = 0; k < logits.cols(); ++k) {
      s(j, k) = exp(T(logits(j, k) - row_max));
      if (k < summed) total += s(j, k);
    }
    for (Eigen::Index k = 0; k < logits.cols(); ++k) s(j, k) /= total;
  }
  return s;
}

}  // namespace thm
