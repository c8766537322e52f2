#pragma once

#include "numerics/fault.hpp"
#include "numerics/models/goel/finite_attention.hpp"
#include "numerics/softmax.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <limits>
#include <stdexcept>
#include <vector>

namespace thm {

namespace detail {

template <class T>
Mat<T> attention_logits_masked(const Mat<T>& B, const Mat<T>& X, bool mask_self) {
  Mat<T> K = X * B * X.transpose();
  if (mask_self && !THM_FAULT(self_attention_unmasked))
    for (Eigen::Index i = 0; i < K.rows(); ++i) K(i, i) = T(-std::numeric_limits<double>::infinity());  // [-inf, -inf] on intervals too
  return K;
}

}  // namespace detail

template <class T>
FiniteForward<T> finite_forward(const Mat<T>& A, const Mat<T>& B, const Mat<T>& X, const Mat<T>& Y, bool mask_self) {
  if (X.rows() != Y.rows() || X.cols() != B.rows() || B.rows() != B.cols() || A.cols() != X.cols() || A.rows() != Y.cols())
    throw std::domain_error("finite_forward: shapes of A (k x d), B (d x d), X (n x d), Y (n x k) do not match");
  if (mask_self && X.rows() < 2) throw std::domain_error("finite_forward: masking self-attention needs n >= 2");
  FiniteForward<T> f;
  f.S = softmax_rows(detail::attention_logits_masked(B, X, mask_self));
  f.H = f.S * X;
  f.R = f.H * A.transpose() - Y;
  f.loss = f.R.squaredNorm() / (T(2) * T(X.rows()));
  return f;
}

namespace detail {

// L_n and, with `g`, its gradient (restricted to `rows` if given), one block of query rows at a time: the block's
// logits K_b = (X_b B) X^T, S_b = softmax_rows(K_b), H_b = S_b X, R_b = H_b A^T - Y_b; then G_A += R_b^T H_b,
// G_S = R_b A X^T, G_K = S_b o (G_S - rowsum(S_b o G_S)), G_B += X_b^T G_K X; the sums divided by n (or |rows|) at the end.
template <class T>
T finite_pass(const Mat<T>& A, const Mat<T>& B, const Mat<T>& X, const Mat<T>& Y, bool mask_self, const std::vector<int>* rows,
              ParamPair<T>* g) {
  if (X.rows() != Y.rows() || X.cols() != B.rows() || B.rows() != B.cols() || A.cols() != X.cols() || A.rows() != Y.cols())
    throw std::domain_error("finite_forward: shapes of A (k x d), B (d x d), X (n x d), Y (n x k) do not match");
  const Eigen::Index n = X.rows();
  if (mask_self && n < 2) throw std::domain_error("finite_forward: masking self-attention needs n >= 2");
  const bool masked = mask_self && !THM_FAULT(self_attention_unmasked);
  std::vector<char> counted;
  if (rows) {
    counted.assign(static_cast<std::size_t>(n), 0);
    for (int i : *rows) counted[static_cast<std::size_t>(i)] = 1;
  }
  const Mat<T> XB = X * B, Xt = X.transpose();
  if (g) *g = ParamPair<T>{Mat<T>::Zero(A.rows(), A.cols()), Mat<T>::Zero(B.rows(), B.cols())};
  T sum = T(0);
  const Eigen::Index block = finite_block_rows(n);
  Mat<T> K, S, H, R, GK;
  for (Eigen::Index i0 = 0; i0 < n; i0 += block) {
    const Eigen::Index b = std::min(block, n - i0);
    K.noalias() = XB.middleRows(i0, b) * Xt;
    if (masked)
      for (Eigen::Index i = 0; i < b; ++i) K(i, i0 + i) = T(-std::numeric_limits<double>::infinity());
    S = softmax_rows(K);
    H.noalias() = S * X;
    R.noalias() = H * A.transpose();
    R -= Y.middleRows(i0, b);
    sum += R.squaredNorm();
    if (!g) continue;
    if (rows)
      for (Eigen::Index i = 0; i < b; ++i)
        if (!counted[static_cast<std::size_t>(i0 + i)]) R.row(i).setZero();
    g->A.noalias() += R.transpose() * H;
    GK.noalias() = Mat<T>(R * A) * Xt;  // G_S of the block
    for (Eigen::Index i = 0; i < b; ++i) {
      const T inner = S.row(i).dot(GK.row(i));
      for (Eigen::Index j = 0; j < n; ++j) GK(i, j) = S(i, j) * (GK(i, j) - inner);
    }
    g->B.noalias() += X.middleRows(i0, b).transpose() * Mat<T>(GK * X);
  }
  if (g) {
    const T count = rows ? T(static_cast<long>(rows->size())) : T(n);
    if (!THM_FAULT(finite_gradient_count)) g->A /= count;
    g->B /= count;
  }
  return sum / (T(2) * T(n));
}

}  // namespace detail

template <class T>
T finite_loss(const Mat<T>& A, const Mat<T>& B, const Mat<T>& X, const Mat<T>& Y, bool mask_self) {
  return detail::finite_pass<T>(A, B, X, Y, mask_self, nullptr, nullptr);
}

template <class T>
ParamPair<T> finite_gradient(const Mat<T>& A, const Mat<T>& B, const Mat<T>& X, const Mat<T>& Y, bool mask_self,
                             const std::vector<int>* rows, T* loss) {
  ParamPair<T> g;
  const T l = detail::finite_pass<T>(A, B, X, Y, mask_self, rows, &g);
  if (loss) *loss = l;
  return g;
}

template <class T>
EmpiricalMoments<T> empirical_moments(const Mat<T>& X, const Mat<T>& Y) {
  const T n = T(X.rows());
  EmpiricalMoments<T> m;
  const Mat<T> G = X.transpose() * X;
  m.Sigma_hat = G / (THM_FAULT(moments_n_minus_1) ? T(n - T(1)) : n);
  // Exactly symmetric (the roots' eigensolver requires it).
  m.Sigma_hat = ((m.Sigma_hat + m.Sigma_hat.transpose()) / T(2)).eval();
  const Eigen::LDLT<Mat<T>> ldlt(G);
  if (ldlt.info() != Eigen::Success || !(ldlt.vectorD().minCoeff() > 0)) throw std::domain_error("X^T X is singular: need n >= d generic tokens");
  // M_hat^T = (X^T X)^{-1} X^T Y.
  m.M_hat = ldlt.solve(Mat<T>(X.transpose() * Y)).transpose();
  return m;
}

}  // namespace thm
