// qin-depth: [Q]'s extension to several layers. At initialisation, the tokens' conditioning per layer with and without
// the attention residual; then the loss full-batch GD reaches per depth (claims qin.depth.forward_collapse,
// qin.depth.deeper_trains_lower).
#include "experiments/qin_instances.hpp"
#include "numerics/models/qin/sweeps.hpp"

#include <fmt/format.h>

namespace thm {

namespace qin_depth {  // named: the experiments build as one unit (CMakeLists.txt, THM_UNITY)
namespace {

std::string num(double x) { return exact_decimal(x); }

ExperimentResult run(const ExperimentArgs& a) {
  DepthSweepOptions o;
  o.train_steps = a.steps;
  o.plateau_window = qin_experiments::kPlateauWindow;
  o.plateau_tolerance = qin_experiments::kPlateauTolerance;
  const std::vector<DepthSweep> sweeps =
      independent_runs(a, a.seeds, [&](int k) { return depth_sweep<double>(qin_experiments::instance(a, k, 1.0, 0.1), o); });

  ExperimentResult res{"qin-depth", "Forward conditioning per layer and training loss per depth, with and without the attention residual; data: " +
                                        qin_experiments::data_label(a) + ", seed " + std::to_string(a.seed) + ".",
                       qin_experiments::header_json(a), {}, {}, {}};
  ExperimentTable forward{"qin-depth-forward.csv", {"seed", "residual", "layer", "median_inverse_kappa"}, {}};
  ExperimentTable trained{"qin-depth-trained.csv", {"seed", "residual", "depth", "trained_loss", "loss_ratio", "steps", "stop"}, {}};
  nlohmann::json& j = res.json;
  j["runs"] = nlohmann::json::array();
  for (int k = 0; k < a.seeds; ++k) {
    const DepthSweep& sw = sweeps[static_cast<std::size_t>(k)];
    nlohmann::json run;
    run["seed_index"] = k;
    for (int r = 0; r < 2; ++r) {
      const std::string res_name = r ? "with" : "without";
      for (std::size_t l = 0; l < sw.inverse_kappa[r].size(); ++l)
        forward.rows.push_back({std::to_string(k), res_name, std::to_string(l + 1), num(sw.inverse_kappa[r][l])});
      for (std::size_t d = 0; d < o.train_depths.size(); ++d)
        trained.rows.push_back({std::to_string(k), res_name, std::to_string(o.train_depths[d]), num(sw.final_loss[r][d]),
                                num(sw.final_loss_ratio[r][d]), std::to_string(sw.loss_curves[r][d].size() - 1),
                                std::string(to_string(sw.stops[r][d]))});
      run[res_name + "_residual"] = {{"inverse_kappa", sw.inverse_kappa[r]}, {"trained_loss", sw.final_loss[r]},
                                     {"loss_ratio", sw.final_loss_ratio[r]}, {"loss_curves", sw.loss_curves[r]}};
      std::string line = fmt::format("seed {} {:<7} residual  1/kappa by layer:", k, res_name);
      for (double v : sw.inverse_kappa[r]) line += fmt::format(" {:.2e}", v);
      line += "   trained loss by depth:";
      for (double v : sw.final_loss[r]) line += fmt::format(" {:.3e}", v);
      res.log.push_back(line);
    }
    j["runs"].push_back(run);
  }
  res.tables.push_back(std::move(forward));
  res.tables.push_back(std::move(trained));

  // [Q]'s depth figure: L_t / L_0 against t for every depth, with and without the residual (the first seed); then
  // the forward conditioning per layer and the trained loss per depth, per seed.
  const auto& first_curves = sweeps.front().loss_curves;
  std::vector<PlotSeries> curves, inv, loss;
  for (int r = 0; r < 2; ++r)
    for (std::size_t d = 0; d < o.train_depths.size(); ++d) {
      PlotSeries c{std::string(r ? "with" : "without") + " residual, depth " + std::to_string(o.train_depths[d]), {}, first_curves[r][d], false};
      for (std::size_t t = 0; t < c.y.size(); ++t) c.x.push_back(double(t));
      curves.push_back(c);
    }
  for (int k = 0; k < a.seeds; ++k)
    for (int r = 0; r < 2; ++r) {
      const DepthSweep& sw = sweeps[static_cast<std::size_t>(k)];
      const std::string name = std::string(r ? "with_residual" : "without_residual") + ", seed " + std::to_string(k);
      PlotSeries kappa{name, {}, sw.inverse_kappa[r], true};
      for (std::size_t l = 0; l < kappa.y.size(); ++l) kappa.x.push_back(double(l + 1));
      PlotSeries t{name, {}, sw.final_loss[r], true};
      for (int d : o.train_depths) t.x.push_back(d);
      inv.push_back(kappa);
      loss.push_back(t);
    }
  std::string depth_stops;
  for (std::size_t d = 0; d < o.train_depths.size(); ++d)
    depth_stops += fmt::format("{}{}: {} / {}", d ? ", " : "", o.train_depths[d], first_curves[1][d].size() - 1, first_curves[0][d].size() - 1);
  const std::vector<double>&with = sweeps.front().final_loss_ratio[1], &without = sweeps.front().final_loss_ratio[0];
  res.figures = {
      {{"training loss L_t / L_0 (seed 0), every depth, with and without residual", "iteration t", "L_t / L_0", false, true, 760, 380}, curves,
       fmt::format("[Q] claims the result extends to several layers when each has a residual connection. Measured "
                   "(seed 0): L_T / L_0 from {:.3g} (depth {}) to {:.3g} (depth {}) with the residual, from "
                   "{:.3g} to {:.3g} without. {} Steps taken, with / without residual, by depth: {}.", with.front(),
                   o.train_depths.front(), with.back(), o.train_depths.back(), without.front(), without.back(),
                   qin_experiments::stopping_rule(a.steps), depth_stops)},
      {{"median 1/kappa(Z_i^(l)) at initialisation", "layer", "1/kappa", false, true, 760, 340}, inv,
       "Without residual connections, softmax attention collapses the tokens layer after layer (1/kappa falls "
       "towards 0); with them the conditioning is kept. Measured: median 1/kappa(Z_i) per layer at initialisation."},
      {{"training loss at the stop", "depth", "loss", false, true, 760, 340}, loss,
       "The loss reached after the same number of steps, against depth, with and without residual, per seed."}};
  return res;
}

}  // namespace
}  // namespace qin_depth

extern const Experiment kQinDepth{"qin-depth", "[Q]: conditioning per layer and trained loss per depth, with and without the residual",
                                  20000, true, qin_depth::run};

}  // namespace thm
