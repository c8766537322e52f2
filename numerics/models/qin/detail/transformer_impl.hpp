#pragma once

#include "numerics/matmul.hpp"
#include "numerics/softmax.hpp"
#include "numerics/models/qin/transformer.hpp"
#include "numerics/detail/softmax_impl.hpp"

#include <cmath>
#include <stdexcept>

namespace thm {

template <class T>
Mat<T>& TransformerParams<T>::block(std::size_t k) {
  if (k + 1 == block_count()) return W_U;
  TransformerBlock<T>& b = blocks.at(k / 5);
  switch (k % 5) {
    case 0: return b.W_Q;
    case 1: return b.W_K;
    case 2: return b.W_V;
    case 3: return b.W_1;
    default: return b.W_2;
  }
}

template <class T>
const Mat<T>& TransformerParams<T>::block(std::size_t k) const {
  return const_cast<TransformerParams<T>*>(this)->block(k);
}

namespace detail {

template <class T>
T softmax_scale(const TransformerConfig& cfg, Eigen::Index d) {
  using std::sqrt;
  return cfg.c > 0 ? T(cfg.c) : T(T(1) / sqrt(T(static_cast<double>(d))));
}

// Everything the backward pass needs from one block on one sample.
template <class T>
struct BlockCache {
  Mat<T> U, XQ, XK, S, XV, V, P, Phi, H;
};

template <class T>
BlockCache<T> block_forward(const TransformerBlock<T>& b, const TransformerConfig& cfg, const Mat<T>& U) {
  BlockCache<T> k;
  k.U = U;
  k.XQ = product(U, b.W_Q);
  k.XK = product(U, b.W_K);
  const Mat<T> logits = softmax_scale<T>(cfg, U.cols()) * product(k.XQ, k.XK, Trans::none, Trans::transpose);
  k.S = softmax_rows(logits);
  k.XV = product(U, b.W_V);
  k.V = product(k.S, k.XV) + T(cfg.beta) * U;
  k.P = product(k.V, b.W_1);
  const Activation act = cfg.activation;
  k.Phi = k.P.unaryExpr([act](const T& x) { return activate(act, x); });
  k.H = product(k.Phi, b.W_2) + T(cfg.ffn_residual) * k.V;
  return k;
}

template <class T>
void check_shapes(const TransformerParams<T>& p, const std::vector<Mat<T>>& X, const std::vector<Mat<T>>& Y) {
  if (X.size() != Y.size() || X.empty()) throw std::invalid_argument("transformer: need as many targets as samples (>= 1)");
  const Eigen::Index d = X.front().cols();
  for (const auto& b : p.blocks)
    if (b.W_Q.rows() != d || b.W_Q.cols() != d || b.W_K.rows() != d || b.W_K.cols() != d || b.W_V.rows() != d ||
        b.W_V.cols() != d || b.W_1.rows() != d || b.W_2.cols() != d || b.W_2.rows() != b.W_1.cols())
      throw std::invalid_argument("transformer: block shapes must be W_Q, W_K, W_V d x d, W_1 d x m, W_2 m x d");
  if (p.W_U.rows() != d) throw std::invalid_argument("transformer: W_U must have d rows");
  for (std::size_t i = 0; i < X.size(); ++i)
    if (X[i].cols() != d || Y[i].rows() != X[i].rows() || Y[i].cols() != p.W_U.cols())
      throw std::invalid_argument("transformer: X_i must be N x d and Y_i N x d_y");
}

}  // namespace detail

template <class T>
TransformerTrace<T> transformer_forward(const TransformerParams<T>& p, const TransformerConfig& cfg,
                                        const std::vector<Mat<T>>& X, const std::vector<Mat<T>>& Y) {
  detail::check_shapes(p, X, Y);
  TransformerTrace<T> tr;
  tr.V.resize(p.blocks.size());
  tr.H.resize(p.blocks.size());
  tr.loss = T(0);
  for (std::size_t i = 0; i < X.size(); ++i) {
    Mat<T> U = X[i];
    for (std::size_t l = 0; l < p.blocks.size(); ++l) {
      detail::BlockCache<T> k = detail::block_forward(p.blocks[l], cfg, U);
      tr.V[l].push_back(k.V);
      tr.H[l].push_back(k.H);
      U = std::move(k.H);
    }
    Mat<T> R = product(U, p.W_U) - Y[i];
    tr.loss += T(0.5) * R.squaredNorm();
    tr.residual.push_back(std::move(R));
  }
  return tr;
}

template <class T>
T transformer_loss(const TransformerParams<T>& p, const TransformerConfig& cfg, const std::vector<Mat<T>>& X,
                   const std::vector<Mat<T>>& Y) {
  detail::check_shapes(p, X, Y);
  T loss = T(0);
  for (std::size_t i = 0; i < X.size(); ++i) {
    Mat<T> U = X[i];
    for (const auto& b : p.blocks) U = detail::block_forward(b, cfg, U).H;
    loss += T(0.5) * (product(U, p.W_U) - Y[i]).squaredNorm();
  }
  return loss;
}

template <class T>
TransformerParams<T> transformer_gradient(const TransformerParams<T>& p, const TransformerConfig& cfg,
                                          const std::vector<Mat<T>>& X, const std::vector<Mat<T>>& Y, T* loss_out) {
  detail::check_shapes(p, X, Y);
  TransformerParams<T> g;
  for (const auto& b : p.blocks)
    g.blocks.push_back({Mat<T>::Zero(b.W_Q.rows(), b.W_Q.cols()), Mat<T>::Zero(b.W_K.rows(), b.W_K.cols()),
                        Mat<T>::Zero(b.W_V.rows(), b.W_V.cols()), Mat<T>::Zero(b.W_1.rows(), b.W_1.cols()),
                        Mat<T>::Zero(b.W_2.rows(), b.W_2.cols())});
  g.W_U = Mat<T>::Zero(p.W_U.rows(), p.W_U.cols());
  T loss = T(0);
  const T beta = T(cfg.beta), gamma = T(cfg.ffn_residual);
  for (std::size_t i = 0; i < X.size(); ++i) {
    std::vector<detail::BlockCache<T>> cache;
    Mat<T> U = X[i];
    for (const auto& b : p.blocks) {
      cache.push_back(detail::block_forward(b, cfg, U));
      U = cache.back().H;
    }
    const Mat<T> R = product(U, p.W_U) - Y[i];  // dL/dYhat
    loss += T(0.5) * R.squaredNorm();
    g.W_U += product(U, R, Trans::transpose);
    Mat<T> G = product(R, p.W_U, Trans::none, Trans::transpose);  // dL/dH of the last block
    for (std::size_t l = p.blocks.size(); l-- > 0;) {
      const TransformerBlock<T>& b = p.blocks[l];
      const detail::BlockCache<T>& k = cache[l];
      TransformerBlock<T>& gb = g.blocks[l];
      // H = Phi W_2 + gamma V, Phi = sigma(P), P = V W_1
      gb.W_2 += product(k.Phi, G, Trans::transpose);
      const Activation act = cfg.activation;
      const Mat<T> dP = product(G, b.W_2, Trans::none, Trans::transpose)
                            .cwiseProduct(k.P.unaryExpr([act](const T& x) { return activate_prime(act, x); }));
      gb.W_1 += product(k.V, dP, Trans::transpose);
      const Mat<T> dV = product(dP, b.W_1, Trans::none, Trans::transpose) + gamma * G;
      // V = S XV + beta U, XV = U W_V
      const Mat<T> dXV = product(k.S, dV, Trans::transpose);
      const Mat<T> dS = product(dV, k.XV, Trans::none, Trans::transpose);
      gb.W_V += product(k.U, dXV, Trans::transpose);
      Mat<T> dU = beta * dV + product(dXV, b.W_V, Trans::none, Trans::transpose);
      // S = softmax_rows(K): dK_jk = S_jk (dS_jk - sum_l S_jl dS_jl)
      Mat<T> dK(k.S.rows(), k.S.cols());
      for (Eigen::Index j = 0; j < k.S.rows(); ++j) {
        const T inner = k.S.row(j).dot(dS.row(j));
        for (Eigen::Index m = 0; m < k.S.cols(); ++m) dK(j, m) = k.S(j, m) * (dS(j, m) - inner);
      }
      // K = c XQ XK^T, XQ = U W_Q, XK = U W_K
      const T c = detail::softmax_scale<T>(cfg, k.U.cols());
      const Mat<T> dXQ = c * product(dK, k.XK);
      const Mat<T> dXK = c * product(dK, k.XQ, Trans::transpose);
      gb.W_Q += product(k.U, dXQ, Trans::transpose);
      gb.W_K += product(k.U, dXK, Trans::transpose);
      dU += product(dXQ, b.W_Q, Trans::none, Trans::transpose) + product(dXK, b.W_K, Trans::none, Trans::transpose);
      G = std::move(dU);
    }
  }
  if (loss_out) *loss_out = loss;
  return g;
}

template <class T>
T params_dot(const TransformerParams<T>& a, const TransformerParams<T>& b) {
  T s = T(0);
  for (std::size_t k = 0; k < a.block_count(); ++k) s += a.block(k).cwiseProduct(b.block(k)).sum();
  return s;
}

template <class T>
TransformerParams<T> params_axpy(const TransformerParams<T>& a, const T& s, const TransformerParams<T>& b) {
  TransformerParams<T> r = a;
  for (std::size_t k = 0; k < a.block_count(); ++k) r.block(k) += s * b.block(k);
  return r;
}

}  // namespace thm
