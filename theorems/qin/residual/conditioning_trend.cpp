// qin.residual.conditioning_trend (empirical; docs/derivations/qin.residual.conditioning_trend.md)
//
// The residual connection Z = A + beta X, n samples stacked as Zs: with small logits, over
// beta in {0, .1, .25, .5, .75, 1}:
//   kappa(Zs) >= 1e6 at beta = 0,  Spearman(beta, kappa(Zs)) <= -0.9,
//   Spearman(beta, min_i sigma_min(Z_i)^2 / max_i ||Z_i||^2) >= 0.9.
// Hypothesis (derived regime): gamma = ||As(0)||_2 / ||Xs||_2 >= 1, attention dominates over the grid;
// below it kappa has an interior minimum in [0, 1] and the case is discarded, and counted.
// Judged statistically (required support 0.9).
// Negative control: the reversed trend, Spearman(beta, kappa(Zs)) >= +0.9.
#include "numerics/rank_correlation.hpp"
#include "theorems/qin/attention_cases.hpp"
#include "theorems/qin/attention_noise.hpp"
#include "numerics/models/qin/attention_instance.hpp"
#include "theorems/register_claim.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace thm::qin {

struct ConditioningTrend {
  // The grid and thresholds (docs/spec/claims.md); change them here and only here.
  static constexpr std::array<double, 6> kBetaGrid = {0.0, 0.1, 0.25, 0.5, 0.75, 1.0};
  static constexpr double kKappaAtZero = 1e6;
  static constexpr double kRhoKappa = -0.9;
  static constexpr double kRhoRatio = 0.9;
  static constexpr double kSupport = 0.9;
  static constexpr double kGammaMin = 1.0;  // ||As(0)|| / ||Xs||: the grid's end, beta = 1
  // W_V entries N(0, gain^2/d), gain log-uniform in [0.3, 10] around the standard initialisation (1).
  static constexpr double kGainLo = 0.3, kGainHi = 10.0;

  static ClaimInfo info() {
    return {
        .id = "qin.residual.conditioning_trend",
        .source = "Q",
        .provenance = Provenance::empirical,
        .kind = ClaimKind::trend,
        .statement = "small logits, beta in {0,.1,.25,.5,.75,1}: kappa(Zs) >= 1e6 at beta = 0, Spearman(beta, kappa(Zs)) <= "
                     "-0.9, Spearman(beta, min_i sigma_min(Z_i)^2 / max_i ||Z_i||^2) >= 0.9; regime ||As(0)||_2 >= ||Xs||_2",
        .negative_control = "the reversed trend: Spearman(beta, kappa(Zs)) >= +0.9",
        .uses = {"qin.softmax.rank_collapse"},
        .required_support = kSupport,
        .min_hypothesis_rate = 0.25,  // the regime gamma >= 1 holds in about half the gains drawn (derivation, "Regime")
        .default_cases = 100,
    };
  }

