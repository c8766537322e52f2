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
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace thm {

inline constexpr int kLinearRateSteps = 60;      // iterates checked per case, at least ...
inline constexpr int kLinearRateMaxSteps = 300;  // ... and at most
// Steps checked: enough for the certified bound (1 - eta alpha)^T to fall 10-fold, T >= ln(10) / (eta alpha),
// within [kLinearRateSteps, kLinearRateMaxSteps] (docs/derivations/qin.gd.linear_rate.md, "Trajectory length").
inline int linear_rate_steps(double eta_alpha) {
  const double t = std::ceil(std::log(10.0) / eta_alpha);
  return !(t < kLinearRateMaxSteps) ? kLinearRateMaxSteps : std::max(kLinearRateSteps, static_cast<int>(t));
}

// What the theorem of docs/derivations/qin.gd.linear_rate.md fixes before the first step: sigma0, alpha,
// the constants on the ball, the radius rho and the step eta, and the frontier quantities the reports and
// the experiment qin-rate-frontier show (the largest L_0 that (H2) admits).
template <class T>
struct RateSetup {
  T sigma0, h0, alpha, f0, half_y2;  // sigma_nN(H_0), ||H_0||_2, sigma0^2/4, L_0, 1/2 ||Y||_F^2
  T rho_star;                        // largest rho with J(rho) rho <= sigma0/2 (H1)
  T l0_max;                          // largest L_0 with (H2) at rho_star: 1/2 (alpha rho*/(2 a(rho*)))^2
  T rho, movement, eta;              // the radius used (H1 and H2 hold), 2 sqrt(2 L0) a(rho)/alpha, 1/Lg(rho)
  detail::FfnSmoothness<T> sm;               // constants at rho
  bool frontier = false;                     // rho_star and l0_max computed ((H2) then decides the case)
  std::optional<std::string> discard;
};

// How far L_0 is from what (H2) admits, for a reader of one instance (thmcheck assess): L_0 and the largest L_0 (H2)
// admits at rho*, both over 1/2 ||Y||^2, and log10 of their ratio (> 0: (H2) fails by that many orders of magnitude).
template <class T>
std::vector<std::pair<std::string, double>> rate_frontier_observations(const RateSetup<T>& s) {
  using std::log10;
  if (!s.frontier) return {};
  return {{"L_0 / (1/2 ||Y||^2)", to_double(T(s.f0 / s.half_y2))},
          {"largest L_0 / (1/2 ||Y||^2) admitted by (H2)", to_double(T(s.l0_max / s.half_y2))},
          {"log10(L_0 / largest L_0 admitted by (H2))", to_double(T(log10(T(s.f0 / s.l0_max))))}};
}

// all_blocks: every block of every layer trained (sharp constants propagated through the layers); otherwise
// (W_1, W_2) of the last block and W_U with the attention output frozen.
template <class T>
RateSetup<T> rate_setup(const QModel<T>& q, const TransformerTrace<T>& tr, bool all_blocks) {
  using std::sqrt;
  RateSetup<T> s;
  const Mat<T> Hs = stack_rows(tr.H.back());
  s.f0 = tr.loss;
  s.half_y2 = T(0);
  for (const Mat<T>& y : q.Y) s.half_y2 += y.squaredNorm() / T(2);
  if (Hs.rows() > Hs.cols()) {
    s.discard = "nN > d: no PL inequality from the output layer";
    return s;
  }
  const Vec<T> sH = singular_values(Hs);
  s.sigma0 = sH(Hs.rows() - 1);
  s.h0 = sH(0);
  if (!(s.sigma0 > T(0)) || !(s.f0 > T(0))) {
    s.discard = "sigma_nN(H_0) = 0 or L_0 = 0";
    return s;
  }
  s.alpha = s.sigma0 * s.sigma0 / T(4);
  const detail::SharpPoint<T> point = detail::sharp_point(q, tr, all_blocks);
  auto smooth = [&](const T& rho) { return detail::sharp_smoothness(point, rho); };
  // rho*: the largest radius with J(rho) rho <= sigma0 / 2 (J increases with rho), by bisection.
  auto h1 = [&](const T& rho) { return smooth(rho).J * rho <= s.sigma0 / T(2); };
  T lo = T(0), hi = T(1);
  while (h1(hi)) hi *= T(2);
  for (int it = 0; it < 200; ++it) {
    const T mid = (lo + hi) / T(2);
    (h1(mid) ? lo : hi) = mid;
  }
  s.rho_star = lo;
  const detail::FfnSmoothness<T> at_star = smooth(s.rho_star);
  const T admitted = s.alpha * s.rho_star / (T(2) * at_star.a);  // sqrt(2 L_0) (H2) admits at rho*
  s.l0_max = admitted * admitted / T(2);
  s.frontier = true;
  auto movement = [&](const T& rho) { return T(2) * sqrt(T(2) * s.f0) * smooth(rho).a / s.alpha; };
  s.movement = movement(s.rho_star);
  s.rho = s.rho_star;
  if (!(s.rho_star > T(0)) || !(s.movement <= s.rho_star)) {
    s.sm = at_star;
    s.discard = "(H2) fails: 2 sqrt(2 L0) a(rho) / alpha > rho (L0 too large for the region)";
    return s;
  }
  // Any rho in (0, rho*] meeting (H2) will do, and Lg grows with rho: bisect towards the smallest, keeping the
  // end where (H2) holds (movement(0) > 0 = rho fails it). (H1) holds there since J(rho) rho increases.
  lo = T(0);
  hi = s.rho_star;
  for (int it = 0; it < 200; ++it) {
    const T mid = (lo + hi) / T(2);
    (movement(mid) <= mid ? hi : lo) = mid;
  }
  s.rho = hi;
  s.sm = smooth(s.rho);
  s.movement = movement(s.rho);
  s.eta = T(1) / s.sm.Lg;
  return s;
}

namespace detail {

// qin.gd.linear_rate and its multilayer form: the theorem of docs/derivations/qin.gd.linear_rate.md,
// on all six blocks of a single layer (all_blocks), or on (W_1, W_2) of the last block and W_U with Z
// the last block's frozen attention output.
// The double-checked trajectory of the theorem: the model, its trace at theta_0, the setup (sigma0, alpha, rho, eta) and
// GD's iterates (kept), or why the case is outside the theorem's hypotheses.
template <class T>
struct RateTrajectory {
  QModel<T> q;
  TransformerTrace<T> tr;
  RateSetup<T> setup;
  std::vector<bool> trainable;
  GdRun<T> run;
  T yhat_norm = T(0);
  std::optional<std::string> discard;
};

template <class T>
RateTrajectory<T> rate_trajectory(const Instance& inst, bool multilayer, bool all_blocks) {
  using std::sqrt;
  RateTrajectory<T> r;
  r.q = lift_qin_model<T>(inst);
  const QModel<T>& q = r.q;
  if (const auto why = detail::ffn_claim_setting(q, multilayer)) {
    r.discard = *why;
    return r;
  }
  const std::size_t L = q.params.blocks.size();
  r.trainable = all_blocks ? std::vector<bool>(5 * L + 1, true) : detail::ffn_and_head_blocks(L);
  r.tr = transformer_forward(q.params, q.config, q.X, q.Y);
  r.setup = rate_setup(q, r.tr, all_blocks);
  if (r.setup.discard) {
    r.discard = r.setup.discard;
    return r;
  }
  // ||Yhat||: the cancellation of step t is ||Yhat|| / ||R_t|| = ||Yhat|| / sqrt(2 L_t) (Yhat moves little).
  r.yhat_norm = detail::loss_cancellation(r.tr, q) * sqrt(T(2) * r.setup.f0);
  GdOptions opt;
  opt.max_steps = linear_rate_steps(to_double(T(r.setup.eta * r.setup.alpha)));
  opt.trainable = r.trainable;
  opt.record_spectra = true;
  // The rounding floor of T (derivation, "Trajectory length"): below ||R|| = 640 nNdm eps ||Yhat_0|| the heuristic
  // noise of (C3), 64 nNdm eps (1 + ||Yhat|| / ||R||) relative, exceeds 1/10 and T cannot decide it; the trajectory
  // is checked up to the first iterate there (double stops early on the fast cases, mp50 goes on).
  const T r_floor = T(640.0 * model_size(q)) * epsilon<T>() * r.yhat_norm;
  opt.target_loss = to_double(T(r_floor * r_floor / T(2)));
  r.run = gradient_descent(q.params, q.config, q.X, q.Y, opt, r.setup.eta, true);
  return r;
}

template <class T>
Evaluation linear_rate(const Instance& inst, bool multilayer, bool all_blocks = false) {
  using std::abs;
  using std::pow;
  using std::sqrt;
  const RateTrajectory<T> traj = rate_trajectory<T>(inst, multilayer, all_blocks);
  if (traj.discard) {
    Evaluation e = Evaluation::discarded(*traj.discard);
    e.observations = rate_frontier_observations(traj.setup);
    return e;
  }
  const QModel<T>& q = traj.q;
  const std::size_t L = q.params.blocks.size();
  const TransformerTrace<T>& tr = traj.tr;
  const Mat<T> Hs = stack_rows(tr.H.back());
  const RateSetup<T>& setup = traj.setup;
  const T sigma0 = setup.sigma0, alpha = setup.alpha, rho = setup.rho, eta = setup.eta, f0 = setup.f0;
  const FfnSmoothness<T>& sm = setup.sm;
  const T yhat_norm = traj.yhat_norm;
  const GdRun<T>& run = traj.run;

  // The knob of the resolving power (claim.hpp, Condition::strength) is alpha in the rate: the loss condition's strength
  // is the largest k with L_t <= (1 - eta k alpha)^t L_0, k = (1 - (L_t/L_0)^(1/t)) / (eta alpha); the other two
  // conditions are hypotheses of the argument, not the rate, and are not scaled. The negative control is the claim at
  // ClaimInfo::control_factor (derivation, "Negative control").
  Evaluation e;
  for (std::size_t t = 0; t < run.records.size(); ++t) {
    const GdRecord<T>& r = run.records[t];
    const T bound = pow(T(T(1) - eta * alpha), static_cast<int>(t)) * f0;
    const std::string ts = std::to_string(t);
    e.add_point("loss L_t", "t", double(t), to_double(r.loss));
    e.add_point("bound (1 - eta alpha)^t L_0", "t", double(t), to_double(bound));
    if (t == 0) continue;  // at t = 0 every conclusion is an equality or trivially true
    const T noise = detail::model_noise(q, r.loss, bound, T(yhat_norm / sqrt(T(2) * r.loss)));
    Condition loss = make_le<T>("L_" + ts + " <= (1 - eta alpha)^" + ts + " L_0", r.loss, bound, noise);
    if (r.loss > T(0)) {
      const T per_step = pow(T(r.loss / f0), T(T(1) / T(static_cast<int>(t))));  // (L_t / L_0)^(1/t)
      const T k = (T(1) - per_step) / (eta * alpha);
      // d k / k from a relative error noise / L_t of L_t: (per_step / t) / (1 - per_step) of it.
      const T dk = per_step / T(static_cast<int>(t)) / abs(T(T(1) - per_step)) * noise / r.loss;
      loss = with_strength(std::move(loss), to_double(k), to_double(dk));
    }
    e.conditions.push_back(std::move(loss));
    e.conditions.push_back(with_strength(make_ge<T>("sigma_nN(H_" + ts + ") >= sigma0 / 2", r.sigma_min_H, T(sigma0 / T(2)),
                                                    singular_value_error_bound<T>(Hs.rows(), Hs.cols(), r.sigma_max_H)),
                                         kNotScaled));
    T dist2 = T(0);
    for (std::size_t k = 0; k < q.params.block_count(); ++k) dist2 += (run.path[t].block(k) - q.params.block(k)).squaredNorm();
    e.conditions.push_back(with_strength(make_le<T>("||theta_" + ts + " - theta_0|| <= rho", T(sqrt(dist2)), rho, T(0)), kNotScaled));
  }
  // The theorem promises convergence: a divergent run is a violation at every factor.
  if (run.stop == GdStop::diverged) e.conditions.push_back(with_strength(make_le<T>("GD did not diverge", T(1), T(0), T(0)), 0.0));
  const T last = run.records.back().loss;
  e.observations = {{"sigma0 = sigma_nN(H_0)", to_double(sigma0)},
                    {"alpha", to_double(alpha)},
                    {"rho", to_double(rho)},
                    {"Lg(rho)", to_double(sm.Lg)},
                    {"eta = 1/Lg", to_double(eta)},
                    {"eta alpha", to_double(T(eta * alpha))},
                    {"L_T / L_0 (measured)", to_double(T(last / f0))},
                    {"(1 - eta alpha)^T (bound)", to_double(pow(T(T(1) - eta * alpha), static_cast<int>(run.records.size() - 1)))},
                    {"||H_0||_2", to_double(setup.h0)},
                    {"rho* (largest radius of (H1))", to_double(setup.rho_star)},
                    {"a(rho)", to_double(sm.a)},
                    {"J(rho)", to_double(sm.J)},
                    {"certified contraction 1 - eta alpha", to_double(T(T(1) - eta * alpha))},
                    {"measured contraction (L_T / L_0)^(1/T)", std::pow(to_double(T(last / f0)), 1.0 / double(run.records.size() - 1))}};
  for (auto& o : rate_frontier_observations(setup)) e.observations.push_back(std::move(o));
  // The paper's per-layer quantities: sigma_min of every layer's stacked attention output at init.
  for (std::size_t l = 0; l < L && multilayer; ++l) {
    const Vec<T> s = singular_values(stack_rows(tr.V[l]));
    e.observations.emplace_back("sigma_min(Zs) at layer " + std::to_string(l + 1), to_double(s(s.size() - 1)));
  }
  return e;
}

}  // namespace detail

}  // namespace thm
