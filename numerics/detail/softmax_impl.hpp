#pragma once

#include "numerics/exp_fixed.hpp"
#include "numerics/fault.hpp"
#include "numerics/softmax.hpp"

#include <cmath>
#include <type_traits>

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
  // Column by column (Mat is column-major: row by row strode across the whole matrix), each row's terms still summed in
  // the order k = 0, 1, ...: the same bits as a row at a time.
  const Eigen::Index rows = logits.rows(), cols = logits.cols();
  Vec<T> row_max(rows), total(rows);
  // Each row's maximum, also a column at a time (a maximum is exact: the order does not matter).
  for (Eigen::Index j = 0; j < rows; ++j) {
    row_max(j) = THM_FAULT(softmax_max_not_subtracted) || cols == 0 ? T(0) : T(logits(j, 0));
    total(j) = T(0);
  }
  if (!THM_FAULT(softmax_max_not_subtracted))
    for (Eigen::Index k = 1; k < cols; ++k)
      for (Eigen::Index j = 0; j < rows; ++j)
        if (logits(j, k) > row_max(j)) row_max(j) = logits(j, k);
  const Eigen::Index summed = THM_FAULT(softmax_row_sum_off_by_one) ? cols - 1 : cols;
  if constexpr (std::is_same_v<T, double>) {
    // The project's exp (numerics/exp_fixed.hpp), a column of arguments at a time: the same bits on every machine.
    Vec<double> arg(rows);
    for (Eigen::Index k = 0; k < cols; ++k) {
      for (Eigen::Index j = 0; j < rows; ++j) arg(j) = logits(j, k) - row_max(j);
      exp_fixed(arg.data(), &s(0, k), rows);
      if (k < summed)
        for (Eigen::Index j = 0; j < rows; ++j) total(j) += s(j, k);
    }
  } else {
    for (Eigen::Index k = 0; k < cols; ++k)
      for (Eigen::Index j = 0; j < rows; ++j) {
        s(j, k) = exp(T(logits(j, k) - row_max(j)));
        if (k < summed) total(j) += s(j, k);
      }
  }
  for (Eigen::Index k = 0; k < cols; ++k)
    for (Eigen::Index j = 0; j < rows; ++j) s(j, k) /= total(j);
  return s;
}

}  // namespace thm
