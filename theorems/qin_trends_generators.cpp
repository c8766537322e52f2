// Generators of the [Q] empirical training claims.
#include "theorems/qin_model_instance.hpp"
#include "theorems/qin_trends.hpp"

namespace thm {

Instance generate_depth_collapse(ChoiceSource& src) {
  QModelSpec s;
  s.n = 2;
  s.N = static_cast<int>(src.integer(4, 8));
  s.d = static_cast<int>(src.integer(4, 8));
  s.m = 16;
  s.d_y = 2;
  s.head_scale = 0.1;  // L_0 about 1/2 ||Y||^2 at every depth, so trained losses compare
  s.config.activation = src.coin(0.5) ? Activation::tanh : Activation::softplus;
  s.entropy = src.entropy();
  return build_qin_model(s);
}

}  // namespace thm
