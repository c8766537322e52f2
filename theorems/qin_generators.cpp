// Generators of the [Q] attention claims. Each builds instances that meet its claim's hypotheses by
// construction (spectrum-first X, scaled weights) and aims at the boundary where the bound is tight.
#include "theorems/qin_instance.hpp"
#include "theorems/qin_residual.hpp"
#include "theorems/qin_softmax.hpp"

#include <cmath>

namespace thm {

namespace {

constexpr int kDimCap = 12;

void draw_x_spectrum(ChoiceSource& src, QAttentionSpec& s) {
  s.x_sigma_max = src.log_real(1.0, 10.0);
  s.x_kappa = src.log_real(1.0, 100.0);
}

}  // namespace

Instance generate_rank_collapse(ChoiceSource& src) {
  QAttentionSpec s;
  s.N = sized_dimension(src, 2, kDimCap);
  s.d = sized_dimension(src, 2, kDimCap);
  s.beta = src.real(0.0, 1.0);
  draw_x_spectrum(src, s);
  s.row_constant_logits = src.coin(0.3);
  if (s.row_constant_logits) {
    s.tau = src.real(-2.0, 2.0);
    s.logit_max = src.log_real(1e-3, 1e4);  // any magnitude: S stays exactly uniform
  } else if (src.coin(kRankCollapseSignPatternShare)) {
    // Column-sign logits, where (b1) is tight to 1 + exp(2 eps): ||S - 11^T/N||_2 / (exp(2 eps) - 1)
    // >= 0.33 for eps <= 0.2 at every N (derivation, "Tightness"), so the control (bound / 4) fails
    // on every such case.
    s.sign_pattern_logits = true;
    s.tau = src.coin(0.5) ? src.log_real(0.1, 2.0) : -src.log_real(0.1, 2.0);
    s.logit_max = src.log_real(1e-6, kRankCollapseSignPatternEpsMax);
  } else {
    // Small logits (where (b) is nearly tight) and large logits (softmax near one-hot).
    s.logit_max = src.coin(0.7) ? src.log_real(1e-6, 0.5) : src.log_real(0.5, 50.0);
  }
  s.wv_norm = src.log_real(1e-2, 10.0);
  s.wv_kappa = src.log_real(1.0, 100.0);
  s.entropy = src.entropy();
  return build_qin_attention(s);
}

Instance generate_weyl_interlacing(ChoiceSource& src) {
  QAttentionSpec s;
  s.N = sized_dimension(src, 2, kDimCap);
  s.d = sized_dimension(src, 2, kDimCap);
  s.beta = src.coin(0.2) ? 1.0 : src.real(0.0, 1.0);
  draw_x_spectrum(src, s);
  s.logit_max = src.log_real(1e-6, 30.0);
  // W_V = 0 makes A = 0 and the j = 0 inequalities equalities: the tight boundary.
  s.wv_norm = src.coin(0.1) ? 0.0 : src.log_real(1e-3, 10.0);
  s.wv_kappa = src.log_real(1.0, 100.0);
  s.entropy = src.entropy();
  return build_qin_attention(s);
}

Instance generate_sigma_min_lower_bound(ChoiceSource& src) {
  QAttentionSpec s;
  s.N = sized_dimension(src, 2, kDimCap);
  s.d = sized_dimension(src, 2, kDimCap);
  // beta = 0 cannot meet the hypothesis; it is generated now and then, and honestly discarded.
  s.beta = src.coin(0.05) ? 0.0 : src.real(0.05, 1.0);
  draw_x_spectrum(src, s);
  s.logit_max = src.coin(0.5) ? src.log_real(1e-6, 1.0) : src.log_real(1.0, 50.0);
  // ||W_V||_2 = u beta sigma_min(X) / (sqrt(N) ||X||_2) with u < 1 makes the bound positive, since
  // ||S||_2 <= sqrt(N) (derivation, "Hypotheses").
  const double u = src.log_real(1e-3, 0.999);
  s.wv_norm = u * s.beta / (std::sqrt(static_cast<double>(s.N)) * s.x_kappa);
  s.wv_kappa = src.log_real(1.0, 10.0);
  s.entropy = src.entropy();
  return build_qin_attention(s);
}

Instance generate_conditioning_trend(ChoiceSource& src) {
  QAttentionSpec s;
  s.n = static_cast<int>(src.integer(1, 3));
  s.d = sized_dimension(src, s.n + 2, std::max(kDimCap, s.n + 2));  // n < d: collapse leaves Zs rank-deficient
  s.N = sized_dimension(src, 2, kDimCap);
  // The residual restores the data's own conditioning (kappa(Zs) -> kappa(Xs) as beta grows), so the
  // spectrum is set on the stacked Xs: kappa(Xs) in [1, 10] (derivation, "Regime").
  s.stacked_spectrum = true;
  s.x_sigma_max = src.log_real(1.0, 10.0);
  s.x_kappa = src.log_real(1.0, 10.0);
  s.beta = 0.0;  // unused: the claim sweeps beta itself
  // max|K| in [1e-10, 1e-8]: the near-collapsed regime of the derivation, where kappa(Zs) at beta = 0
  // exceeds 1e6 by rank_collapse (b).
  s.logit_max = src.log_real(1e-10, 1e-8);
  // W_V around the standard initialisation; the gain decides gamma = ||As(0)|| / ||Xs||, and cases
  // with gamma < 1 fall outside the claimed regime (derivation, "Where it breaks"): generated anyway,
  // so that the report says how often the regime is met.
  s.wv_gain = src.log_real(kTrendGainLo, kTrendGainHi);
  s.entropy = src.entropy();
  return build_qin_attention(s);
}

}  // namespace thm
