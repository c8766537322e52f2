#pragma once

#include "numerics/models/qin/attention.hpp"
#include "numerics/models/qin/gd.hpp"
#include "numerics/spectral.hpp"
#include "numerics/models/qin/model_instance.hpp"
#include "numerics/models/qin/sweeps.hpp"

#include <algorithm>

namespace thm {

template <class T>
BetaSweep beta_sweep(const Instance& inst, const BetaSweepOptions& o) {
  QModel<T> q = lift_qin_model<T>(inst);
  BetaSweep sweep;
  for (const Mat<T>& y : q.Y) {
    const Mat<T> centred = y.rowwise() - y.colwise().mean();
    sweep.rank_one_floor += to_double(T(T(0.5) * centred.squaredNorm()));
  }
  // One step size for every beta: a fraction of the sharpness at the largest beta.
  TransformerConfig top = q.config;
  top.beta = *std::max_element(o.betas.begin(), o.betas.end());
  const T sharp = hessian_top_eigenvalue(q.params, top, q.X, q.Y, {});
  sweep.sharpness = to_double(sharp);
  const T eta = T(o.eta_factor) / sharp;
  sweep.eta = to_double(eta);
  for (double beta : o.betas) {
    BetaSweepPoint pt;
    pt.beta = beta;
    TransformerConfig cfg = q.config;
    cfg.beta = beta;
    const TransformerTrace<T> tr = transformer_forward(q.params, cfg, q.X, q.Y);
    pt.kappa_Zs = to_double(condition_number(singular_values(stack_rows(tr.V[0]))));
    T min_s2 = std::numeric_limits<T>::infinity(), max_n2 = T(0);
    for (const Mat<T>& z : tr.V[0]) {
      const Vec<T> s = singular_values(z);
      min_s2 = std::min<T>(min_s2, T(s(s.size() - 1) * s(s.size() - 1)));
      max_n2 = std::max<T>(max_n2, T(s(0) * s(0)));
    }
    pt.conditioning_ratio = to_double(T(min_s2 / max_n2));
    GdOptions g;
    g.max_steps = o.max_steps;
    g.target_loss = to_double(tr.loss) * o.target_fraction;
    g.record_spectra = false;
    g.plateau_window = o.plateau_window;
    g.plateau_tolerance = o.plateau_tolerance;
    const GdRun<T> run = gradient_descent(q.params, cfg, q.X, q.Y, g, eta);
    for (const auto& r : run.records) pt.losses.push_back(to_double(r.loss));
    pt.loss0 = pt.losses.front();
    pt.final_loss = pt.losses.back();
    pt.diverged = run.stop == GdStop::diverged;
    pt.stop = run.stop;
    if (run.stop == GdStop::target_reached) pt.iterations_to_target = static_cast<int>(run.records.size()) - 1;
    pt.contraction = fit_contraction(pt.losses);
    sweep.points.push_back(std::move(pt));
  }
  return sweep;
}

namespace detail {

// The instance's model with its first block replicated into `layers` independent blocks drawn with
// the same scales (deterministic from the instance's entropy and the layer index).
inline QModel<double> deepen(const Instance& inst, int layers) {
  QModelSpec s;
  s.n = static_cast<int>(inst.param("n"));
  s.N = static_cast<int>(inst.param("N"));
  s.d = static_cast<int>(inst.param("d"));
  s.m = static_cast<int>(inst.param("m"));
  s.d_y = static_cast<int>(inst.param("d_y"));
  s.L = layers;
  s.config.beta = inst.param("beta");
  s.config.ffn_residual = inst.param("ffn_residual");
  s.config.c = inst.param("c");
  s.config.activation = static_cast<Activation>(static_cast<int>(inst.param("activation")));
  s.attn_scale = inst.param("attn_scale");
  s.value_scale = inst.param("value_scale");
  s.ffn_scale = inst.param("ffn_scale");
  s.head_scale = inst.param("head_scale");
  s.y_scale = inst.param("y_scale");
  s.entropy = static_cast<std::uint64_t>(inst.param("entropy"));
  QModel<double> deep = qin_model_double(build_qin_model(s));
  const QModel<double> base = qin_model_double(inst);
  deep.X = base.X;  // same data at every depth
  deep.Y = base.Y;
  return deep;
}

}  // namespace detail

template <class T>
DepthSweep depth_sweep(const Instance& inst, const DepthSweepOptions& o) {
  DepthSweep sweep;
  for (int r = 0; r < 2; ++r) {
    const double beta = r == 0 ? 0.0 : 1.0;
    if (o.forward_layers > 0) {
      QModel<T> deep = lift_model<T>(detail::deepen(inst, o.forward_layers));
      deep.config.beta = beta;
      const TransformerTrace<T> tr = transformer_forward(deep.params, deep.config, deep.X, deep.Y);
      for (int l = 0; l < o.forward_layers; ++l) {
        std::vector<double> inv;
        for (const Mat<T>& z : tr.V[l]) inv.push_back(to_double(T(T(1) / condition_number(singular_values(z)))));
        std::sort(inv.begin(), inv.end());
        sweep.inverse_kappa[r].push_back(inv[inv.size() / 2]);
      }
    }
    std::vector<QModel<T>> models;
    std::vector<T> steps;
    for (int depth : o.train_depths) {
      if (r == 1 && !o.train_beta1) break;
      QModel<T> q = lift_model<T>(detail::deepen(inst, depth));
      q.config.beta = beta;
      steps.push_back(T(T(o.eta_factor) / hessian_top_eigenvalue(q.params, q.config, q.X, q.Y, {})));
      models.push_back(std::move(q));
    }
    if (o.shared_step && !steps.empty()) {
      const T smallest = *std::min_element(steps.begin(), steps.end());
      for (T& s : steps) s = smallest;
    }
    for (std::size_t k = 0; k < models.size(); ++k) {
      const QModel<T>& q = models[k];
      GdOptions g;
      g.max_steps = o.train_steps;
      g.record_spectra = false;
      g.plateau_window = o.plateau_window;
      g.plateau_tolerance = o.plateau_tolerance;
      const GdRun<T> run = gradient_descent(q.params, q.config, q.X, q.Y, g, steps[k]);
      sweep.final_loss[r].push_back(to_double(run.records.back().loss));
      sweep.final_loss_ratio[r].push_back(to_double(T(run.records.back().loss / run.records.front().loss)));
      std::vector<double> curve;
      for (const auto& rec : run.records) curve.push_back(to_double(T(rec.loss / run.records.front().loss)));
      sweep.loss_curves[r].push_back(std::move(curve));
      sweep.stops[r].push_back(run.stop);
    }
  }
  return sweep;
}

}  // namespace thm
