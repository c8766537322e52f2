#pragma once

#include "numerics/fault.hpp"
#include "numerics/matmul.hpp"
#include "numerics/softmax.hpp"
#include "numerics/models/qin/transformer.hpp"
#include "numerics/detail/softmax_impl.hpp"

#include <cmath>
#include <stdexcept>
#include <vector>

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

// The samples stacked: rows [offset[i], offset[i+1]) hold sample i. Products with the weights (and the weights'
// gradients, sums over samples) run once on the stack: one MP product splits each weight once and rounds each entry
// once (numerics/ozaki_product.hpp); attention mixes the rows of one sample only.
struct Stack {
  std::vector<Eigen::Index> offset;
  Eigen::Index rows(std::size_t i) const { return offset[i + 1] - offset[i]; }
  std::size_t samples() const { return offset.size() - 1; }
};

template <class T>
Mat<T> stack_samples(const std::vector<Mat<T>>& M, Stack* stack = nullptr) {
  Eigen::Index rows = 0;
  for (const Mat<T>& m : M) rows += m.rows();
  Mat<T> all(rows, M.front().cols());
  Eigen::Index r = 0;
  if (stack) stack->offset = {0};
  for (const Mat<T>& m : M) {
    all.middleRows(r, m.rows()) = m;
    r += m.rows();
    if (stack) stack->offset.push_back(r);
  }
  return all;
}

template <class T>
std::vector<Mat<T>> unstack(const Mat<T>& all, const Stack& st) {
  std::vector<Mat<T>> out;
  for (std::size_t i = 0; i < st.samples(); ++i) out.push_back(all.middleRows(st.offset[i], st.rows(i)));
  return out;
}

// Everything the backward pass needs from one block, samples stacked (S per sample).
template <class T>
struct BlockCache {
  Mat<T> U, XQ, XK, XV, V, P, Phi, H;
  std::vector<Mat<T>> S;
};

template <class T>
BlockCache<T> block_forward(const TransformerBlock<T>& b, const TransformerConfig& cfg, const Mat<T>& U, const Stack& st) {
  BlockCache<T> k;
  k.U = U;
  k.XQ = product(U, b.W_Q);
  k.XK = product(U, b.W_K);
  k.XV = product(U, b.W_V);
  const T c = THM_FAULT(logit_scale_dropped) ? T(1) : softmax_scale<T>(cfg, U.cols());
  k.V = T(cfg.beta) * U;
  for (std::size_t i = 0; i < st.samples(); ++i) {
    const Eigen::Index r = st.offset[i], n = st.rows(i);
    const Mat<T> XQ = k.XQ.middleRows(r, n), XK = k.XK.middleRows(r, n), XV = k.XV.middleRows(r, n);
    k.S.push_back(softmax_rows(Mat<T>(c * product(XQ, XK, Trans::none, Trans::transpose))));
    k.V.middleRows(r, n) = product(k.S.back(), XV) + k.V.middleRows(r, n);
  }
  k.P = product(k.V, b.W_1);
  const Activation act = cfg.activation;
  k.Phi = k.P.unaryExpr([act](const T& x) { return activate(act, x); });
  k.H = product(k.Phi, b.W_2);
  if (!THM_FAULT(ffn_residual_dropped)) k.H += T(cfg.ffn_residual) * k.V;
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
  detail::Stack st;
  Mat<T> U = detail::stack_samples(X, &st);
  TransformerTrace<T> tr;
  for (const auto& b : p.blocks) {
    detail::BlockCache<T> k = detail::block_forward(b, cfg, U, st);
    tr.V.push_back(detail::unstack(k.V, st));
    tr.H.push_back(detail::unstack(THM_FAULT(trace_h_off_by_one) ? k.U : k.H, st));
    U = std::move(k.H);
  }
  const Mat<T> R = product(U, p.W_U) - detail::stack_samples(Y);
  tr.residual = detail::unstack(R, st);
  tr.loss = T(0.5) * R.squaredNorm();
  return tr;
}

template <class T>
T transformer_loss(const TransformerParams<T>& p, const TransformerConfig& cfg, const std::vector<Mat<T>>& X,
                   const std::vector<Mat<T>>& Y) {
  detail::check_shapes(p, X, Y);
  detail::Stack st;
  Mat<T> U = detail::stack_samples(X, &st);
  for (const auto& b : p.blocks) U = detail::block_forward(b, cfg, U, st).H;
  return T(0.5) * (product(U, p.W_U) - detail::stack_samples(Y)).squaredNorm();
}

