#pragma once

#include "numerics/fault.hpp"
#include "numerics/models/qin/attention.hpp"
#include "numerics/softmax.hpp"

#include <stdexcept>
#include <vector>

namespace thm {

template <class T>
Mat<T> attention_logits(const Mat<T>& X, const AttentionWeights<T>& w) {
  if (w.W_Q.rows() != X.cols() || w.W_K.rows() != X.cols() || w.W_Q.cols() != w.W_K.cols())
    throw std::invalid_argument("attention_logits: W_Q, W_K must be d x d' with d = cols(X)");
  const Mat<T> XQ = X * w.W_Q;
  const Mat<T> XK = X * w.W_K;
  if (THM_FAULT(attention_logits_transposed)) return w.c * (XK * XQ.transpose());
  return w.c * (XQ * XK.transpose());
}

template <class T>
AttentionForward<T> attention_forward(const Mat<T>& X, const AttentionWeights<T>& w, const T& beta) {
  if (w.W_V.rows() != X.cols() || w.W_V.cols() != X.cols())
    throw std::invalid_argument("attention_forward: W_V must be d x d with d = cols(X)");
  AttentionForward<T> f;
  f.K = attention_logits(X, w);
  f.S = softmax_rows(f.K);
  const Mat<T> XV = X * w.W_V;
  f.A = THM_FAULT(attention_value_dropped) ? Mat<T>(f.S * X) : Mat<T>(f.S * XV);
  f.Z = THM_FAULT(attention_beta_ignored) ? Mat<T>(f.A + X) : Mat<T>(f.A + beta * X);
  return f;
}

template <class T>
Mat<T> stack_rows(const std::vector<Mat<T>>& blocks) {
  Eigen::Index rows = 0;
  const Eigen::Index cols = blocks.empty() ? 0 : blocks.front().cols();
  for (const auto& b : blocks) {
    if (b.cols() != cols) throw std::invalid_argument("stack_rows: blocks differ in width");
    rows += b.rows();
  }
  Mat<T> s(rows, cols);
  Eigen::Index r = 0;
  for (const auto& b : blocks) {
    s.middleRows(r, b.rows()) = b;
    r += b.rows();
  }
  return s;
}

}  // namespace thm