  // The instances it reads (numerics/instance_schema.hpp): what the generator below draws.
  static InstanceSchema schema() {
    return qin_attention_schema(3, kAttentionDimCap);
  }
  static Instance generate(ChoiceSource& src) {
    QAttentionSpec s;
    s.n = static_cast<int>(src.integer(1, 3));
    s.d = sized_dimension(src, s.n + 2, std::max(kAttentionDimCap, s.n + 2));  // n < d: collapse leaves Zs rank-deficient
    s.N = sized_dimension(src, 2, kAttentionDimCap);
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
    s.wv_gain = src.log_real(kGainLo, kGainHi);
    s.entropy = src.entropy();
    return build_qin_attention(s);
  }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant variant) {
    const QAttention<T> q = lift_qin_attention<T>(inst);
    const std::vector<double> betas(kBetaGrid.begin(), kBetaGrid.end());
    const TrendCurve<T> curve = trend_curve(q);
    if (!(curve.gamma >= T(kGammaMin)))
      return Evaluation::discarded("gamma = ||As(0)||_2 / ||Xs||_2 < " + exact_decimal(kGammaMin) +
                                   ": outside the attention-dominated regime");
    const double rho_kappa = spearman_rho(betas, curve.kappa), rho_ratio = spearman_rho(betas, curve.ratio);

    Evaluation e;
    e.conditions.push_back(
        make_ge<T>("kappa(Zs) at beta = 0 (certified lower bound) >= 1e6", curve.kappa_lower_at_zero, T(kKappaAtZero), T(0)));
    if (variant == Variant::claim)
      e.conditions.push_back(make_le<double>("Spearman(beta, kappa(Zs)) <= -0.9", rho_kappa, kRhoKappa, 0.0));
    else
      e.conditions.push_back(make_ge<double>("Spearman(beta, kappa(Zs)) >= +0.9", rho_kappa, -kRhoKappa, 0.0));
    e.conditions.push_back(
        make_ge<double>("Spearman(beta, min_i sigma_min(Z_i)^2 / max_i ||Z_i||^2) >= 0.9", rho_ratio, kRhoRatio, 0.0));
    e.observations.emplace_back("gamma = ||As(0)|| / ||Xs||", to_double(curve.gamma));
    for (std::size_t b = 0; b < betas.size(); ++b) {
      e.add_point("kappa(Zs)", "beta", betas[b], curve.kappa[b]);
      e.add_point("min sigma_min(Z_i)^2 / max ||Z_i||^2", "beta", betas[b], curve.ratio[b]);
    }
    return e;
  }

 private:
  template <class T>
  struct TrendCurve {
    std::vector<double> kappa, ratio;  // per beta of kBetaGrid
    T kappa_lower_at_zero;             // certified lower bound of kappa(Zs) at beta = 0
    T gamma;                           // ||As(0)||_2 / ||Xs||_2: how much attention dominates
  };

  // kappa(Zs) and min_i sigma_min(Z_i)^2 / max_i ||Z_i||_2^2 over the beta grid, for one draw.
  template <class T>
  static TrendCurve<T> trend_curve(const QAttention<T>& q) {
    using std::sqrt;
    TrendCurve<T> c;
    for (double beta : kBetaGrid) {
      std::vector<Mat<T>> Z;
      T min_sigma_min2 = std::numeric_limits<T>::infinity(), max_norm2 = 0;
      T dZs2 = 0;  // squared noise of the stacked matrix (blocks are independent); needed at beta = 0 only
      for (const Mat<T>& X : q.X) {
        const AttentionForward<T> f = attention_forward(X, q.w, T(beta));
        const Vec<T> s = singular_values(f.Z);
        if (beta == 0.0) {
          const detail::AttentionNoise<T> noise = detail::attention_noise(X, q.w, T(beta), f);
          dZs2 += noise.dZ * noise.dZ;
        }
        min_sigma_min2 = std::min<T>(min_sigma_min2, T(s(s.size() - 1) * s(s.size() - 1)));
        max_norm2 = std::max<T>(max_norm2, T(s(0) * s(0)));
        Z.push_back(f.Z);
      }
      const Mat<T> Zs = stack_rows(Z);
      const Vec<T> s = singular_values(Zs);
      if (beta == 0.0) {
        c.gamma = s(0) / spectral_norm(stack_rows(q.X));  // at beta = 0, Zs = As
        // The exact s_1 is >= s_1 - err and the exact s_min is <= s_min + err.
        const T err = detail::singular_value_noise(Zs, s(0), T(sqrt(dZs2)));
        c.kappa_lower_at_zero = (s(0) - err) / (s(s.size() - 1) + err);
      }
      c.kappa.push_back(to_double(condition_number(s)));
      c.ratio.push_back(to_double(T(min_sigma_min2 / max_norm2)));
    }
    return c;
  }
};

}  // namespace thm::qin

THM_REGISTER_CLAIM(thm::qin::ConditioningTrend)
