// The [Q] paper's experiments as reusable sweeps (used by the empirical claims and by
// `thmcheck experiment`): training the same model at several residual weights beta, and forward
// conditioning / training loss over depth.
#pragma once

#include "numerics/instance.hpp"
#include "numerics/models/qin/gd.hpp"
#include "numerics/models/qin/model_instance.hpp"
#include "numerics/rate_fit.hpp"
#include "numerics/models/qin/transformer.hpp"

#include <vector>

namespace thm {

// The instances a sweep reads: a qin.model, and the scales and entropy it redraws deeper blocks from.
inline InstanceSchema qin_sweep_schema(const QModelLimits& limits) {
  InstanceSchema schema = qin_model_schema(limits);
  for (const char* scale : {"attn_scale", "value_scale", "ffn_scale", "head_scale", "y_scale"}) schema.real(scale, 0.0, 1e6);
  return schema.integer("entropy", 0, std::int64_t{1} << 53);
}

struct BetaSweepOptions {
  std::vector<double> betas{0.0, 0.1, 0.25, 0.5, 0.75, 1.0};
  int max_steps = 300;
  double target_fraction = 1e-3;  // iterations to reach target_fraction * L_0
  double eta_factor = 0.5;        // eta = eta_factor / sharpness at the largest beta (same eta for every beta)
  int plateau_window = 0;         // GdOptions: stop on a plateau too (0: only the target or max_steps)
  double plateau_tolerance = 0.0;
};

struct BetaSweepPoint {
  double beta = 0;
  double kappa_Zs = 0;             // at initialisation
  double conditioning_ratio = 0;   // min_i sigma_min(Z_i)^2 / max_i ||Z_i||_2^2 at initialisation
  int iterations_to_target = -1;   // -1: not reached within max_steps
  double loss0 = 0, final_loss = 0;
  bool diverged = false;
  ContractionFit contraction;      // log-loss against t, up to the target or the end of the run
  std::vector<double> losses;
  GdStop stop = GdStop::budget_exhausted;
};

struct BetaSweep {
  double eta = 0, sharpness = 0;
  double rank_one_floor = 0;  // 1/2 sum_i ||Y_i - 1 mean_row(Y_i)||^2: best fit when every Z_i has identical rows
  std::vector<BetaSweepPoint> points;
};

// `inst` is a qin.model instance; its own beta is ignored. All blocks are trained.
template <class T>
BetaSweep beta_sweep(const Instance& inst, const BetaSweepOptions& options);

struct DepthSweepOptions {
  int forward_layers = 6;                 // forward conditioning through 1..forward_layers blocks
  std::vector<int> train_depths{1, 2, 3, 4};
  int train_steps = 200;
  double eta_factor = 0.5;                // eta = eta_factor / sharpness, per depth and residual setting
  // The same step for every depth of a residual setting: eta_factor / the largest sharpness over train_depths (the
  // step every depth is stable at), instead of each depth's own.
  bool shared_step = false;
  bool train_beta1 = true;  // false: train only without residual (beta = 0)
  int plateau_window = 0;                 // GdOptions: stop on a plateau too (0: train_steps exactly)
  double plateau_tolerance = 0.0;
};

struct DepthSweep {
  // [residual 0 = beta 0, 1 = beta 1][layer]: median over samples of 1/kappa(Z_i^(l)) at init (the
  // collapse is per sequence; stacking n sequences keeps rank n).
  std::vector<double> inverse_kappa[2];
  // [residual][depth index]: training loss after train_steps, relative to its L_0.
  std::vector<double> final_loss_ratio[2];
  std::vector<double> final_loss[2];
  // [residual][depth index][t]: L_t / L_0 along the training (the figure of [Q]'s depth experiment).
  std::vector<std::vector<double>> loss_curves[2];
  std::vector<GdStop> stops[2];  // [residual][depth index]: why each training stopped
};

// `inst` is a qin.model instance whose first block is used as the template of every layer: the
// deeper models get fresh blocks drawn from the same distribution (from the instance's entropy).
template <class T>
DepthSweep depth_sweep(const Instance& inst, const DepthSweepOptions& options);

extern template BetaSweep beta_sweep<double>(const Instance&, const BetaSweepOptions&);
extern template DepthSweep depth_sweep<double>(const Instance&, const DepthSweepOptions&);
extern template BetaSweep beta_sweep<mpfr_dynamic>(const Instance&, const BetaSweepOptions&);
extern template DepthSweep depth_sweep<mpfr_dynamic>(const Instance&, const DepthSweepOptions&);

}  // namespace thm
