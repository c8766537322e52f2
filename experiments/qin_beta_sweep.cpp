// qin-beta-sweep: [Q]'s residual connection against the rate. Same data, initialisation and step size for every
// beta in {0, .25, .5, .75, 1}: the loss curves, the fitted per-step contraction, and the attention output's
// conditioning it should follow (claims qin.gd.residual_speeds_convergence, qin.residual.conditioning_trend,
// qin.gd.rate_from_attention_output).
#include "experiments/qin_instances.hpp"
#include "numerics/models/qin/sweeps.hpp"
#include "numerics/rank_correlation.hpp"

#include <fmt/format.h>

namespace thm {

namespace qin_beta_sweep {  // named: the experiments build as one unit (CMakeLists.txt, THM_UNITY)
namespace {

std::string num(double x) { return exact_decimal(x); }

ExperimentResult run(const ExperimentArgs& a) {
  BetaSweepOptions o;
  o.max_steps = a.steps;
  o.plateau_window = qin_experiments::kPlateauWindow;
  o.plateau_tolerance = qin_experiments::kPlateauTolerance;
  const std::vector<BetaSweep> sweeps =
      independent_runs(a, a.seeds, [&](int k) { return beta_sweep<double>(qin_experiments::instance(a, k, 1e-3, 1.0), o); });

  ExperimentResult res{"qin-beta-sweep", "Same data, initialisation and step size for every beta; data: " +
                                             qin_experiments::data_label(a) + ", seed " + std::to_string(a.seed) + ".",
                       qin_experiments::header_json(a), {}, {}, {}};
  ExperimentTable table{"qin-beta-sweep.csv",
                        {"seed", "beta", "kappa_Zs", "conditioning_ratio", "iterations_to_1e-3", "final_loss_ratio", "contraction", "r2",
                         "eta", "steps", "stop"},
                        {}};
  nlohmann::json& j = res.json;
  j["runs"] = nlohmann::json::array();
  std::vector<double> rhos;  // per seed
  for (int k = 0; k < a.seeds; ++k) {
    const BetaSweep& sw = sweeps[static_cast<std::size_t>(k)];
    nlohmann::json run;
    run["seed_index"] = k;
    run["eta"] = sw.eta;
    run["rank_one_floor"] = sw.rank_one_floor;
    run["points"] = nlohmann::json::array();
    for (const BetaSweepPoint& p : sw.points) {
      table.rows.push_back({std::to_string(k), num(p.beta), num(p.kappa_Zs), num(p.conditioning_ratio),
                            std::to_string(p.iterations_to_target), num(p.final_loss / p.loss0), num(p.contraction.contraction),
                            num(p.contraction.r2), num(sw.eta), std::to_string(p.losses.size() - 1), std::string(to_string(p.stop))});
      run["points"].push_back({{"beta", p.beta},
                               {"kappa_Zs", p.kappa_Zs},
                               {"conditioning_ratio", p.conditioning_ratio},
                               {"iterations_to_target", p.iterations_to_target},
                               {"diverged", p.diverged},
                               {"contraction", p.contraction.contraction},
                               {"r2", p.contraction.r2},
                               {"steps", p.losses.size() - 1},
                               {"stop", std::string(to_string(p.stop))},
                               {"losses", p.losses}});
      res.log.push_back(fmt::format("seed {} beta {:<4} kappa(Zs) {:>10.3e}  ratio {:>9.3e}  iterations {:>5}  L_T/L_0 {:>9.3e}  contraction {:.4f} (R^2 {:.4f})",
                                    k, p.beta, p.kappa_Zs, p.conditioning_ratio, p.iterations_to_target, p.final_loss / p.loss0,
                                    p.contraction.contraction, p.contraction.r2));
    }
    // [Q]: the rate follows the attention output's conditioning (Spearman over the betas, -1: better conditioned, faster).
    std::vector<double> ratios, contractions;
    for (const BetaSweepPoint& p : sw.points) {
      ratios.push_back(p.conditioning_ratio);
      contractions.push_back(p.contraction.contraction);
    }
    rhos.push_back(spearman_rho(ratios, contractions));
    run["contraction_vs_conditioning_spearman"] = rhos.back();
    j["runs"].push_back(run);
  }
  res.tables.push_back(std::move(table));

  // The page. First [Q]'s figure: L_t / L_0 against t, one curve per beta (the first seed); then the fitted per-step
  // contraction, kappa(Zs) and the conditioning ratio against beta, one series per seed.
  std::vector<PlotSeries> curves, contraction, kappa, ratio, follows;
  const BetaSweep& first = sweeps.front();
  for (const BetaSweepPoint& pt : first.points) {
    PlotSeries c{"beta = " + fmt::format("{:g}", pt.beta), {}, {}, false};
    for (std::size_t t = 0; t < pt.losses.size(); ++t) {
      c.x.push_back(double(t));
      c.y.push_back(pt.losses[t] / pt.losses.front());
    }
    curves.push_back(c);
  }
  double c_lo = 0, c_hi = 0;  // the first seed's contraction at the smallest and the largest beta
  for (int k = 0; k < a.seeds; ++k) {
    const BetaSweep& sw = sweeps[static_cast<std::size_t>(k)];
    const std::string name = "seed " + std::to_string(k);
    PlotSeries q{name, {}, {}, true}, kz{name, {}, {}, true}, r{name, {}, {}, true};
    for (const BetaSweepPoint& pt : sw.points) {
      q.x.push_back(pt.beta);
      q.y.push_back(pt.contraction.contraction);
      kz.x.push_back(pt.beta);
      kz.y.push_back(pt.kappa_Zs);
      r.x.push_back(pt.beta);
      r.y.push_back(pt.conditioning_ratio);
    }
    if (k == 0) {
      c_lo = q.y.front();
      c_hi = q.y.back();
    }
    // [Q]: the rate follows the attention output's conditioning. The contraction against the ratio, per seed, and
    // their Spearman correlation over the betas (-1: the better conditioned, the faster).
    follows.push_back(PlotSeries{name, r.y, q.y, true});
    contraction.push_back(q);
    kappa.push_back(kz);
    ratio.push_back(r);
  }
  const std::vector<BetaSweepPoint>& pts = first.points;
  const double b_lo = pts.front().beta, b_hi = pts.back().beta;
  const double l_lo = pts.front().losses.back() / pts.front().losses.front();
  const double l_hi = pts.back().losses.back() / pts.back().losses.front();
  std::vector<std::string> rho_text;
  for (double rho : rhos) rho_text.push_back(fmt::format("{:.2f}", rho));
  std::string stops;
  for (const BetaSweepPoint& pt : pts)
    stops += fmt::format("{}beta = {:g}: {} at t = {}", stops.empty() ? "" : "; ", pt.beta, to_string(pt.stop), pt.losses.size() - 1);
  res.figures = {
      {{"training loss L_t / L_0 (seed 0)", "iteration t", "L_t / L_0", false, true, 760, 360}, curves,
       fmt::format("[Q] claims that the residual connection speeds up the linear convergence of gradient descent. "
                   "Measured (seed 0, the same step size for every beta): L_T / L_0 = {:.3g} at beta = {} and "
                   "{:.3g} at beta = {}. {} Stopped ({}).", l_lo, fmt::format("{:g}", b_lo), l_hi, fmt::format("{:g}", b_hi),
                   qin_experiments::stopping_rule(a.steps), stops)},
      {{"per-step contraction of the loss (fit of log L_t against t)", "beta", "contraction", false, false, 700, 320}, contraction,
       fmt::format("[Q]'s rate is 1 - eta alpha with alpha set by the smallest singular value of the attention "
                   "output, which the residual raises: the per-step contraction should fall as beta grows. "
                   "Measured (seed 0): {:.4f} at beta = {}, {:.4f} at beta = {}.", c_lo, fmt::format("{:g}", b_lo), c_hi, fmt::format("{:g}", b_hi))},
      {{"kappa(Zs) at initialisation", "beta", "kappa(Zs)", false, true, 700, 320}, kappa,
       "[Q]: softmax attention alone makes the attention output Zs nearly low-rank (kappa(Zs) large); the "
       "residual restores its conditioning. Measured: kappa(Zs) against beta at initialisation, per seed."},
      {{"min_i sigma_min(Z_i)^2 / max_i ||Z_i||^2", "beta", "ratio", false, true, 700, 320}, ratio,
       "The conditioning the rate depends on, min_i sigma_min(Z_i)^2 / max_i ||Z_i||^2, against beta, per seed."},
      {{"per-step contraction against the attention output's conditioning", "min_i sigma_min(Z_i)^2 / max_i ||Z_i||^2", "contraction",
        true, false, 700, 320},
       follows,
       fmt::format("[Q]: the per-step contraction follows the attention output's conditioning. Measured: the "
                   "contraction against min_i sigma_min(Z_i)^2 / max_i ||Z_i||^2 over the betas, per seed; Spearman "
                   "correlation per seed (-1: better conditioned, faster): {}. The rate constant's lower bound in the "
                   "attention output's terms is the claim qin.gd.rate_from_attention_output.", fmt::join(rho_text, ", "))}};
  return res;
}

}  // namespace
}  // namespace qin_beta_sweep

extern const Experiment kQinBetaSweep{"qin-beta-sweep",
                                      "[Q]: the residual (beta) against the convergence rate and the attention output's conditioning",
                                      20000, true, qin_beta_sweep::run};

}  // namespace thm