template <class T>
TransformerParams<T> transformer_gradient(const TransformerParams<T>& p, const TransformerConfig& cfg,
                                          const std::vector<Mat<T>>& X, const std::vector<Mat<T>>& Y, T* loss_out) {
  detail::check_shapes(p, X, Y);
  TransformerParams<T> g;
  g.blocks.resize(p.blocks.size());
  const T beta = T(cfg.beta), gamma = T(cfg.ffn_residual);
  detail::Stack st;
  Mat<T> U = detail::stack_samples(X, &st);
  std::vector<detail::BlockCache<T>> cache;
  for (const auto& b : p.blocks) {
    cache.push_back(detail::block_forward(b, cfg, U, st));
    U = cache.back().H;
  }
  Mat<T> R = product(U, p.W_U) - detail::stack_samples(Y);  // dL/dYhat
  if (loss_out) *loss_out = T(0.5) * R.squaredNorm();
  if (THM_FAULT(loss_half_dropped_in_gradient)) R *= T(2);
  g.W_U = product(THM_FAULT(head_gradient_off_by_one) ? cache.back().U : U, R, Trans::transpose);
  Mat<T> G = product(R, p.W_U, Trans::none, Trans::transpose);  // dL/dH of the last block
  const std::size_t last = THM_FAULT(backward_skips_first_block) ? 1 : 0;
  if (last == 1) {  // the skipped block's gradient stays zero (of its shape)
    const TransformerBlock<T>& b = p.blocks.front();
    TransformerBlock<T>& gb = g.blocks.front();
    for (auto [gm, m] : {std::pair{&gb.W_Q, &b.W_Q}, {&gb.W_K, &b.W_K}, {&gb.W_V, &b.W_V}, {&gb.W_1, &b.W_1}, {&gb.W_2, &b.W_2}})
      *gm = Mat<T>::Zero(m->rows(), m->cols());
  }
  for (std::size_t l = p.blocks.size(); l-- > last;) {
    const TransformerBlock<T>& b = p.blocks[l];
    const detail::BlockCache<T>& k = cache[l];
    TransformerBlock<T>& gb = g.blocks[l];
    // H = Phi W_2 + gamma V, Phi = sigma(P), P = V W_1
    gb.W_2 = product(THM_FAULT(grad_w2_preactivation) ? k.P : k.Phi, G, Trans::transpose);
    const Activation act = cfg.activation;
    const Mat<T> dP = product(G, b.W_2, Trans::none, Trans::transpose)
                          .cwiseProduct(k.P.unaryExpr([act](const T& x) { return activate_prime(act, x); }));
    gb.W_1 = product(k.V, dP, Trans::transpose);
    Mat<T> dV = product(dP, b.W_1, Trans::none, Trans::transpose);
    if (!THM_FAULT(ffn_residual_grad_dropped)) dV += gamma * G;
    // V = S XV + beta U, XV = U W_V, per sample; K = c XQ XK^T, XQ = U W_Q, XK = U W_K
    const T c = detail::softmax_scale<T>(cfg, k.U.cols());
    Mat<T> dXV(dV.rows(), dV.cols()), dXQ(dV.rows(), dV.cols()), dXK(dV.rows(), dV.cols());
    for (std::size_t i = 0; i < st.samples(); ++i) {
      const Eigen::Index r = st.offset[i], n = st.rows(i);
      const Mat<T>& S = k.S[i];
      const Mat<T> dVi = dV.middleRows(r, n);
      dXV.middleRows(r, n) = product(S, dVi, Trans::transpose);
      const Mat<T> dS = product(dVi, Mat<T>(k.XV.middleRows(r, n)), Trans::none, Trans::transpose);
      // S = softmax_rows(K): dK_jk = S_jk (dS_jk - sum_l S_jl dS_jl)
      Mat<T> dK(S.rows(), S.cols());
      for (Eigen::Index j = 0; j < S.rows(); ++j) {
        const T inner = S.row(j).dot(dS.row(j));
        for (Eigen::Index m = 0; m < S.cols(); ++m) dK(j, m) = S(j, m) * (dS(j, m) - inner);
      }
      dXQ.middleRows(r, n) = c * product(dK, Mat<T>(k.XK.middleRows(r, n)));
      dXK.middleRows(r, n) = c * product(dK, Mat<T>(k.XQ.middleRows(r, n)), Trans::transpose);
    }
    gb.W_V = product(k.U, dXV, Trans::transpose);
    gb.W_Q = product(k.U, dXQ, Trans::transpose);
    gb.W_K = product(k.U, dXK, Trans::transpose);
    if (THM_FAULT(grad_wq_wk_swapped)) std::swap(gb.W_Q, gb.W_K);
    G = (THM_FAULT(attention_residual_grad_twice) ? T(2) * beta : beta) * dV + product(dXV, b.W_V, Trans::none, Trans::transpose) +
        product(dXQ, b.W_Q, Trans::none, Trans::transpose) + product(dXK, b.W_K, Trans::none, Trans::transpose);
  }
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
