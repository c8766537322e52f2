// qin.depth.residual_prevents_collapse (empirical; docs/derivations/qin.depth.residual_prevents_collapse.md)
//
// Forward at initialisation through 1..6 blocks:
//   (D1) beta = 0: median_i 1/kappa(Z_i^(l)) < 1e-8 by layer 3;  (D2) beta = 1: it stays > 1e-3 through layer 6;
// after training (full-batch GD, same budget per depth):
//   (D3) with residuals the final loss decreases with depth, Spearman(L, loss) <= -0.8;
//   (D4) without residuals it does not, Spearman(L, loss) > -0.8.
// Judged statistically (required support 0.9); a documented finding (docs/findings/<id>.md).
// Negative control: (D2) claimed for beta = 0 instead.
#include "numerics/rank_correlation.hpp"
#include "numerics/models/qin/model_instance.hpp"
#include "numerics/models/qin/sweeps.hpp"
#include "theorems/register_claim.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace thm::qin {

struct ResidualPreventsCollapse {
  static constexpr int kLayers = 6;
  static constexpr int kCollapseBy = 3;
  static constexpr double kCollapsed = 1e-8, kHealthy = 1e-3;
  static constexpr int kTrainSteps = 300;
  static constexpr double kRho = -0.8;

  static ClaimInfo info() {
    return {
        .id = "qin.depth.residual_prevents_collapse",
        .source = "Q",
        .provenance = Provenance::empirical,
        .kind = ClaimKind::trend,
        .statement = "at init, beta = 0: median 1/kappa(Z_i^(l)) < 1e-8 by layer 3; beta = 1: > 1e-3 through layer 6; after "
                     "training, the loss decreases with depth with residuals (Spearman <= -0.8) and does not without",
        .negative_control = "the beta = 1 conditioning bound (> 1e-3 through layer 6) claimed for beta = 0",
        .uses = {"qin.softmax.rank_collapse"},
        .required_support = 0.9,
        .finding = Finding{"the training half fails: with residuals, deeper models (1-4 blocks) end at a higher loss than shallower "
                           "ones under full-batch GD with a sharpness-scaled step (held in 1% of 970 judged instances); the forward "
                           "collapse half is reproduced"},
        // A budget that makes the finding's `violated` reliable under the binomial support test (docs/findings/<id>.md,
        // "Reliability"): hold rate 0.010, 99.9% upper bound 0.025.
        .default_cases = 10,
        .mp_cases = 1,
        .ladder_checks = 0,
    };
  }

  // The instances it reads (numerics/instance_schema.hpp): what the generator below draws.
  static InstanceSchema schema() {
    return qin_sweep_schema({2, 8, 8, 16, 2, 1}).seconds_at_limits(31);
  }
  static Instance generate(ChoiceSource& src) {
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

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant variant) {
    DepthSweepOptions o;
    o.forward_layers = kLayers;
    o.train_steps = kTrainSteps;
    const DepthSweep sw = depth_sweep<T>(inst, o);
    const double collapsed = *std::min_element(sw.inverse_kappa[0].begin(), sw.inverse_kappa[0].begin() + kCollapseBy);
    const double healthy = *std::min_element(sw.inverse_kappa[1].begin(), sw.inverse_kappa[1].end());
    const double without = *std::min_element(sw.inverse_kappa[0].begin(), sw.inverse_kappa[0].end());
    std::vector<double> depths(o.train_depths.begin(), o.train_depths.end());
    const double rho_res = spearman_rho(depths, sw.final_loss[1]), rho_nores = spearman_rho(depths, sw.final_loss[0]);
    Evaluation e;
    e.conditions.push_back(make_le<double>("(D1) beta = 0: median 1/kappa(Z_i^(l)) < 1e-8 by layer 3", collapsed, kCollapsed, 0.0));
    if (variant == Variant::claim)
      e.conditions.push_back(make_ge<double>("(D2) beta = 1: 1/kappa stays > 1e-3 through layer 6", healthy, kHealthy, 0.0));
    else
      e.conditions.push_back(make_ge<double>("(D2) beta = 0: 1/kappa stays > 1e-3 through layer 6", without, kHealthy, 0.0));
    e.conditions.push_back(make_le<double>("(D3) beta = 1: Spearman(depth, trained loss) <= -0.8", rho_res, kRho, 0.0));
    e.conditions.push_back(make_ge<double>("(D4) beta = 0: Spearman(depth, trained loss) > -0.8", rho_nores, kRho, 0.0));
    for (int r = 0; r < 2; ++r) {
      const std::string b = r == 0 ? ", beta = 0" : ", beta = 1";
      for (std::size_t l = 0; l < sw.inverse_kappa[r].size(); ++l)
        e.add_point("median 1/kappa(Z_i)" + b, "layer", double(l + 1), sw.inverse_kappa[r][l]);
      for (std::size_t k = 0; k < depths.size(); ++k)
        e.add_point("trained loss" + b, "depth", double(o.train_depths[k]), sw.final_loss[r][k]);
    }
    return e;
  }
};

}  // namespace thm::qin

THM_REGISTER_CLAIM(thm::qin::ResidualPreventsCollapse)
