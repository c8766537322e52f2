#pragma once

#include "numerics/rank_correlation.hpp"
#include "numerics/rate_fit.hpp"
#include "theorems/qin_sweeps.hpp"
#include "theorems/qin_trends.hpp"

#include <algorithm>
#include <string>

namespace thm {

template <class T>
Evaluation evaluate_residual_speeds(const Instance& inst, Variant variant) {
  BetaSweepOptions o;
  o.betas.assign(kSpeedBetas.begin(), kSpeedBetas.end());
  o.max_steps = kSpeedSteps;
  const BetaSweep sw = beta_sweep<T>(inst, o);
  // Speed score: iterations to 1e-3 L_0; runs that never get there rank after every run that does,
  // among themselves by their final L_T / L_0 (a censored count is not a tie).
  std::vector<double> score;
  bool diverged = false;
  for (const BetaSweepPoint& p : sw.points) {
    score.push_back(p.iterations_to_target >= 0 ? double(p.iterations_to_target) : double(o.max_steps + 1) + p.final_loss / p.loss0);
    diverged = diverged || p.diverged;
  }
  const double rho = spearman_rho(o.betas, score);
  Evaluation e;
  if (variant == Variant::claim)
    e.conditions.push_back(make_le<double>("(C1) Spearman(beta, iterations to 1e-3 L_0) <= -0.9", rho, -0.9, 0.0));
  else
    e.conditions.push_back(make_ge<double>("(C1) Spearman(beta, iterations to 1e-3 L_0) >= +0.9", rho, 0.9, 0.0));
  const BetaSweepPoint& zero = sw.points.front();
  e.conditions.push_back(make_ge<double>("(C2) beta = 0: L_T >= 0.95 rank-one floor", zero.final_loss,
                                         kSpeedFloorFraction * sw.rank_one_floor, 0.0));
  // (C3) asymptotic rate at beta = 1: fit log L_t on the second half of the run.
  const BetaSweepPoint& one = sw.points.back();
  const std::vector<double> tail(one.losses.begin() + one.losses.size() / 2, one.losses.end());
  const ContractionFit fit = fit_contraction(tail);
  e.conditions.push_back(make_le<double>("(C3) beta = 1: fitted per-step contraction < 1", fit.contraction, 1.0, 0.0));
  e.conditions.push_back(make_ge<double>("(C3) beta = 1: R^2 of the log-linear fit > 0.99", fit.r2, kSpeedR2, 0.0));
  if (diverged) e.conditions.push_back(make_le<double>("GD did not diverge at any beta", 1.0, 0.0, 0.0));
  e.observations = {{"eta", sw.eta}, {"sharpness at beta = 1", sw.sharpness}, {"rank-one floor / L_0", sw.rank_one_floor / zero.loss0}};
  for (const BetaSweepPoint& p : sw.points) {
    const std::string b = "[beta=" + exact_decimal(p.beta) + "]";
    e.observations.emplace_back("iterations to 1e-3 L_0 (-1: not reached)" + b, p.iterations_to_target);
    e.observations.emplace_back("L_T/L_0" + b, p.final_loss / p.loss0);
    e.observations.emplace_back("kappa(Zs) at init" + b, p.kappa_Zs);
    e.observations.emplace_back("min sigma_min(Z_i)^2 / max ||Z_i||^2" + b, p.conditioning_ratio);
  }
  e.observations.emplace_back("beta=1: fitted contraction (second half)", fit.contraction);
  e.observations.emplace_back("beta=1: R^2", fit.r2);
  return e;
}

template <class T>
Evaluation evaluate_depth_collapse(const Instance& inst, Variant variant) {
  DepthSweepOptions o;
  o.forward_layers = kDepthLayers;
  o.train_steps = kDepthTrainSteps;
  const DepthSweep sw = depth_sweep<T>(inst, o);
  const double collapsed = *std::min_element(sw.inverse_kappa[0].begin(), sw.inverse_kappa[0].begin() + kDepthCollapseBy);
  const double healthy = *std::min_element(sw.inverse_kappa[1].begin(), sw.inverse_kappa[1].end());
  const double without = *std::min_element(sw.inverse_kappa[0].begin(), sw.inverse_kappa[0].end());
  std::vector<double> depths(o.train_depths.begin(), o.train_depths.end());
  const double rho_res = spearman_rho(depths, sw.final_loss[1]), rho_nores = spearman_rho(depths, sw.final_loss[0]);
  Evaluation e;
  e.conditions.push_back(make_le<double>("(D1) beta = 0: median 1/kappa(Z_i^(l)) < 1e-8 by layer 3", collapsed, kDepthCollapsed, 0.0));
  if (variant == Variant::claim)
    e.conditions.push_back(make_ge<double>("(D2) beta = 1: 1/kappa stays > 1e-3 through layer 6", healthy, kDepthHealthy, 0.0));
  else
    e.conditions.push_back(make_ge<double>("(D2) beta = 0: 1/kappa stays > 1e-3 through layer 6", without, kDepthHealthy, 0.0));
  e.conditions.push_back(make_le<double>("(D3) beta = 1: Spearman(depth, trained loss) <= -0.8", rho_res, kDepthRho, 0.0));
  e.conditions.push_back(make_ge<double>("(D4) beta = 0: Spearman(depth, trained loss) > -0.8", rho_nores, kDepthRho, 0.0));
  for (int r = 0; r < 2; ++r) {
    const std::string b = r == 0 ? ", beta = 0" : ", beta = 1";
    for (std::size_t l = 0; l < sw.inverse_kappa[r].size(); ++l)
      e.observations.emplace_back("median 1/kappa(Z_i)" + b + "[layer=" + std::to_string(l + 1) + "]", sw.inverse_kappa[r][l]);
    for (std::size_t k = 0; k < depths.size(); ++k)
      e.observations.emplace_back("trained loss" + b + "[depth=" + std::to_string(o.train_depths[k]) + "]", sw.final_loss[r][k]);
  }
  return e;
}

}  // namespace thm
