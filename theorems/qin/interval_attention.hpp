// The attention block of a one-sample [Q] instance on intervals (MPFI, numerics/interval.hpp): K, S, X W_V,
// A = S X W_V, Z = A + beta X; shared by the interval certificates of the attention claims.
#pragma once

#include "numerics/interval.hpp"
#include "numerics/models/qin/attention_instance.hpp"

namespace thm::qin {

struct IntervalAttention {
  IMat X, WV, K, S, XV, A, Z;
  mpfi_dynamic beta;
};

inline IntervalAttention interval_attention(const Instance& inst) {
  const QAttentionShape shape = qin_attention_shape(inst);
  if (shape.n != 1) throw InstanceError("the interval evaluation takes one sample");
  IntervalAttention a;
  a.X = to_interval(inst.matrix("X0"));
  const IMat WQ = to_interval(inst.matrix("W_Q")), WK = to_interval(inst.matrix("W_K"));
  a.WV = to_interval(inst.matrix("W_V"));
  const mpfi_dynamic c = mpfi_dynamic(inst.param("c"));
  a.beta = mpfi_dynamic(inst.param("beta"));
  const IMat XQ = a.X * WQ, XK = a.X * WK;
  a.K = c * IMat(XQ * XK.transpose());
  a.S = interval_softmax_rows(a.K);
  a.XV = a.X * a.WV;
  a.A = a.S * a.XV;
  a.Z = a.A + a.beta * a.X;
  return a;
}

}  // namespace thm::qin
