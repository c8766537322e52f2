// What the [Q] training claims share: the heuristic rounding noise of losses, gradients and feature
// singular values, the norms the smoothness constants (theorems/qin/ffn_smoothness.hpp) start from, and
// the setting the smoothness claims require.
#pragma once

#include "numerics/activation.hpp"
#include "numerics/models/qin/attention.hpp"
#include "numerics/spectral.hpp"
#include "numerics/models/qin/transformer.hpp"
#include "theorems/qin/ffn_smoothness.hpp"
#include "numerics/models/qin/model_instance.hpp"

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace thm {

namespace detail {

// Heuristic rounding noise of conditions built from losses and gradients (docs/derivations/noise-model.md, "Model
// claims (heuristic)"): 64 (n N d m) eps (|lhs| + |rhs|) (1 + ||Yhat|| / ||R||). The last factor is the
// cancellation in R = Yhat - Y: with targets close to the outputs, R carries relative error
// eps ||Yhat|| / ||R||, and so does everything computed from it. Not a proven bound.
// n N d m: the scale of the heuristic noise.
template <class T>
double model_size(const QModel<T>& q) {
  return double(q.X.size()) * double(q.X.front().rows()) * double(q.X.front().cols()) * double(q.params.blocks.front().W_1.cols());
}

template <class T>
T model_noise(const QModel<T>& q, const T& lhs, const T& rhs, const T& cancellation) {
  using std::abs;
  const double size = model_size(q);
  return T(64.0 * size) * epsilon<T>() * (abs(lhs) + abs(rhs)) * (T(1) + cancellation);
}

// Absolute error of a singular value of a computed feature matrix M (||M||_2 = norm): the SVD bound
// plus the rounding of M's entries, 64 (n N d m) eps norm (the same heuristic scale as model_noise).
template <class T>
T sigma_noise(const QModel<T>& q, const Mat<T>& M, const T& norm) {
  const double size = model_size(q);
  return singular_value_error_bound<T>(M.rows(), M.cols(), norm) + T(64.0 * size) * epsilon<T>() * norm;
}

// ||Yhat||_F / ||R||_F at theta (infinite when R = 0).
template <class T>
T loss_cancellation(const TransformerTrace<T>& tr, const QModel<T>& q) {
  using std::sqrt;
  T yhat2 = T(0), r2 = T(0);
  for (std::size_t i = 0; i < q.Y.size(); ++i) {
    yhat2 += (tr.residual[i] + q.Y[i]).squaredNorm();
    r2 += tr.residual[i].squaredNorm();
  }
  return r2 > T(0) ? T(sqrt(yhat2 / r2)) : std::numeric_limits<T>::infinity();
}

// (W_1, W_2) of the last block and W_U: the blocks the smoothness claims train (everything below,
// and the last block's attention, frozen).
inline std::vector<bool> ffn_and_head_blocks(std::size_t layers = 1) {
  std::vector<bool> t(5 * layers + 1, false);
  t[5 * (layers - 1) + 3] = t[5 * (layers - 1) + 4] = t[5 * layers] = true;
  return t;
}

// The norms the all-blocks constants start from (single layer).
template <class T>
AllBlocksPoint<T> all_blocks_point(const QModel<T>& q, const T& f0) {
  using std::sqrt;
  const TransformerBlock<T>& b = q.params.blocks[0];
  AllBlocksPoint<T> p;
  for (const Mat<T>& x : q.X) p.x.push_back(spectral_norm(x));
  p.N = T(double(q.X.front().rows()));
  p.m = T(double(b.W_1.cols()));
  p.c = q.config.c > 0 ? T(q.config.c) : T(T(1) / sqrt(T(double(q.X.front().cols()))));
  p.beta = T(q.config.beta);
  p.gamma = T(q.config.ffn_residual);
  p.q = spectral_norm(b.W_Q);
  p.k = spectral_norm(b.W_K);
  p.v = spectral_norm(b.W_V);
  p.w1_fro = b.W_1.norm();
  p.w2 = spectral_norm(b.W_2);
  p.wU = spectral_norm(q.params.W_U);
  p.f0 = f0;
  p.activation = q.config.activation;
  return p;
}

// The instance's own norms that the sharper constants start from (sharp_smoothness): every layer with its
// attention trained (all_blocks), or the last block alone with its attention frozen.
template <class T>
SharpPoint<T> sharp_point(const QModel<T>& q, const TransformerTrace<T>& tr, bool all_blocks) {
  using std::sqrt;
  const Eigen::Index N = q.X.front().rows();
  const std::size_t L = q.params.blocks.size();
  SharpPoint<T> p;
  p.N = T(double(N));
  p.c = q.config.c > 0 ? T(q.config.c) : T(T(1) / sqrt(T(double(q.X.front().cols()))));
  p.beta = T(q.config.beta);
  p.gamma = T(q.config.ffn_residual);
  p.nNm = T(double(q.X.size()) * double(N) * double(q.params.blocks.back().W_1.cols()));
  p.wU = spectral_norm(q.params.W_U);
  p.f0 = tr.loss;
  p.activation = q.config.activation;
  const Mat<T> C = Mat<T>::Identity(N, N) - Mat<T>::Constant(N, N, T(1) / T(double(N)));
  const Activation act = q.config.activation;
  for (std::size_t l = all_blocks ? 0 : L - 1; l < L; ++l) {
    const TransformerBlock<T>& b = q.params.blocks[l];
    SharpLayer<T> layer;
    layer.attention_trained = all_blocks;
    if (all_blocks) {
      layer.q = spectral_norm(b.W_Q);
      layer.k = spectral_norm(b.W_K);
      layer.v = spectral_norm(b.W_V);
      const AttentionWeights<T> w{b.W_Q, b.W_K, b.W_V, p.c};
      for (std::size_t i = 0; i < q.X.size(); ++i) {
        const Mat<T>& U = l == 0 ? q.X[i] : tr.H[l - 1][i];
        const AttentionForward<T> af = attention_forward(U, w, T(q.config.beta));
        const Mat<T> CU = C * U;
        layer.samples.push_back({spectral_norm(U), spectral_norm(CU), spectral_norm(Mat<T>(U * b.W_Q)), spectral_norm(Mat<T>(U * b.W_K)),
                                 spectral_norm(Mat<T>(CU * b.W_V)), spectral_norm(Mat<T>(af.S * U)), spectral_norm(af.S),
                                 af.S.maxCoeff()});
      }
    }
    const Mat<T> Vs = stack_rows(tr.V[l]), Hs = stack_rows(tr.H[l]);
    const Mat<T> Phi = (Vs * b.W_1).unaryExpr([act](const T& x) { return activate(act, x); });
    layer.v0 = spectral_norm(Vs);
    layer.w1 = spectral_norm(b.W_1);
    layer.w2 = spectral_norm(b.W_2);
    layer.phi0 = spectral_norm(Phi);
    layer.h0 = spectral_norm(Hs);
    p.layers.push_back(std::move(layer));
  }
  return p;
}

template <class T>
std::optional<std::string> ffn_claim_setting(const QModel<T>& q, bool multilayer = false) {
  if (!multilayer && q.params.blocks.size() != 1) return std::string("the claim covers a single layer (L = 1)");
  if (multilayer && q.params.blocks.size() < 2) return std::string("the multilayer claim needs L >= 2");
  if (!activation_smoothness<T>(q.config.activation))
    return std::string("activation ") + std::string(activation_name(q.config.activation)) + " has no certified s1, s2";
  return std::nullopt;
}

}  // namespace detail

}  // namespace thm
