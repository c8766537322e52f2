// Full-batch gradient descent on the [Q] model over chosen blocks, with a per-step record.
#pragma once

#include "numerics/models/qin/transformer.hpp"

#include <cstdint>
#include <vector>

namespace thm {

enum class GdStop { target_reached, budget_exhausted, diverged, plateau };
std::string_view to_string(GdStop s);

struct GdOptions {
  double eta = 1e-2;
  int max_steps = 100;
  double target_loss = 0.0;         // stop when L_t <= target_loss
  double divergence_factor = 1e6;   // diverged when L_t > factor L_0 or not finite
  // Plateau (plateau_window > 0): stop when the loss fell by less than plateau_tolerance of itself over the last
  // plateau_window steps, L_{t-w} - L_t < tol L_{t-w} (the experiments' stopping rule; the claims train a fixed budget).
  int plateau_window = 0;
  double plateau_tolerance = 0.0;
  std::vector<bool> trainable;      // per TransformerParams::block index; empty: all blocks
  bool record_spectra = true;       // sigma_min / sigma_max of Zs and Hs at every step (costly at MP)
};

template <class T>
struct GdRecord {
  T loss;
  T grad_norm;           // over the trainable blocks
  T sigma_min_Z, sigma_max_Z;  // stacked V of the last block (Zs for L = 1)
  T sigma_min_H, sigma_max_H;  // stacked H of the last block (the head's features)
  T ratio;               // L_{t+1} / L_t (NaN on the last record)
};

template <class T>
struct GdRun {
  std::vector<GdRecord<T>> records;       // records[t] describes theta_t, t = 0..steps
  std::vector<TransformerParams<T>> path;  // theta_t (kept only when asked)
  GdStop stop = GdStop::budget_exhausted;
  TransformerParams<T> final_params;
};

// Zero the gradient of frozen blocks.
template <class T>
void mask_gradient(TransformerParams<T>& g, const std::vector<bool>& trainable);

template <class T>
GdRun<T> gradient_descent(const TransformerParams<T>& theta0, const TransformerConfig& cfg, const std::vector<Mat<T>>& X,
                          const std::vector<Mat<T>>& Y, const GdOptions& options, const T& eta, bool keep_path = false);

// Largest eigenvalue of the Hessian of the loss over the trainable blocks at theta (the sharpness),
// by power iteration on central-difference Hessian-vector products of the exact gradient.
// Deterministic (start vector from `seed`). Used to pick a step size that is the same for every beta.
template <class T>
T hessian_top_eigenvalue(const TransformerParams<T>& theta, const TransformerConfig& cfg, const std::vector<Mat<T>>& X,
                         const std::vector<Mat<T>>& Y, const std::vector<bool>& trainable, int iterations = 30,
                         std::uint64_t seed = 1);

#define THM_GD_EXTERN(T)                                                                                            \
  extern template void mask_gradient(TransformerParams<T>&, const std::vector<bool>&);                              \
  extern template GdRun<T> gradient_descent(const TransformerParams<T>&, const TransformerConfig&,                 \
                                            const std::vector<Mat<T>>&, const std::vector<Mat<T>>&, const GdOptions&, \
                                            const T&, bool);                                      \
  extern template T hessian_top_eigenvalue(const TransformerParams<T>&, const TransformerConfig&,                   \
                                           const std::vector<Mat<T>>&, const std::vector<Mat<T>>&,                  \
                                           const std::vector<bool>&, int, std::uint64_t);
THM_GD_EXTERN(double)
THM_GD_EXTERN(mpfr_dynamic)
#undef THM_GD_EXTERN

}  // namespace thm
