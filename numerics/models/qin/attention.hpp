// The [Q] attention block (docs/spec/claims.md, "Model [Q]"), one sample X in R^{N x d}:
//   logits K = c X W_Q W_K^T X^T,   S = softmax_rows(K),   A = S X W_V,   Z = A + beta X.
#pragma once

#include "numerics/eigen_types.hpp"

#include <vector>

namespace thm {

template <class T>
struct AttentionWeights {
  Mat<T> W_Q, W_K, W_V;  // d x d each
  T c;                   // softmax scale, default 1/sqrt(d)
};

template <class T>
struct AttentionForward {
  Mat<T> K;  // logits, N x N
  Mat<T> S;  // row-stochastic attention matrix, N x N
  Mat<T> A;  // attention output without residual, N x d
  Mat<T> Z;  // attention output with residual, N x d
};

// K = c (X W_Q)(X W_K)^T.
template <class T>
Mat<T> attention_logits(const Mat<T>& X, const AttentionWeights<T>& w);

// The whole block for residual weight beta.
template <class T>
AttentionForward<T> attention_forward(const Mat<T>& X, const AttentionWeights<T>& w, const T& beta);

// Z_i for every sample, stacked: Zs = [Z_1; ...; Z_n] (nN x d).
template <class T>
Mat<T> stack_rows(const std::vector<Mat<T>>& blocks);

#define THM_ATTENTION_EXTERN(T)                                                                  \
  extern template Mat<T> attention_logits(const Mat<T>&, const AttentionWeights<T>&);           \
  extern template AttentionForward<T> attention_forward(const Mat<T>&, const AttentionWeights<T>&, \
                                                        const T&);                             \
  extern template Mat<T> stack_rows(const std::vector<Mat<T>>&);
THM_ATTENTION_EXTERN(double)
THM_ATTENTION_EXTERN(mpfr_dynamic)
#undef THM_ATTENTION_EXTERN

}  // namespace thm
