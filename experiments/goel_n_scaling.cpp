// goel-n-scaling: [G]'s rates in n. The spectral start's P-distance to the manifold of minima and the population excess
// at the start and after Algorithm 1's steps, over n = 32 .. 1024 (--budget full: 4096), kRiskSeeds data draws per
// point; fitted exponents with bootstrap intervals (claims goel.init.spectral_near_manifold, goel.risk.*).
#include "experiments/goel_runs.hpp"
#include "theorems/goel/algorithm.hpp"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <tuple>

namespace thm {

namespace goel_n_scaling {  // named: the experiments build as one unit (CMakeLists.txt, THM_UNITY)
namespace {

std::string num(double x) { return exact_decimal(x); }

// The line c n^slope through (n0, y0) over the grid, for drawing a fitted or a claimed rate beside measured points.
PlotSeries power_line(const std::string& name, const std::vector<int>& grid, double n0, double y0, double slope) {
  PlotSeries s{name, {}, {}, false};
  for (int n : grid) {
    s.x.push_back(n);
    s.y.push_back(y0 * std::pow(n / n0, slope));
  }
  return s;
}

// One data draw at one n: Algorithm 1 from the spectral start.
struct DrawRun {
  double dist_start, excess_start, excess_after;
};

DrawRun draw_run(const Instance& inst, int n, int s, int steps) {
  const FiniteProblem<double> f = finite_problem<double>(inst, n, data_seed(inst, n, s));
  const FactorManifold<double> S = factor_manifold(f.g.task.Z, f.g.rank);
  const ParamPair<double> init = spectral_init(f.moments, f.g.d);
  TrainOptions o = algorithm1_options(f, init, steps);
  o.record_distance = true;
  const TrainRun<double> run = algorithm1_run(f, init, S, o);
  return {run.record.dist.front(), run.record.excess.front(), run.record.excess.back()};
}

ExperimentResult run(const ExperimentArgs& a) {
  std::vector<Instance> instances;
  std::vector<std::vector<int>> grids;
  std::vector<std::tuple<int, int, int>> draws;  // (instance, grid index, data draw), in the order they are reported
  for (int k = 0; k < a.seeds; ++k) {
    instances.push_back(goel_experiments::instance(a, k, generate_excess_bound));
    instances.back().params["n_max"] = a.full ? 4096 : 1024;
    grids.push_back(n_grid(instances.back()));
    for (int i = 0; i < static_cast<int>(grids.back().size()); ++i)
      for (int s = 0; s < kRiskSeeds; ++s) draws.emplace_back(k, i, s);
  }
  // The largest n first: they take the longest, and the pool then ends on short runs.
  std::vector<std::size_t> order(draws.size());
  for (std::size_t r = 0; r < order.size(); ++r) order[r] = r;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return grids[std::get<0>(draws[x])][std::get<1>(draws[x])] > grids[std::get<0>(draws[y])][std::get<1>(draws[y])];
  });
  const std::vector<DrawRun> sorted = independent_runs(a, static_cast<int>(draws.size()), [&](int r) {
    const auto [k, i, s] = draws[order[static_cast<std::size_t>(r)]];
    return draw_run(instances[k], grids[k][i], s, a.steps);
  });
  std::vector<DrawRun> results(draws.size());
  for (std::size_t r = 0; r < order.size(); ++r) results[order[r]] = sorted[r];

