// What the generators of the [Q] attention claims share: the dimension cap and the spectrum of X.
#pragma once

#include "numerics/choice_source.hpp"
#include "numerics/models/qin/attention_instance.hpp"

namespace thm::qin {

inline constexpr int kAttentionDimCap = 12;

inline void draw_x_spectrum(ChoiceSource& src, QAttentionSpec& s) {
  s.x_sigma_max = src.log_real(1.0, 10.0);
  s.x_kappa = src.log_real(1.0, 100.0);
}

}  // namespace thm::qin
