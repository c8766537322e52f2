#pragma once

#include "numerics/rank_correlation.hpp"
#include "numerics/rate_fit.hpp"
#include "theorems/qin_sweeps.hpp"
#include "theorems/qin_trends.hpp"

#include <algorithm>
#include <string>

namespace thm {

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
