// The linear-rate theorem that qin.gd.linear_rate (all six blocks, single layer) and
// qin.gd.linear_rate_multilayer (FFN + head of the last block) both check (docs/derivations/qin.gd.linear_rate.md).
#pragma once

#include "numerics/models/qin/attention.hpp"
#include "numerics/models/qin/gd.hpp"
#include "numerics/spectral.hpp"
#include "theorems/claim.hpp"
#include "theorems/qin/training.hpp"
#include "numerics/models/qin/model_instance.hpp"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace thm {

inline constexpr int kLinearRateSteps = 60;  // iterates checked per case

namespace detail {

// qin.gd.linear_rate and its multilayer form: the theorem of docs/derivations/qin.gd.linear_rate.md,
// on all six blocks of a single layer (all_blocks), or on (W_1, W_2) of the last block and W_U with Z
// the last block's frozen attention output.
template <class T>
Evaluation linear_rate(const Instance& inst, Variant variant, bool multilayer, bool all_blocks = false) {
  using std::pow;
  using std::sqrt;
  const QModel<T> q = lift_qin_model<T>(inst);
  if (const auto why = detail::ffn_claim_setting(q, multilayer)) return Evaluation::discarded(*why);
  const std::size_t L = q.params.blocks.size();
  const std::vector<bool> trainable = all_blocks ? std::vector<bool>(5 * L + 1, true) : detail::ffn_and_head_blocks(L);
  T f0 = T(0);
  TransformerParams<T> g0 = transformer_gradient(q.params, q.config, q.X, q.Y, &f0);
  mask_gradient(g0, trainable);
  const TransformerTrace<T> tr = transformer_forward(q.params, q.config, q.X, q.Y);
  const Mat<T> Zs = stack_rows(tr.V.back()), Hs = stack_rows(tr.H.back());
  if (Hs.rows() > Hs.cols()) return Evaluation::discarded("nN > d: no PL inequality from the output layer");
  const Vec<T> sH = singular_values(Hs);
  const T sigma0 = sH(Hs.rows() - 1);
  if (!(sigma0 > T(0)) || !(f0 > T(0))) return Evaluation::discarded("sigma_nN(H_0) = 0 or L_0 = 0");
  const T alpha = sigma0 * sigma0 / T(4);
  const detail::FfnPoint<T> point = detail::ffn_point(q, Zs, f0);
  const detail::AllBlocksPoint<T> all = all_blocks ? detail::all_blocks_point(q, f0) : detail::AllBlocksPoint<T>{};
  auto smooth = [&](const T& rho) {
    return all_blocks ? detail::all_blocks_smoothness(all, rho) : detail::ffn_smoothness(point, rho);
  };
  // rho: the largest radius with J(rho) rho <= sigma0 / 2 (J increases with rho), by bisection.
  auto h1 = [&](const T& rho) { return smooth(rho).J * rho <= sigma0 / T(2); };
  T lo = T(0), hi = T(1);
  while (h1(hi)) hi *= T(2);
  for (int it = 0; it < 200; ++it) {
    const T mid = (lo + hi) / T(2);
    (h1(mid) ? lo : hi) = mid;
  }
  const T rho = lo;
  const detail::FfnSmoothness<T> sm = smooth(rho);
  const T movement = T(2) * sqrt(T(2) * f0) * sm.a / alpha;
  if (!(rho > T(0)) || !(movement <= rho))
    return Evaluation::discarded("(H2) fails: 2 sqrt(2 L0) a(rho) / alpha > rho (L0 too large for the region)");
  const T eta = T(1) / sm.Lg;

  GdOptions opt;
  opt.max_steps = kLinearRateSteps;
  opt.trainable = trainable;
  opt.record_spectra = true;
  const GdRun<T> run = gradient_descent(q.params, q.config, q.X, q.Y, opt, eta, true);

  // ||Yhat||: the cancellation of step t is ||Yhat|| / ||R_t|| = ||Yhat|| / sqrt(2 L_t) (Yhat moves little).
  const T yhat_norm = detail::loss_cancellation(tr, q) * sqrt(T(2) * f0);
  const T alpha_used = variant == Variant::claim ? alpha : T(T(4) * params_dot(g0, g0) / (T(2) * f0));
  Evaluation e;
  for (std::size_t t = 0; t < run.records.size(); ++t) {
    const GdRecord<T>& r = run.records[t];
    const T bound = pow(T(T(1) - eta * alpha_used), static_cast<int>(t)) * f0;
    const std::string ts = std::to_string(t);
    e.add_point("loss L_t", "t", double(t), to_double(r.loss));
    e.add_point("bound (1 - eta alpha)^t L_0", "t", double(t), to_double(bound));
    if (t == 0) continue;  // at t = 0 every conclusion is an equality or trivially true
    e.conditions.push_back(make_le<T>("L_" + ts + " <= (1 - eta alpha)^" + ts + " L_0", r.loss, bound,
                                      detail::model_noise(q, r.loss, bound, T(yhat_norm / sqrt(T(2) * r.loss)))));
    e.conditions.push_back(make_ge<T>("sigma_nN(H_" + ts + ") >= sigma0 / 2", r.sigma_min_H, T(sigma0 / T(2)),
                                      singular_value_error_bound<T>(Hs.rows(), Hs.cols(), r.sigma_max_H)));
    T dist2 = T(0);
    for (std::size_t k = 0; k < q.params.block_count(); ++k) dist2 += (run.path[t].block(k) - q.params.block(k)).squaredNorm();
    e.conditions.push_back(make_le<T>("||theta_" + ts + " - theta_0|| <= rho", T(sqrt(dist2)), rho, T(0)));
  }
  if (run.stop == GdStop::diverged) e.conditions.push_back(make_le<T>("GD did not diverge", T(1), T(0), T(0)));
  const T last = run.records.back().loss;
  e.observations = {{"sigma0 = sigma_nN(H_0)", to_double(sigma0)},
                    {"alpha", to_double(alpha)},
                    {"rho", to_double(rho)},
                    {"Lg(rho)", to_double(sm.Lg)},
                    {"eta = 1/Lg", to_double(eta)},
                    {"eta alpha", to_double(T(eta * alpha))},
                    {"L_T / L_0 (measured)", to_double(T(last / f0))},
                    {"(1 - eta alpha)^T (bound)", to_double(pow(T(T(1) - eta * alpha), static_cast<int>(run.records.size() - 1)))}};
  // The paper's per-layer quantities: sigma_min of every layer's stacked attention output at init.
  for (std::size_t l = 0; l < L && multilayer; ++l) {
    const Vec<T> s = singular_values(stack_rows(tr.V[l]));
    e.observations.emplace_back("sigma_min(Zs) at layer " + std::to_string(l + 1), to_double(s(s.size() - 1)));
  }
  return e;
}

}  // namespace detail

}  // namespace thm
