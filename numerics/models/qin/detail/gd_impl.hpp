#pragma once

#include "numerics/fault.hpp"
#include "numerics/models/qin/attention.hpp"
#include "numerics/models/qin/gd.hpp"
#include "numerics/random.hpp"
#include "numerics/spectral.hpp"

#include <cmath>
#include <limits>
#include <optional>

namespace thm {

template <class T>
void mask_gradient(TransformerParams<T>& g, const std::vector<bool>& trainable) {
  if (trainable.empty()) return;
  for (std::size_t k = 0; k < g.block_count(); ++k)
    if (k >= trainable.size() || !trainable[k]) g.block(k).setZero();
}

template <class T>
GdRun<T> gradient_descent(const TransformerParams<T>& theta0, const TransformerConfig& cfg, const std::vector<Mat<T>>& X,
                          const std::vector<Mat<T>>& Y, const GdOptions& options, const T& eta, bool keep_path) {
  using std::isfinite;
  using std::sqrt;
  GdRun<T> run;
  TransformerParams<T> theta = theta0;
  T loss0 = T(0);
  std::optional<TransformerParams<T>> first_gradient;
  for (int t = 0;; ++t) {
    if (keep_path) run.path.push_back(theta);
    T loss = T(0);
    TransformerParams<T> g = transformer_gradient(theta, cfg, X, Y, &loss);
    if (THM_FAULT(gd_stale_gradient)) {  // the bug: the first iterate's gradient at every step
      if (first_gradient) g = *first_gradient;
      else first_gradient = g;
    }
    mask_gradient(g, options.trainable);
    GdRecord<T> rec;
    rec.loss = loss;
    rec.grad_norm = sqrt(params_dot(g, g));
    const T nan = std::numeric_limits<T>::quiet_NaN();
    rec.sigma_min_Z = rec.sigma_max_Z = rec.sigma_min_H = rec.sigma_max_H = nan;
    rec.ratio = nan;
    if (options.record_spectra) {
      const TransformerTrace<T> tr = transformer_forward(theta, cfg, X, Y);
      const Vec<T> sz = singular_values(stack_rows(tr.V.back())), sh = singular_values(stack_rows(tr.H.back()));
      rec.sigma_max_Z = sz(0);
      rec.sigma_min_Z = sz(sz.size() - 1);
      rec.sigma_max_H = sh(0);
      rec.sigma_min_H = sh(sh.size() - 1);
    }
    if (t == 0) loss0 = loss;
    if (!run.records.empty()) run.records.back().ratio = loss / run.records.back().loss;
    run.records.push_back(rec);
    if (!(loss == loss) || loss > T(options.divergence_factor) * loss0 || !(loss < std::numeric_limits<T>::infinity())) {
      run.stop = GdStop::diverged;
      break;
    }
    if (loss <= T(options.target_loss)) {
      run.stop = GdStop::target_reached;
      break;
    }
    if (options.plateau_window > 0 && t >= options.plateau_window) {
      const T before = run.records[run.records.size() - 1 - static_cast<std::size_t>(options.plateau_window)].loss;
      if (before - loss < T(options.plateau_tolerance) * before) {
        run.stop = GdStop::plateau;
        break;
      }
    }
    if (t >= options.max_steps) {
      run.stop = GdStop::budget_exhausted;
      break;
    }
    if (THM_FAULT(gd_step_sign_w2)) g.blocks.back().W_2 = -g.blocks.back().W_2;
    const T step = T(-eta);  // theta += (-eta) g in place: params_axpy's arithmetic without its copy
    for (std::size_t k = 0; k < theta.block_count(); ++k) theta.block(k) += step * g.block(k);
  }
  run.final_params = std::move(theta);
  return run;
}

template <class T>
T hessian_top_eigenvalue(const TransformerParams<T>& theta, const TransformerConfig& cfg, const std::vector<Mat<T>>& X,
                         const std::vector<Mat<T>>& Y, const std::vector<bool>& trainable, int iterations, std::uint64_t seed) {
  using std::abs;
  using std::sqrt;
  Rng rng(seed);
  TransformerParams<T> v = theta;
  for (std::size_t k = 0; k < v.block_count(); ++k)
    for (Eigen::Index i = 0; i < v.block(k).size(); ++i) v.block(k).data()[i] = T(rng.normal());
  mask_gradient(v, trainable);
  T norm = sqrt(params_dot(v, v));
  if (!(norm > T(0))) return T(0);
  v = params_axpy(v, T(T(1) / norm - T(1)), v);
  // Step of the central difference: sqrt(eps) scaled by the parameter norm.
  const T h = sqrt(epsilon<T>()) * std::max<T>(T(1), T(sqrt(params_dot(theta, theta))));
  T lambda = T(0);
  for (int it = 0; it < iterations; ++it) {
    TransformerParams<T> gp = transformer_gradient(params_axpy(theta, h, v), cfg, X, Y);
    TransformerParams<T> gm = transformer_gradient(params_axpy(theta, T(-h), v), cfg, X, Y);
    mask_gradient(gp, trainable);
    mask_gradient(gm, trainable);
    TransformerParams<T> hv = params_axpy(gp, T(-1), gm);
    hv = params_axpy(hv, T(T(1) / (T(2) * h) - T(1)), hv);  // (g+ - g-) / (2h)
    lambda = params_dot(v, hv);
    norm = sqrt(params_dot(hv, hv));
    if (!(norm > T(0))) break;
    v = params_axpy(hv, T(T(1) / norm - T(1)), hv);
  }
  return abs(lambda);
}

}  // namespace thm
