#pragma once

#include "numerics/fault.hpp"
#include "numerics/matmul.hpp"
#include "numerics/ordered_gemm.hpp"
#include "numerics/softmax.hpp"
#include "numerics/models/qin/transformer.hpp"
#include "numerics/detail/softmax_impl.hpp"

#include <cmath>
#include <stdexcept>
#include <type_traits>
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
  if (cfg.c > 0) return T(cfg.c);
  if (THM_FAULT(logit_scale_1_over_d)) return T(T(1) / T(static_cast<double>(d)));
  return T(T(1) / sqrt(T(static_cast<double>(d))));
}

// The attention residual weight beta, read by the forward and the backward pass.
template <class T>
T residual_weight(const TransformerConfig& cfg) {
  return THM_FAULT(beta_squared) ? T(T(cfg.beta) * T(cfg.beta)) : T(cfg.beta);
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
void stack_samples_into(const std::vector<Mat<T>>& M, Mat<T>& all, Stack* stack = nullptr) {
  Eigen::Index rows = 0;
  for (const Mat<T>& m : M) rows += m.rows();
  if (all.rows() != rows || all.cols() != M.front().cols()) all.resize(rows, M.front().cols());
  Eigen::Index r = 0;
  if (stack) stack->offset = {0};
  for (const Mat<T>& m : M) {
    all.middleRows(r, m.rows()) = m;
    r += m.rows();
    if (stack) stack->offset.push_back(r);
  }
}

template <class T>
Mat<T> stack_samples(const std::vector<Mat<T>>& M, Stack* stack = nullptr) {
  Mat<T> all;
  stack_samples_into(M, all, stack);
  return all;
}

template <class T>
std::vector<Mat<T>> unstack(const Mat<T>& all, const Stack& st) {
  std::vector<Mat<T>> out;
  for (std::size_t i = 0; i < st.samples(); ++i) out.push_back(all.middleRows(st.offset[i], st.rows(i)));
  return out;
}

// dst = op(a) op(b), or dst + op(a) op(b) when accumulate (the product complete before dst is added). In double,
// numerics/ordered_gemm.hpp writes into dst's storage (dst sized by the caller; a, b, dst plain matrices or blocks
// of rows or columns): every entry summed in index order, the same bits whichever kernel the CPU runs. Other scalars
// go through thm::product (the Ozaki scheme at MP, the interval loop, Eigen for AutoDiff), blocks copied first.
template <class T, class Dst, class A, class B>
void multiply(Dst&& dst, const A& a, const B& b, Trans ta = Trans::none, Trans tb = Trans::none, bool accumulate = false) {
  const bool at = ta == Trans::transpose, bt = tb == Trans::transpose;
  if constexpr (std::is_same_v<T, double>) {
    const Eigen::Index rows = at ? a.cols() : a.rows(), inner = at ? a.rows() : a.cols(), cols = bt ? b.rows() : b.cols();
    detail::check_inner(inner, bt ? b.cols() : b.rows());
    if (dst.rows() != rows || dst.cols() != cols) throw std::invalid_argument("multiply: destination of the wrong shape");
    ordered_gemm(rows, cols, inner, a.data(), a.outerStride(), at, b.data(), b.outerStride(), bt, dst.data(),
                 dst.outerStride(), accumulate);
  } else {
    auto plain = [](const auto& x) -> decltype(auto) {
      if constexpr (std::is_same_v<std::decay_t<decltype(x)>, Mat<T>>) return (x);
      else return Mat<T>(x);
    };
    if (accumulate) dst += product(plain(a), plain(b), ta, tb);
    else dst = product(plain(a), plain(b), ta, tb);
  }
}

// A destination of multiply, sized for the double kernel (kept when the shape repeats). Other scalars need no size:
// multiply moves a whole product into a plain destination, and constructing MP entries first would be wasted.
template <class T>
void set_size(Mat<T>& m, Eigen::Index rows, Eigen::Index cols) {
  if constexpr (std::is_same_v<T, double>)
    if (m.rows() != rows || m.cols() != cols) m.resize(rows, cols);
}

// sigma(x) and sigma'(x) together. For softplus on point scalars (double, MPFR) one e = exp(-|x|) serves both: the
// values activate and activate_prime return, bit for bit (for x > 0 they take exp(-x), otherwise exp(x); both are
// e), at one exp and one log instead of two exps and one log. Other activations and scalars (intervals, whose
// comparisons must not be made here; AutoDiff) call the two functions.
template <class T>
void activate_with_slope(Activation a, const T& x, T& value, T& slope) {
  if constexpr (std::is_same_v<T, double> || is_mpfr_number<T>::value) {
    if (a == Activation::softplus) {
      using std::abs;
      using std::exp;
      using std::log;
      const T e = exp(T(-abs(x)));
      const T one_plus_e = T(1) + e;
      const T log_term = log(one_plus_e);
      const bool positive = x > T(0);
      value = positive ? T(x + log_term) : log_term;
      if (THM_FAULT(softplus_prime_is_softplus)) slope = value;
      else slope = positive ? T(T(1) / one_plus_e) : T(e / one_plus_e);
      return;
    }
  }
  value = activate(a, x);
  slope = activate_prime(a, x);
}

// Everything the backward pass needs from one block, samples stacked (S per sample); slope = sigma'(P), formed only
// for the gradient. Filled in place: in double its matrices keep their storage when the shapes repeat (the blocks of
// transformer_forward and transformer_loss).
template <class T>
struct BlockCache {
  Mat<T> U, XQ, XK, XV, V, P, Phi, slope, H;
  std::vector<Mat<T>> S;
};

template <class T>
void block_forward(const TransformerBlock<T>& b, const TransformerConfig& cfg, const Mat<T>& U, const Stack& st,
                   BlockCache<T>& k, bool with_slope) {
  const Eigen::Index rows = U.rows(), d = U.cols(), m = b.W_1.cols();
  k.U = U;
  set_size(k.XQ, rows, d);
  set_size(k.XK, rows, d);
  set_size(k.XV, rows, d);
  multiply<T>(k.XQ, U, b.W_Q);
  multiply<T>(k.XK, U, b.W_K);
  multiply<T>(k.XV, U, b.W_V);
  const T c = THM_FAULT(logit_scale_dropped) ? T(1) : softmax_scale<T>(cfg, d);
  k.V = residual_weight<T>(cfg) * U;
  k.S.resize(st.samples());
  Mat<T> logits;
  for (std::size_t i = 0; i < st.samples(); ++i) {
    const Eigen::Index r = st.offset[i], n = st.rows(i);
    set_size(logits, n, n);
    multiply<T>(logits, k.XQ.middleRows(r, n), k.XK.middleRows(r, n), Trans::none, Trans::transpose);
    logits *= c;  // c K_ij, as c * K: the product is commutative
    k.S[i] = softmax_rows(logits);
    multiply<T>(k.V.middleRows(r, n), k.S[i], k.XV.middleRows(r, n), Trans::none, Trans::none, true);  // S XV + beta U
  }
  set_size(k.P, rows, m);
  multiply<T>(k.P, k.V, b.W_1);
  const Activation act = cfg.activation;
  if (k.Phi.rows() != rows || k.Phi.cols() != m) k.Phi.resize(rows, m);  // filled entry by entry: every scalar
  if (with_slope) {
    if (k.slope.rows() != rows || k.slope.cols() != m) k.slope.resize(rows, m);
    for (Eigen::Index e = 0; e < k.P.size(); ++e) activate_with_slope(act, k.P.data()[e], k.Phi.data()[e], k.slope.data()[e]);
  } else {
    for (Eigen::Index e = 0; e < k.P.size(); ++e) k.Phi.data()[e] = activate(act, k.P.data()[e]);
  }
  set_size(k.H, rows, d);
  if (THM_FAULT(ffn_residual_dropped)) {
    multiply<T>(k.H, k.Phi, b.W_2);
  } else {
    k.H = T(cfg.ffn_residual) * k.V;
    multiply<T>(k.H, k.Phi, b.W_2, Trans::none, Trans::none, true);  // Phi W_2 + gamma V
  }
}

// The gradient's intermediates. In double one per thread, kept from call to call: a step then allocates only the
// gradient it returns (freeing the intermediates let the C library hand their pages back, and touching them again
// cost about 8 % of the bench's step in page faults). Other scalars: one per call.
template <class T>
struct GradientWorkspace {
  std::vector<BlockCache<T>> cache;
  Mat<T> U, R, G, dP, dV, dXV, dXQ, dXK, dS, dK;
};

template <class T>
GradientWorkspace<T>& gradient_workspace(GradientWorkspace<T>& per_call) {
  if constexpr (std::is_same_v<T, double>) {
    thread_local GradientWorkspace<double> kept;
    return kept;
  } else {
    return per_call;
  }
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
  detail::BlockCache<T> k;
  for (const auto& b : p.blocks) {
    detail::block_forward(b, cfg, U, st, k, false);
    tr.V.push_back(detail::unstack(k.V, st));
    tr.H.push_back(detail::unstack(THM_FAULT(trace_h_off_by_one) ? k.U : k.H, st));
    U = k.H;
  }
  Mat<T> R = detail::stack_samples(Y);
  R = -R;
  detail::multiply<T>(R, U, p.W_U, Trans::none, Trans::none, true);  // U W_U - Y
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
  detail::BlockCache<T> k;
  for (const auto& b : p.blocks) {
    detail::block_forward(b, cfg, U, st, k, false);
    U = k.H;
  }
  Mat<T> R = detail::stack_samples(Y);
  R = -R;
  detail::multiply<T>(R, U, p.W_U, Trans::none, Trans::none, true);  // U W_U - Y
  return T(0.5) * R.squaredNorm();
}

// Reverse mode (docs/derivations/qin.model.md). The input gradient dL/dU of the first block is not formed: nothing
// reads it (it is a sixth of the step's multiply-adds at L = 1).
template <class T>
TransformerParams<T> transformer_gradient(const TransformerParams<T>& p, const TransformerConfig& cfg,
                                          const std::vector<Mat<T>>& X, const std::vector<Mat<T>>& Y, T* loss_out) {
  detail::check_shapes(p, X, Y);
  TransformerParams<T> g;
  g.blocks.resize(p.blocks.size());
  const T beta = detail::residual_weight<T>(cfg), gamma = T(cfg.ffn_residual);
  detail::Stack st;
  detail::GradientWorkspace<T> per_call;
  detail::GradientWorkspace<T>& ws = detail::gradient_workspace(per_call);
  Mat<T>& U = ws.U;
  detail::stack_samples_into(X, U, &st);
  std::vector<detail::BlockCache<T>>& cache = ws.cache;
  cache.resize(p.blocks.size());
  for (std::size_t l = 0; l < p.blocks.size(); ++l) {
    detail::block_forward(p.blocks[l], cfg, U, st, cache[l], true);
    U = cache[l].H;
  }
  const Eigen::Index rows = U.rows(), d = U.cols();
  Mat<T>& R = ws.R;
  detail::stack_samples_into(Y, R);
  R = -R;
  detail::multiply<T>(R, U, p.W_U, Trans::none, Trans::none, true);  // dL/dYhat = U W_U - Y
  if (loss_out) *loss_out = T(0.5) * R.squaredNorm();
  if (THM_FAULT(loss_half_dropped_in_gradient)) R *= T(2);
  detail::set_size(g.W_U, d, p.W_U.cols());
  detail::multiply<T>(g.W_U, THM_FAULT(head_gradient_off_by_one) ? cache.back().U : U, R, Trans::transpose);
  Mat<T>& G = ws.G;  // dL/dH of the last block
  if (G.rows() != rows || G.cols() != d) G.resize(rows, d);
  detail::multiply<T>(G, R, p.W_U, Trans::none, Trans::transpose);
  const std::size_t last = THM_FAULT(backward_skips_first_block) ? 1 : 0;
  if (last == 1) {  // the skipped block's gradient stays zero (of its shape)
    const TransformerBlock<T>& b = p.blocks.front();
    TransformerBlock<T>& gb = g.blocks.front();
    for (auto [gm, m] : {std::pair{&gb.W_Q, &b.W_Q}, {&gb.W_K, &b.W_K}, {&gb.W_V, &b.W_V}, {&gb.W_1, &b.W_1}, {&gb.W_2, &b.W_2}})
      *gm = Mat<T>::Zero(m->rows(), m->cols());
  }
  Mat<T>& dP = ws.dP;
  Mat<T>& dV = ws.dV;
  Mat<T>& dXV = ws.dXV;
  Mat<T>& dXQ = ws.dXQ;
  Mat<T>& dXK = ws.dXK;
  Mat<T>& dS = ws.dS;
  Mat<T>& dK = ws.dK;
  for (Mat<T>* m : {&dXV, &dXQ, &dXK})  // written block by block: sized for every scalar
    if (m->rows() != rows || m->cols() != d) m->resize(rows, d);
  for (std::size_t l = p.blocks.size(); l-- > last;) {
    const TransformerBlock<T>& b = p.blocks[l];
    const detail::BlockCache<T>& k = cache[l];
    TransformerBlock<T>& gb = g.blocks[l];
    const Eigen::Index m = b.W_1.cols();
    // H = Phi W_2 + gamma V, Phi = sigma(P), P = V W_1
    detail::set_size(gb.W_2, m, d);
    detail::multiply<T>(gb.W_2, THM_FAULT(grad_w2_preactivation) ? k.P : k.Phi, G, Trans::transpose);
    detail::set_size(dP, rows, m);
    detail::multiply<T>(dP, G, b.W_2, Trans::none, Trans::transpose);
    dP.array() *= k.slope.array();  // dL/dP = (G W_2^T) .* sigma'(P)
    detail::set_size(gb.W_1, d, m);
    detail::multiply<T>(gb.W_1, k.V, dP, Trans::transpose);
    if (THM_FAULT(ffn_residual_grad_dropped)) {
      detail::set_size(dV, rows, d);
      detail::multiply<T>(dV, dP, b.W_1, Trans::none, Trans::transpose);
    } else {
      dV = gamma * G;
      detail::multiply<T>(dV, dP, b.W_1, Trans::none, Trans::transpose, true);  // dP W_1^T + gamma G
    }
    // V = S XV + beta U, XV = U W_V, per sample; K = c XQ XK^T, XQ = U W_Q, XK = U W_K
    const T c = detail::softmax_scale<T>(cfg, k.U.cols());
    for (std::size_t i = 0; i < st.samples(); ++i) {
      const Eigen::Index r = st.offset[i], n = st.rows(i);
      const Mat<T>& S = k.S[i];
      detail::multiply<T>(dXV.middleRows(r, n), S, dV.middleRows(r, n), Trans::transpose);
      detail::set_size(dS, n, n);
      detail::multiply<T>(dS, dV.middleRows(r, n), k.XV.middleRows(r, n), Trans::none, Trans::transpose);
      // S = softmax_rows(K): dK_jk = S_jk (dS_jk - sum_l S_jl dS_jl)
      if (dK.rows() != n || dK.cols() != n) dK.resize(n, n);  // filled entry by entry: every scalar
      for (Eigen::Index j = 0; j < n; ++j) {
        const T inner = S.row(j).dot(dS.row(j));
        for (Eigen::Index q = 0; q < n; ++q) dK(j, q) = S(j, q) * (dS(j, q) - inner);
      }
      detail::multiply<T>(dXQ.middleRows(r, n), dK, k.XK.middleRows(r, n));
      dXQ.middleRows(r, n) *= c;  // c (dK XK)
      detail::multiply<T>(dXK.middleRows(r, n), dK, k.XQ.middleRows(r, n), Trans::transpose);
      dXK.middleRows(r, n) *= c;  // c (dK^T XQ)
    }
    detail::set_size(gb.W_V, d, d);
    detail::set_size(gb.W_Q, d, d);
    detail::set_size(gb.W_K, d, d);
    detail::multiply<T>(gb.W_V, k.U, dXV, Trans::transpose);
    detail::multiply<T>(gb.W_Q, k.U, dXQ, Trans::transpose);
    detail::multiply<T>(gb.W_K, k.U, dXK, Trans::transpose);
    if (THM_FAULT(grad_wq_wk_swapped)) std::swap(gb.W_Q, gb.W_K);
    if (l == last) break;  // dL/dU of the first block: not needed
    // dL/dU = beta dV + dXV W_V^T + dXQ W_Q^T + dXK W_K^T, summed in that order: the previous block's G
    G = (THM_FAULT(attention_residual_grad_twice) ? T(2) * beta : beta) * dV;
    detail::multiply<T>(G, dXV, b.W_V, Trans::none, Trans::transpose, true);
    detail::multiply<T>(G, dXQ, b.W_Q, Trans::none, Trans::transpose, true);
    detail::multiply<T>(G, dXK, b.W_K, Trans::none, Trans::transpose, true);
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
