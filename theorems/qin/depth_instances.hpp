// The instances of [Q]'s depth experiment (qin.depth.*): n = 2 sequences of N, d in [4, 8] tokens, order-one logits,
// a small head so that L_0 is about 1/2 ||Y||^2 at every depth and trained losses compare. Deeper blocks are redrawn
// from the instance's entropy (numerics/models/qin/sweeps.hpp).
#pragma once

#include "numerics/choice_source.hpp"
#include "numerics/models/qin/model_instance.hpp"
#include "numerics/models/qin/sweeps.hpp"

namespace thm::qin {

// `seconds`: what the claim's largest instances take at 200 digits (bench/largest_instances.sh).
inline InstanceSchema depth_instance_schema(double seconds) { return qin_sweep_schema({2, 8, 8, 16, 2, 1}).seconds_at_limits(seconds); }

inline Instance generate_depth_instance(ChoiceSource& src) {
  QModelSpec s;
  s.n = 2;
  s.N = static_cast<int>(src.integer(4, 8));
  s.d = static_cast<int>(src.integer(4, 8));
  s.m = 16;
  s.d_y = 2;
  s.head_scale = 0.1;
  s.config.activation = src.coin(0.5) ? Activation::tanh : Activation::softplus;
  s.entropy = src.entropy();
  return build_qin_model(s);
}

}  // namespace thm::qin
