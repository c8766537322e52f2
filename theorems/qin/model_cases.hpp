// What the generators of the [Q] training claims share: the activation draws and the wide model (nN <= d).
#pragma once

#include "numerics/choice_source.hpp"
#include "numerics/models/qin/model_instance.hpp"

#include <cmath>
#include <string>

namespace thm::qin {

inline Activation any_activation(ChoiceSource& src) { return static_cast<Activation>(src.integer(0, 3)); }
inline Activation smooth_activation(ChoiceSource& src) { return src.coin(0.5) ? Activation::tanh : Activation::softplus; }

// n, N with nN <= d (full row rank possible), widths growing with the size.
inline QModelSpec wide_spec(ChoiceSource& src, int max_n, int max_N) {
  QModelSpec s;
  s.n = static_cast<int>(src.integer(1, max_n));
  s.N = static_cast<int>(src.integer(2, max_N));
  s.d = sized_dimension(src, s.n * s.N, s.n * s.N + 8);
  s.m = sized_dimension(src, 2, 24);
  s.d_y = static_cast<int>(src.integer(1, 3));
  s.config.beta = src.real(0.0, 1.0);
  s.attn_scale = src.log_real(0.1, 3.0);
  return s;
}

// The largest model wide_spec draws, with FFN width up to max_m and L blocks.
inline QModelLimits wide_limits(int max_n, int max_N, int max_m = 24, int L = 1) { return {max_n, max_N, max_n * max_N + 8, max_m, 3, L}; }

// Targets independent of the model at the scale of its outputs: the instance's targets G (Gaussian, drawn
// independently of the weights) rescaled to ||Y||_F = ||Yhat(theta_0)||_F, with the sign of G that makes
// <Y, Yhat_0> <= 0 (G and -G are equally likely, so Y is still Gaussian). Then L_0 = 1/2 ||Yhat_0 - Y||^2 >= ||Y||^2:
// L_0 / (1/2 ||Y||^2) >= 2 by construction, not the initial outputs plus noise.
inline Instance with_output_scale_targets(Instance inst) {
  const QModel<double> q = qin_model_double(inst);
  const TransformerTrace<double> tr = transformer_forward(q.params, q.config, q.X, q.Y);
  double yhat2 = 0, y2 = 0, dot = 0;
  for (std::size_t i = 0; i < q.Y.size(); ++i) {
    const MatD yhat = tr.residual[i] + q.Y[i];
    yhat2 += yhat.squaredNorm();
    y2 += q.Y[i].squaredNorm();
    dot += yhat.cwiseProduct(q.Y[i]).sum();
  }
  const double scale = (dot > 0 ? -1.0 : 1.0) * std::sqrt(yhat2 / y2);
  for (std::size_t i = 0; i < q.Y.size(); ++i) inst.matrices["Y" + std::to_string(i)] = q.Y[i] * scale;
  inst.params["y_scale"] = std::abs(scale);
  return inst;
}

// The over-parameterised regime of the rate claims (docs/derivations/qin.gd.linear_rate.md, "Over-parameterised
// generator"): d >= 4 nN so that H_0 is well conditioned, FFN width m of the order of d, attention logits and
// head initialised small (attn_scale in [0.05, 0.5], head_scale in [1e-4, 2e-3]) and targets independent of the
// model at the output scale.
inline constexpr int kRateMaxD = 48, kRateMaxM = 64;
inline QModelSpec overparameterised_spec(ChoiceSource& src) {
  QModelSpec s;
  s.n = static_cast<int>(src.integer(1, 2));
  s.N = static_cast<int>(src.integer(2, 3));
  s.d = sized_dimension(src, 4 * s.n * s.N, kRateMaxD);
  s.m = sized_dimension(src, s.d / 2, kRateMaxM);
  s.d_y = static_cast<int>(src.integer(1, 3));
  s.config.beta = src.real(0.5, 1.0);
  s.config.activation = smooth_activation(src);
  s.attn_scale = src.log_real(0.05, 0.5);
  s.head_scale = src.log_real(1e-4, 2e-3);
  return s;
}

}  // namespace thm::qin
