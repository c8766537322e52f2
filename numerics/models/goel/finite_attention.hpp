// [G] finite-data objective (docs/spec/claims.md, "Finite-data objective (our reading)"; docs/derivations/goel.finite_data.md).
//
// One training sequence of n tokens x_i (rows of X, n x d) with labels y_i (rows of Y, n x k); token i
// attends over all n tokens (optionally not over itself):
//   L_n(A, B) = 1/(2n) sum_i ||A sum_j softmax_j(x_i^T B x_j) x_j - y_i||^2,
// in matrix form K = X B X^T, S = softmax_rows(K), H = S X, R = H A^T - Y, L_n = ||R||_F^2 / (2n).
// Exact gradients (reverse mode): G_A = R^T H / n; G_S = R A X^T / n; G_K = S o (G_S - rowsum(S o G_S));
// G_B = X^T G_K X. finite_loss and finite_gradient evaluate them one block of query rows at a time (never an n x n
// matrix); finite_forward keeps the whole S, H and R.
#pragma once

#include "numerics/models/goel/attention_regression.hpp"

#include <algorithm>

namespace thm {

template <class T>
struct FiniteForward {
  Mat<T> S, H, R;  // attention weights, attention averages, residuals
  T loss = 0;
};

template <class T>
FiniteForward<T> finite_forward(const Mat<T>& A, const Mat<T>& B, const Mat<T>& X, const Mat<T>& Y, bool mask_self);
// Query rows per block of finite_loss and finite_gradient: a block's b x n logits stay within 64 KiB of doubles, so a
// pass over n tokens never holds an n x n matrix (at n = 4096 one was 128 MiB, allocated and freed at every step).
inline Eigen::Index finite_block_rows(Eigen::Index n) { return std::max<Eigen::Index>(1, 8192 / std::max<Eigen::Index>(1, n)); }

template <class T>
T finite_loss(const Mat<T>& A, const Mat<T>& B, const Mat<T>& X, const Mat<T>& Y, bool mask_self);
// Gradient of L_n; `rows` (optional) restricts the sum over i to those query rows (a mini-batch of
// SGD), normalised by their number.
// `loss` (optional) receives L_n (over all rows) from the same forward pass.
template <class T>
ParamPair<T> finite_gradient(const Mat<T>& A, const Mat<T>& B, const Mat<T>& X, const Mat<T>& Y, bool mask_self,
                             const std::vector<int>* rows = nullptr, T* loss = nullptr);

// Sigma_hat = X^T X / n and M_hat = argmin_M sum_i ||y_i - M x_i||^2 = Y^T X (X^T X)^{-1}, the latter by a
// solve of the normal equations (never an explicit inverse). Throws std::domain_error when X^T X is singular.
template <class T>
struct EmpiricalMoments {
  Mat<T> Sigma_hat, M_hat;
};
template <class T>
EmpiricalMoments<T> empirical_moments(const Mat<T>& X, const Mat<T>& Y);

#define THM_FINITE_ATTENTION_EXTERN(T)                                                                               \
  extern template FiniteForward<T> finite_forward(const Mat<T>&, const Mat<T>&, const Mat<T>&, const Mat<T>&, bool); \
  extern template T finite_loss(const Mat<T>&, const Mat<T>&, const Mat<T>&, const Mat<T>&, bool);                   \
  extern template ParamPair<T> finite_gradient(const Mat<T>&, const Mat<T>&, const Mat<T>&, const Mat<T>&, bool,     \
                                               const std::vector<int>*, T*);                                         \
  extern template EmpiricalMoments<T> empirical_moments(const Mat<T>&, const Mat<T>&);
THM_FINITE_ATTENTION_EXTERN(double)
THM_FINITE_ATTENTION_EXTERN(mpfr_dynamic)
#undef THM_FINITE_ATTENTION_EXTERN

}  // namespace thm
