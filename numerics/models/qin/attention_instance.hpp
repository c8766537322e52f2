// Instances of the [Q] attention block: n samples X_i (N x d) and one set of weights W_Q, W_K, W_V.
// Built from a QAttentionSpec (the generating parameters), deterministically from its entropy.
#pragma once

#include "numerics/models/qin/attention.hpp"
#include "numerics/instance.hpp"
#include "numerics/instance_schema.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace thm {

inline constexpr const char* kQinAttentionFamily = "qin.attention";

struct QAttentionSpec {
  int n = 1;                 // samples
  int N = 4;                 // tokens per sample
  int d = 4;                 // width
  double beta = 1.0;         // residual weight
  double c = 0.0;            // softmax scale; 0 means 1/sqrt(d)
  // Spectrum-first X_i: singular values geometric from x_sigma_max down to x_sigma_max / x_kappa.
  double x_sigma_max = 1.0;
  double x_kappa = 1.0;
  // Apply that spectrum to the stacked Xs = [X_1; ...; X_n] (nN x d) instead of each X_i.
  bool stacked_spectrum = false;
  // Logit magnitude: W_Q, W_K are Gaussian rescaled so that max_i max_jk |K_i,jk| = logit_max
  // (logit_max = 0 gives W_K = 0).
  double logit_max = 1.0;
  // Exactly row-constant logits: column 0 of every X_i is the constant tau and W_K = e_0 u^T, so
  // every row of X W_K is the same vector and every row of K is constant, bit for bit.
  bool row_constant_logits = false;
  double tau = 1.0;
  // Column-sign logits K_jk = logit_max b_k, b = (+1, -1, +1, ...) with sum 0 (last entry 0 when N
  // is odd): column 0 of every X_i is tau, column 1 is b, W_Q = e_0 u^T and W_K = e_1 v^T. Every row
  // of K is the same vector bit for bit; ||S - 11^T/N||_2 = tanh(logit_max) for even N, where
  // rank_collapse (b1) is tight to a factor 1 + exp(2 logit_max) (its derivation, "Tightness").
  bool sign_pattern_logits = false;
  // Spectrum-first W_V with ||W_V||_2 = wv_norm and kappa(W_V) = wv_kappa (wv_norm = 0: W_V = 0).
  double wv_norm = 1.0;
  double wv_kappa = 1.0;
  // Instead (wv_gain > 0): the standard initialisation with a gain, W_V entries i.i.d. N(0, gain^2/d)
  // (||W_V||_2 about 2 gain).
  double wv_gain = 0.0;
  std::uint64_t entropy = 0;  // seed of the matrix entries (53 bits kept, so it survives a double)
};

// Validates the spec (one-line std::invalid_argument on absurd sizes or scales) and builds it.
Instance build_qin_attention(const QAttentionSpec& spec);

// Instance dimensions; throws InstanceError when the instance is not of this family or malformed.
struct QAttentionShape {
  int n, N, d;
};
QAttentionShape qin_attention_shape(const Instance& inst);

// The instances a claim with at most max_n samples of at most max_dim x max_dim reads: n, N, d, beta, c;
// X0..X{n-1} (N x d) and W_Q, W_K, W_V (d x d).
InstanceSchema qin_attention_schema(int max_n, int max_dim);

template <class T>
struct QAttention {
  std::vector<Mat<T>> X;    // n samples, N x d
  AttentionWeights<T> w;
  T beta;
};

// Lift to scalar T (exact) after checking shapes and finiteness.
template <class T>
QAttention<T> lift_qin_attention(const Instance& inst) {
  const QAttentionShape s = qin_attention_shape(inst);
  QAttention<T> q;
  for (int i = 0; i < s.n; ++i) q.X.push_back(lift<T>(inst.matrix("X" + std::to_string(i))));
  q.w.W_Q = lift<T>(inst.matrix("W_Q"));
  q.w.W_K = lift<T>(inst.matrix("W_K"));
  q.w.W_V = lift<T>(inst.matrix("W_V"));
  q.w.c = T(inst.param("c"));
  q.beta = T(inst.param("beta"));
  return q;
}

}  // namespace thm