  ExperimentResult res{"goel-n-scaling",
                       "Spectral start and Algorithm 1 over n (" + std::to_string(kRiskSeeds) +
                           " data seeds per point; --budget full extends the grid to 4096).",
                       {{"experiment", a.name}, {"seed", a.seed}, {"seeds", a.seeds}, {"steps", a.steps}, {"budget", a.full ? "full" : "standard"},
                        {"instances", nlohmann::json::array()}},
                       {}, {}, {}};
  ExperimentTable csv{"goel-n-scaling.csv", {"seed", "n", "run", "dist_start", "excess_start", "excess_after_steps"}, {}};
  std::vector<PlotSeries> dist_plot, excess_plot;
  std::map<std::string, std::pair<double, double>> fits;  // first instance: fitted and claimed exponents
  std::size_t next = 0;
  for (int k = 0; k < a.seeds; ++k) {
    const std::vector<int>& grid = grids[static_cast<std::size_t>(k)];
    std::vector<std::vector<double>> dist(grid.size()), ex0(grid.size()), exm(grid.size());
    for (std::size_t i = 0; i < grid.size(); ++i)
      for (int s = 0; s < kRiskSeeds; ++s) {
        const DrawRun& d = results[next++];
        dist[i].push_back(d.dist_start);
        ex0[i].push_back(d.excess_start);
        exm[i].push_back(d.excess_after);
        csv.rows.push_back({std::to_string(k), std::to_string(grid[i]), std::to_string(s), num(d.dist_start), num(d.excess_start), num(d.excess_after)});
      }
    nlohmann::json ij = {{"seed_index", k}, {"n", grid}};
    PlotSeries dp{"median dist_P(theta_0, S), instance " + std::to_string(k), {}, {}, true},
        ep{"median excess, start, instance " + std::to_string(k), {}, {}, true},
        mp{"median excess after steps, instance " + std::to_string(k), {}, {}, true};
    for (const auto& [name, v, plotted] : {std::tuple{"dist_start", &dist, &dp}, std::tuple{"excess_start", &ex0, &ep}, std::tuple{"excess_after_steps", &exm, &mp}}) {
      const ExponentFit fit = exponent_fit(grid, *v, a.seed);
      ij[name] = {{"exponent", fit.slope}, {"ci99", {fit.lo, fit.hi}}, {"r2", fit.r2}};
      for (std::size_t i = 0; i < grid.size(); ++i) {
        plotted->x.push_back(grid[i]);
        plotted->y.push_back(median((*v)[i]));
      }
      res.log.push_back(fmt::format("instance {} {:<19} exponent in n {:+.3f}  99% CI [{:+.3f}, {:+.3f}]  R^2 {:.3f}", k, name, fit.slope, fit.lo, fit.hi, fit.r2));
      if (k == 0) {
        // The first instance's fit (least squares in log-log, through the centroid of the medians) and the claimed rate.
        double mx = 0, my = 0;
        for (std::size_t i = 0; i < grid.size(); ++i) {
          mx += std::log(double(grid[i])) / grid.size();
          my += std::log(plotted->y[i]) / grid.size();
        }
        const double claimed = std::string(name) == "dist_start" ? -0.5 : -1.0;
        fits[name] = {fit.slope, claimed};
        auto& target = std::string(name) == "dist_start" ? dist_plot : excess_plot;
        target.push_back(power_line(fmt::format("fitted n^{:+.2f} ({})", fit.slope, name), grid, std::exp(mx), std::exp(my), fit.slope));
        target.push_back(power_line(fmt::format("claimed n^{:+.1f} ({})", claimed, name), grid, grid.front(), plotted->y.front(), claimed));
      }
    }
    dist_plot.push_back(dp);
    excess_plot.push_back(ep);
    excess_plot.push_back(mp);
    res.json["instances"].push_back(ij);
  }
  res.tables.push_back(std::move(csv));
  res.figures = {{{"spectral start: median P-distance to S", "n", "dist", true, true, 760, 340}, dist_plot,
                  fmt::format("[G]: the spectral start lands within O(n^-1/2) of the manifold of "
                              "minima. Measured (instance 0): median distance ~ n^{:+.2f} (fitted, drawn "
                              "through the medians) beside the claimed n^-0.5 (drawn from the first point).",
                              fits["dist_start"].first)},
                 {{"population excess L - L*: at the start and after the steps", "n", "excess", true, true, 760, 340}, excess_plot,
                  fmt::format("[G]'s excess-risk bound: 1/n + mu^m (the first version: n^-2 log^6 n "
                              "+ mu^m). Measured (instance 0): the excess at the start ~ n^{:+.2f}, after the "
                              "steps ~ n^{:+.2f}, beside the claimed n^-1.", fits["excess_start"].first,
                              fits["excess_after_steps"].first)}};
  return res;
}

}  // namespace
}  // namespace goel_n_scaling

extern const Experiment kGoelNScaling{"goel-n-scaling", "[G]: the spectral start's distance and the excess risk against n, fitted exponents",
                                      300, false, goel_n_scaling::run};

}  // namespace thm
