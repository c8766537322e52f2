#pragma once

#include "numerics/fault.hpp"
#include "numerics/models/goel/finite_attention.hpp"
#include "numerics/softmax.hpp"

#include <Eigen/Cholesky>
#include <limits>
#include <stdexcept>

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

template <class T>
T finite_loss(const Mat<T>& A, const Mat<T>& B, const Mat<T>& X, const Mat<T>& Y, bool mask_self) {
  return finite_forward(A, B, X, Y, mask_self).loss;
}

template <class T>
ParamPair<T> finite_gradient(const Mat<T>& A, const Mat<T>& B, const Mat<T>& X, const Mat<T>& Y, bool mask_self,
                             const std::vector<int>* rows, T* loss) {
  const FiniteForward<T> f = finite_forward(A, B, X, Y, mask_self);
  if (loss) *loss = f.loss;
  Mat<T> R = f.R;
  T n = T(X.rows());
  if (rows) {
    // Only the chosen query rows contribute (SGD): zero the others' residuals.
    Mat<T> kept = Mat<T>::Zero(R.rows(), R.cols());
    for (int i : *rows) kept.row(i) = R.row(i);
    R = kept;
    n = T(static_cast<long>(rows->size()));
  }
  ParamPair<T> g;
  g.A = THM_FAULT(finite_gradient_count) ? Mat<T>(R.transpose() * f.H) : Mat<T>(R.transpose() * f.H / n);
  const Mat<T> GS = R * A * X.transpose() / n;  // dL/dS
  Mat<T> GK(GS.rows(), GS.cols());
  for (Eigen::Index i = 0; i < GS.rows(); ++i) {
    const T inner = f.S.row(i).dot(GS.row(i));
    for (Eigen::Index j = 0; j < GS.cols(); ++j) GK(i, j) = f.S(i, j) * (GS(i, j) - inner);
  }
  g.B = X.transpose() * GK * X;
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
