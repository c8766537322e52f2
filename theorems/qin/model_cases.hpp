// What the generators of the [Q] training claims share: the activation draws and the wide model (nN <= d).
#pragma once

#include "numerics/choice_source.hpp"
#include "numerics/models/qin/model_instance.hpp"

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

}  // namespace thm::qin
