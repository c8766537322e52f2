// The [Q] transformer (docs/spec/claims.md, "Model [Q]"): L blocks and one head.
//
//   block:  V = softmax(c U W_Q W_K^T U^T) U W_V + beta U          (attention with residual)
//           H = sigma(V W_1) W_2 + gamma V                           (FFN with residual, gamma default 1)
//   head:   Yhat = H_L W_U;   loss L = 1/2 sum_i ||Yhat_i - Y_i||_F^2.
// With L = 1, V is the paper's Z and H its H. Gradients are exact (reverse mode written out by hand,
// docs/derivations/qin.model.md) and checked against AutoDiff and high-precision finite differences.
#pragma once

#include "numerics/activation.hpp"
#include "numerics/eigen_types.hpp"

#include <string>
#include <vector>

namespace thm {

struct TransformerConfig {
  double beta = 1.0;          // attention residual weight (every block)
  double ffn_residual = 1.0;  // gamma
  double c = 0.0;             // softmax scale; 0 means 1/sqrt(d)
  Activation activation = Activation::softplus;
};

template <class T>
struct TransformerBlock {
  Mat<T> W_Q, W_K, W_V;  // d x d
  Mat<T> W_1;            // d x m
  Mat<T> W_2;            // m x d
};

// Parameters, and also the shape of a gradient.
template <class T>
struct TransformerParams {
  std::vector<TransformerBlock<T>> blocks;
  Mat<T> W_U;  // d x d_y

  // Number of blocks' matrices: 5 per block + the head.
  std::size_t block_count() const { return 5 * blocks.size() + 1; }
  // The k-th matrix in the fixed order (W_Q, W_K, W_V, W_1, W_2 per block, then W_U).
  Mat<T>& block(std::size_t k);
  const Mat<T>& block(std::size_t k) const;
};

// Names of the matrices in the order of TransformerParams::block ("W_Q[0]", ..., "W_U").
std::vector<std::string> transformer_block_names(std::size_t layers);

// Per-sample intermediates of one forward pass (what claims inspect: V = Z, H).
template <class T>
struct TransformerTrace {
  std::vector<std::vector<Mat<T>>> V;  // [layer][sample] attention output with residual
  std::vector<std::vector<Mat<T>>> H;  // [layer][sample] block output
  std::vector<Mat<T>> residual;        // [sample] Yhat - Y
  T loss;
};

template <class T>
TransformerTrace<T> transformer_forward(const TransformerParams<T>& p, const TransformerConfig& cfg,
                                        const std::vector<Mat<T>>& X, const std::vector<Mat<T>>& Y);

template <class T>
T transformer_loss(const TransformerParams<T>& p, const TransformerConfig& cfg, const std::vector<Mat<T>>& X,
                   const std::vector<Mat<T>>& Y);

// Gradient of the loss with respect to every block; also returns the loss.
template <class T>
TransformerParams<T> transformer_gradient(const TransformerParams<T>& p, const TransformerConfig& cfg,
                                          const std::vector<Mat<T>>& X, const std::vector<Mat<T>>& Y, T* loss = nullptr);

// Frobenius inner product and norm over all blocks.
template <class T>
T params_dot(const TransformerParams<T>& a, const TransformerParams<T>& b);
// a + s b, blockwise.
template <class T>
TransformerParams<T> params_axpy(const TransformerParams<T>& a, const T& s, const TransformerParams<T>& b);

#define THM_TRANSFORMER_EXTERN(T)                                                                            \
  extern template struct TransformerParams<T>;                                                               \
  extern template TransformerTrace<T> transformer_forward(const TransformerParams<T>&, const TransformerConfig&, \
                                                          const std::vector<Mat<T>>&, const std::vector<Mat<T>>&); \
  extern template T transformer_loss(const TransformerParams<T>&, const TransformerConfig&,                  \
                                     const std::vector<Mat<T>>&, const std::vector<Mat<T>>&);                \
  extern template TransformerParams<T> transformer_gradient(const TransformerParams<T>&, const TransformerConfig&, \
                                                            const std::vector<Mat<T>>&, const std::vector<Mat<T>>&, T*); \
  extern template T params_dot(const TransformerParams<T>&, const TransformerParams<T>&);                    \
  extern template TransformerParams<T> params_axpy(const TransformerParams<T>&, const T&, const TransformerParams<T>&);
THM_TRANSFORMER_EXTERN(double)
THM_TRANSFORMER_EXTERN(mpfr_dynamic)
#undef THM_TRANSFORMER_EXTERN

}  // namespace thm
