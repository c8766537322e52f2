#include "cli/experiments.hpp"

#include "cli/commands.hpp"
#include "cli/goel_experiments.hpp"
#include "numerics/random.hpp"
#include "numerics/rank_correlation.hpp"
#include "reports/atomic_write.hpp"
#include "reports/csv.hpp"
#include "reports/html_reports.hpp"
#include "reports/svg_plot.hpp"
#include "numerics/models/qin/model_instance.hpp"
#include "numerics/models/qin/sweeps.hpp"
#include "theorems/qin/linear_rate.hpp"
#include "theorems/qin/model_cases.hpp"

#include <fmt/core.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace thm::cli {

namespace {

std::string num(double x) { return exact_decimal(x); }

// The instance of seed k: synthetic (nN <= d so that beta = 1 can fit) or windows of the series.
Instance experiment_instance(const ExperimentArgs& a, const std::optional<DataSeries>& series, int k, double attn_scale,
                             double head_scale) {
  Rng rng = Rng::derive(a.seed, a.name, static_cast<std::uint64_t>(k));
  QModelSpec s;
  s.m = 16;
  s.attn_scale = attn_scale;
  s.head_scale = head_scale;
  s.entropy = rng.next_u64();
  if (series) {
    s.n = a.samples;
    s.N = a.window;
    return build_qin_model_from_series(series->values, s);
  }
  s.n = 2;
  s.N = 4;
  s.d = 10;
  s.d_y = 2;
  return build_qin_model(s);
}

nlohmann::json header_json(const ExperimentArgs& a, const std::optional<DataSeries>& series) {
  nlohmann::json j;
  j["experiment"] = a.name;
  j["seed"] = a.seed;
  j["seeds"] = a.seeds;
  j["steps"] = a.steps;
  j["data"] = a.data ? nlohmann::json(*a.data) : nlohmann::json("synthetic");
  if (series) {
    j["columns"] = series->columns;
    j["rows"] = series->values.rows();
    j["window"] = a.window;
    j["samples"] = a.samples;
  }
  return j;
}

// A result with a NaN or an infinity says nothing: refuse it (one line, nothing written) instead of writing
// "nan" into the CSV and null into the JSON. Returns the path of the first non-finite number, or "".
std::string first_non_finite(const nlohmann::json& j, const std::string& path = "") {
  if (j.is_number_float()) return std::isfinite(j.get<double>()) ? "" : (path.empty() ? "(top)" : path);
  if (j.is_object())
    for (const auto& [k, v] : j.items())
      if (std::string p = first_non_finite(v, path + "/" + k); !p.empty()) return p;
  if (j.is_array())
    for (std::size_t i = 0; i < j.size(); ++i)
      if (std::string p = first_non_finite(j[i], path + "/" + std::to_string(i)); !p.empty()) return p;
  return "";
}

// The experiments' stopping rule: the target (beta sweep: 1e-3 L_0), a plateau, or the --steps budget.
constexpr int kPlateauWindow = 100;
constexpr double kPlateauTolerance = 1e-3;
std::string stopping_rule(int steps) {
  return fmt::format("Each training stops at its target, on a plateau (the loss fell by less than {:g} of itself over the last {} "
                     "steps) or after --steps = {} steps.", kPlateauTolerance, kPlateauWindow, steps);
}

void require_finite(const nlohmann::json& j, const std::string& experiment) {
  if (const std::string p = first_non_finite(j); !p.empty())
    throw UsageError(experiment + ": a non-finite result at " + p + " (degenerate data?); nothing written");
}

int beta_sweep_experiment(const ExperimentArgs& a, const std::optional<DataSeries>& series) {
  CsvTable table;
  table.header = {"seed", "beta", "kappa_Zs", "conditioning_ratio", "iterations_to_1e-3", "final_loss_ratio",
                  "contraction", "r2", "eta", "steps", "stop"};
  nlohmann::json j = header_json(a, series);
  j["runs"] = nlohmann::json::array();
  BetaSweepOptions o;
  o.max_steps = a.steps;
  o.plateau_window = kPlateauWindow;
  o.plateau_tolerance = kPlateauTolerance;
  for (int k = 0; k < a.seeds; ++k) {
    const BetaSweep sw = beta_sweep<double>(experiment_instance(a, series, k, 1e-3, 1.0), o);
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
      fmt::print("seed {} beta {:<4} kappa(Zs) {:>10.3e}  ratio {:>9.3e}  iterations {:>5}  L_T/L_0 {:>9.3e}  contraction {:.4f} (R^2 {:.4f})\n",
                 k, p.beta, p.kappa_Zs, p.conditioning_ratio, p.iterations_to_target, p.final_loss / p.loss0,
                 p.contraction.contraction, p.contraction.r2);
    }
    // [Q]: the rate follows the attention output's conditioning (Spearman over the betas, -1: better conditioned, faster).
    std::vector<double> ratios, contractions;
    for (const BetaSweepPoint& p : sw.points) {
      ratios.push_back(p.conditioning_ratio);
      contractions.push_back(p.contraction.contraction);
    }
    run["contraction_vs_conditioning_spearman"] = spearman_rho(ratios, contractions);
    j["runs"].push_back(run);
  }
  require_finite(j, "qin-beta-sweep");
  const std::filesystem::path dir(a.out);
  atomic_write(dir / "qin-beta-sweep.csv", table.str());
  atomic_write(dir / "qin-beta-sweep.json", j.dump(2) + "\n");
  // The page. First [Q]'s figure: L_t / L_0 against t, one curve per beta (the first seed); then the fitted per-step
  // contraction, kappa(Zs) and the conditioning ratio against beta, one series per seed.
  std::vector<PlotSeries> curves, contraction, kappa, ratio, follows;
  std::vector<double> rhos;
  const auto& first = j["runs"].front();
  for (const auto& pt : first["points"]) {
    PlotSeries c{"beta = " + fmt::format("{:g}", pt["beta"].get<double>()), {}, {}, false};
    const auto losses = pt["losses"].get<std::vector<double>>();
    for (std::size_t t = 0; t < losses.size(); ++t) {
      c.x.push_back(double(t));
      c.y.push_back(losses[t] / losses.front());
    }
    curves.push_back(c);
  }
  double c_lo = 0, c_hi = 0;  // the first seed's contraction at the smallest and the largest beta
  for (const auto& run : j["runs"]) {
    const std::string name = "seed " + std::to_string(run["seed_index"].get<int>());
    PlotSeries q{name, {}, {}, true}, k{name, {}, {}, true}, r{name, {}, {}, true};
    for (const auto& pt : run["points"]) {
      q.x.push_back(pt["beta"]);
      q.y.push_back(pt["contraction"]);
      k.x.push_back(pt["beta"]);
      k.y.push_back(pt["kappa_Zs"]);
      r.x.push_back(pt["beta"]);
      r.y.push_back(pt["conditioning_ratio"]);
    }
    if (&run == &first) {
      c_lo = q.y.front();
      c_hi = q.y.back();
    }
    // [Q]: the rate follows the attention output's conditioning. The contraction against the ratio, per seed, and
    // their Spearman correlation over the betas (-1: the better conditioned, the faster).
    PlotSeries f{name, r.y, q.y, true};
    follows.push_back(f);
    rhos.push_back(run["contraction_vs_conditioning_spearman"].get<double>());
    contraction.push_back(q);
    kappa.push_back(k);
    ratio.push_back(r);
  }
  const auto& pts = first["points"];
  const double b_lo = pts.front()["beta"], b_hi = pts.back()["beta"];
  const double l_lo = pts.front()["losses"].back().get<double>() / pts.front()["losses"].front().get<double>();
  const double l_hi = pts.back()["losses"].back().get<double>() / pts.back()["losses"].front().get<double>();
  PlotSpec pc{"training loss L_t / L_0 (seed 0)", "iteration t", "L_t / L_0", false, true, 760, 360};
  PlotSpec pq{"per-step contraction of the loss (fit of log L_t against t)", "beta", "contraction", false, false, 700, 320};
  PlotSpec pk{"kappa(Zs) at initialisation", "beta", "kappa(Zs)", false, true, 700, 320};
  PlotSpec pr{"min_i sigma_min(Z_i)^2 / max_i ||Z_i||^2", "beta", "ratio", false, true, 700, 320};
  PlotSpec pf{"per-step contraction against the attention output's conditioning", "min_i sigma_min(Z_i)^2 / max_i ||Z_i||^2",
              "contraction", true, false, 700, 320};
  std::vector<std::string> rho_text;
  for (double rho : rhos) rho_text.push_back(fmt::format("{:.2f}", rho));
  std::string stops;
  for (const auto& pt : pts)
    stops += fmt::format("{}beta = {:g}: {} at t = {}", stops.empty() ? "" : "; ", pt["beta"].get<double>(), pt["stop"].get<std::string>(),
                         pt["steps"].get<int>());
  const std::vector<Figure> figures{
      {line_plot(pc, curves), fmt::format("[Q] claims that the residual connection speeds up the linear convergence of gradient descent. "
                                          "Measured (seed 0, the same step size for every beta): L_T / L_0 = {:.3g} at beta = {} and "
                                          "{:.3g} at beta = {}. {} Stopped ({}).", l_lo, fmt::format("{:g}", b_lo), l_hi, fmt::format("{:g}", b_hi),
                                          stopping_rule(a.steps), stops)},
      {line_plot(pq, contraction), fmt::format("[Q]'s rate is 1 - eta alpha with alpha set by the smallest singular value of the attention "
                                               "output, which the residual raises: the per-step contraction should fall as beta grows. "
                                               "Measured (seed 0): {:.4f} at beta = {}, {:.4f} at beta = {}.", c_lo, fmt::format("{:g}", b_lo), c_hi, fmt::format("{:g}", b_hi))},
      {line_plot(pk, kappa), "[Q]: softmax attention alone makes the attention output Zs nearly low-rank (kappa(Zs) large); the "
                             "residual restores its conditioning. Measured: kappa(Zs) against beta at initialisation, per seed."},
      {line_plot(pr, ratio), "The conditioning the rate depends on, min_i sigma_min(Z_i)^2 / max_i ||Z_i||^2, against beta, per seed."},
      {line_plot(pf, follows), fmt::format("[Q]: the per-step contraction follows the attention output's conditioning. Measured: the "
                                           "contraction against min_i sigma_min(Z_i)^2 / max_i ||Z_i||^2 over the betas, per seed; Spearman "
                                           "correlation per seed (-1: better conditioned, faster): {}. The rate constant's lower bound in the "
                                           "attention output's terms is the claim qin.gd.rate_from_attention_output.", fmt::join(rho_text, ", "))}};
  atomic_write(dir / "qin-beta-sweep.html",
               experiment_html("qin-beta-sweep", "Same data, initialisation and step size for every beta; data: " +
                                                     (a.data ? *a.data : std::string("synthetic")) + ", seed " + std::to_string(a.seed) + ".",
                               figures));
  fmt::print("wrote {}, {} and {}\n", (dir / "qin-beta-sweep.csv").string(), (dir / "qin-beta-sweep.json").string(),
             (dir / "qin-beta-sweep.html").string());
  return kExitOk;
}

int depth_experiment(const ExperimentArgs& a, const std::optional<DataSeries>& series) {
  CsvTable forward, trained;
  forward.header = {"seed", "residual", "layer", "median_inverse_kappa"};
  trained.header = {"seed", "residual", "depth", "trained_loss", "loss_ratio", "steps", "stop"};
  nlohmann::json j = header_json(a, series);
  j["runs"] = nlohmann::json::array();
  DepthSweepOptions o;
  o.train_steps = a.steps;
  o.plateau_window = kPlateauWindow;
  o.plateau_tolerance = kPlateauTolerance;
  std::vector<std::vector<double>> first_curves[2];
  for (int k = 0; k < a.seeds; ++k) {
    const DepthSweep sw = depth_sweep<double>(experiment_instance(a, series, k, 1.0, 0.1), o);
    nlohmann::json run;
    run["seed_index"] = k;
    for (int r = 0; r < 2; ++r) {
      const std::string res = r ? "with" : "without";
      for (std::size_t l = 0; l < sw.inverse_kappa[r].size(); ++l)
        forward.rows.push_back({std::to_string(k), res, std::to_string(l + 1), num(sw.inverse_kappa[r][l])});
      for (std::size_t d = 0; d < o.train_depths.size(); ++d)
        trained.rows.push_back({std::to_string(k), res, std::to_string(o.train_depths[d]), num(sw.final_loss[r][d]),
                                num(sw.final_loss_ratio[r][d]), std::to_string(sw.loss_curves[r][d].size() - 1),
                                std::string(to_string(sw.stops[r][d]))});
      run[res + "_residual"] = {{"inverse_kappa", sw.inverse_kappa[r]}, {"trained_loss", sw.final_loss[r]},
                                {"loss_ratio", sw.final_loss_ratio[r]}, {"loss_curves", sw.loss_curves[r]}};
      if (k == 0) first_curves[r] = sw.loss_curves[r];
      fmt::print("seed {} {:<7} residual  1/kappa by layer:", k, res);
      for (double v : sw.inverse_kappa[r]) fmt::print(" {:.2e}", v);
      fmt::print("   trained loss by depth:");
      for (double v : sw.final_loss[r]) fmt::print(" {:.3e}", v);
      fmt::print("\n");
    }
    j["runs"].push_back(run);
  }
  const std::filesystem::path dir(a.out);
  // [Q]'s depth figure: L_t / L_0 against t for every depth, with and without the residual (the first seed); then
  // the forward conditioning per layer and the trained loss per depth, per seed.
  std::vector<PlotSeries> curves, inv, loss;
  for (int r = 0; r < 2; ++r)
    for (std::size_t d = 0; d < o.train_depths.size(); ++d) {
      PlotSeries c{std::string(r ? "with" : "without") + " residual, depth " + std::to_string(o.train_depths[d]), {}, first_curves[r][d], false};
      for (std::size_t t = 0; t < c.y.size(); ++t) c.x.push_back(double(t));
      curves.push_back(c);
    }
  for (const auto& run : j["runs"])
    for (const char* res : {"without_residual", "with_residual"}) {
      const std::string name = std::string(res) + ", seed " + std::to_string(run["seed_index"].get<int>());
      PlotSeries k{name, {}, run[res]["inverse_kappa"].get<std::vector<double>>(), true};
      for (std::size_t l = 0; l < k.y.size(); ++l) k.x.push_back(double(l + 1));
      PlotSeries t{name, {}, run[res]["trained_loss"].get<std::vector<double>>(), true};
      for (int d : o.train_depths) t.x.push_back(d);
      inv.push_back(k);
      loss.push_back(t);
    }
  const auto& run0 = j["runs"].front();
  std::string depth_stops;
  for (std::size_t d = 0; d < o.train_depths.size(); ++d)
    depth_stops += fmt::format("{}{}: {} / {}", d ? ", " : "", o.train_depths[d], first_curves[1][d].size() - 1, first_curves[0][d].size() - 1);
  const auto ratios = [&](const char* res) { return run0[res]["loss_ratio"].get<std::vector<double>>(); };
  const std::vector<double> with = ratios("with_residual"), without = ratios("without_residual");
  PlotSpec pc{"training loss L_t / L_0 (seed 0), every depth, with and without residual", "iteration t", "L_t / L_0", false, true, 760, 380};
  PlotSpec pk{"median 1/kappa(Z_i^(l)) at initialisation", "layer", "1/kappa", false, true, 760, 340};
  PlotSpec pl{"training loss at the stop", "depth", "loss", false, true, 760, 340};
  require_finite(j, "qin-depth");
  const std::vector<Figure> figures{
      {line_plot(pc, curves), fmt::format("[Q] claims the result extends to several layers when each has a residual connection. Measured "
                                          "(seed 0): L_T / L_0 from {:.3g} (depth {}) to {:.3g} (depth {}) with the residual, from "
                                          "{:.3g} to {:.3g} without. {} Steps taken, with / without residual, by depth: {}.", with.front(),
                                          o.train_depths.front(), with.back(), o.train_depths.back(), without.front(), without.back(),
                                          stopping_rule(a.steps), depth_stops)},
      {line_plot(pk, inv), "Without residual connections, softmax attention collapses the tokens layer after layer (1/kappa falls "
                           "towards 0); with them the conditioning is kept. Measured: median 1/kappa(Z_i) per layer at initialisation."},
      {line_plot(pl, loss), "The loss reached after the same number of steps, against depth, with and without residual, per seed."}};
  atomic_write(dir / "qin-depth.html", experiment_html("qin-depth", "Forward conditioning per layer and training loss per depth, "
                                                                    "with and without the attention residual.",
                                                       figures));
  atomic_write(dir / "qin-depth-forward.csv", forward.str());
  atomic_write(dir / "qin-depth-trained.csv", trained.str());
  atomic_write(dir / "qin-depth.json", j.dump(2) + "\n");
  fmt::print("wrote {}, {}, {} and {}\n", (dir / "qin-depth-forward.csv").string(), (dir / "qin-depth-trained.csv").string(),
             (dir / "qin-depth.json").string(), (dir / "qin-depth.html").string());
  return kExitOk;
}

// qin-rate-frontier: where the linear-rate theorems (qin.gd.linear_rate, all six blocks of one layer, and
// qin.gd.linear_rate_multilayer with two layers, the sharper constants) say something, as the width w = d = m grows
// (docs/derivations/qin.gd.linear_rate.md, "Measured").
// Per width and initialisation regime, --seeds instances (n = 2, N = 3, d_y = 2, beta = 1, softplus and tanh
// alternately, targets independent of the model at the output scale): whether the hypotheses hold, the largest
// L_0 / (1/2 ||Y||^2) that (H2) admits, the certified 1 - eta alpha and the measured per-step contraction
// (L_T / L_0)^(1/T) of GD at the theorem's step eta = 1/Lg.
struct FrontierRegime {
  const char* name;
  int L;
  double attn_scale, branch_scale, head_scale;  // branch: values and FFN
};
constexpr FrontierRegime kFrontierRegimes[] = {{"ordinary init (attention 1, head 1)", 1, 1.0, 1.0, 1.0},
                                               {"small head (attention 0.2, head 1e-2)", 1, 0.2, 1.0, 1e-2},
                                               {"smaller head (attention 0.2, head 1e-3)", 1, 0.2, 1.0, 1e-3},
                                               {"2 layers, all trained (branches 0.1, head 1e-3)", 2, 0.1, 0.1, 1e-3}};
constexpr int kFrontierWidths[] = {16, 32, 64, 128, 256, 512};
constexpr int kFrontierMaxSteps = 300;

double median(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

int rate_frontier_experiment(const ExperimentArgs& a) {
  const int steps = std::min(a.steps, kFrontierMaxSteps);
  CsvTable table;
  table.header = {"regime", "width", "seed", "activation", "hypotheses_hold", "L0_over_half_Y2", "L0max_over_half_Y2", "sigma0",
                  "kappa_H0", "rho_star", "J", "a", "Lg", "eta_alpha", "certified_contraction", "measured_contraction", "steps"};
  nlohmann::json j = header_json(a, std::nullopt);
  j["steps"] = steps;  // --steps, capped at kFrontierMaxSteps
  j["widths"] = kFrontierWidths;
  j["regimes"] = nlohmann::json::array();
  std::vector<PlotSeries> met, admitted, rates, looseness;
  for (std::size_t r = 0; r < std::size(kFrontierRegimes); ++r) {
    const FrontierRegime& reg = kFrontierRegimes[r];
    nlohmann::json jr{{"name", reg.name},
                      {"layers", reg.L},
                      {"attn_scale", reg.attn_scale},
                      {"branch_scale", reg.branch_scale},
                      {"head_scale", reg.head_scale},
                      {"widths", nlohmann::json::array()}};
    PlotSeries pm{reg.name, {}, {}, true}, pa{reg.name, {}, {}, true}, pc{std::string("certified, ") + reg.name, {}, {}, true},
        pq{std::string("measured, ") + reg.name, {}, {}, true}, pl{reg.name, {}, {}, true};
    for (int w : kFrontierWidths) {
      int held = 0;
      double best = 0;
      std::vector<double> certified, measured, ratio;
      nlohmann::json jw{{"width", w}, {"instances", nlohmann::json::array()}};
      for (int k = 0; k < a.seeds; ++k) {
        Rng rng = Rng::derive(a.seed, a.name, static_cast<std::uint64_t>(1000000 * r + 1000 * w + k));
        QModelSpec s;
        s.n = 2;
        s.N = 3;
        s.d = w;
        s.m = w;
        s.d_y = 2;
        s.config.beta = 1.0;
        s.config.activation = k % 2 ? Activation::tanh : Activation::softplus;
        s.L = reg.L;
        s.attn_scale = reg.attn_scale;
        s.value_scale = s.ffn_scale = reg.branch_scale;
        s.head_scale = reg.head_scale;
        s.entropy = rng.next_u64();
        const QModel<double> q = qin_model_double(qin::with_output_scale_targets(build_qin_model(s)));
        const TransformerTrace<double> tr = transformer_forward(q.params, q.config, q.X, q.Y);
        const detail::RateSetup<double> st = detail::rate_setup(q, tr, true);
        if (!(st.sigma0 > 0)) throw UsageError("qin-rate-frontier: sigma_nN(H_0) = 0 at width " + std::to_string(w));
        const bool ok = !st.discard;
        // The theorem's step: at the radius it uses when (H1) and (H2) hold, else at rho* (what it would use).
        const double eta = 1.0 / st.sm.Lg, cert = 1.0 - eta * st.alpha;
        GdOptions o;
        o.max_steps = steps;
        o.record_spectra = false;
        const GdRun<double> run = gradient_descent(q.params, q.config, q.X, q.Y, o, eta);
        const double meas = std::pow(run.records.back().loss / st.f0, 1.0 / double(run.records.size() - 1));
        held += ok;
        best = std::max(best, st.l0_max / st.half_y2);
        certified.push_back(cert);
        measured.push_back(meas);
        ratio.push_back(std::log(meas) / std::log(cert));
        const char* act = k % 2 ? "tanh" : "softplus";
        table.rows.push_back({reg.name, std::to_string(w), std::to_string(k), act, ok ? "1" : "0", num(st.f0 / st.half_y2),
                              num(st.l0_max / st.half_y2), num(st.sigma0), num(st.h0 / st.sigma0), num(st.rho_star), num(st.sm.J),
                              num(st.sm.a), num(st.sm.Lg), num(eta * st.alpha), num(cert), num(meas),
                              std::to_string(run.records.size() - 1)});
        jw["instances"].push_back({{"seed_index", k}, {"activation", act}, {"hypotheses_hold", ok},
                                   {"L0_over_half_Y2", st.f0 / st.half_y2}, {"L0max_over_half_Y2", st.l0_max / st.half_y2},
                                   {"sigma0", st.sigma0}, {"kappa_H0", st.h0 / st.sigma0}, {"rho_star", st.rho_star},
                                   {"J", st.sm.J}, {"a", st.sm.a}, {"Lg", st.sm.Lg}, {"eta_alpha", eta * st.alpha},
                                   {"certified_contraction", cert}, {"measured_contraction", meas},
                                   {"steps", run.records.size() - 1}});
      }
      const double frac = double(held) / a.seeds;
      jw["fraction_hypotheses_hold"] = frac;
      jw["largest_L0max_over_half_Y2"] = best;
      jw["median_certified_contraction"] = median(certified);
      jw["median_measured_contraction"] = median(measured);
      jw["median_rate_ratio"] = median(ratio);
      jr["widths"].push_back(jw);
      pm.x.push_back(w), pm.y.push_back(frac);
      pa.x.push_back(w), pa.y.push_back(best);
      pc.x.push_back(w), pc.y.push_back(1.0 - median(certified));
      pq.x.push_back(w), pq.y.push_back(1.0 - median(measured));
      pl.x.push_back(w), pl.y.push_back(median(ratio));
      fmt::print("{:<48} w {:>4}  hypotheses {}/{}  largest L0max/(|Y|^2/2) {:>9.3e}  certified {:.6f}  measured {:.6f}  ratio {:.3g}\n",
                 reg.name, w, held, a.seeds, best, median(certified), median(measured), median(ratio));
    }
    met.push_back(pm);
    admitted.push_back(pa);
    rates.push_back(pc);
    rates.push_back(pq);
    looseness.push_back(pl);
    j["regimes"].push_back(jr);
  }
  require_finite(j, "qin-rate-frontier");
  const std::filesystem::path dir(a.out);
  atomic_write(dir / "qin-rate-frontier.csv", table.str());
  atomic_write(dir / "qin-rate-frontier.json", j.dump(2) + "\n");
  // L_0 / (1/2 ||Y||^2) of the instances themselves (at least 2: targets of the outputs' size, <Y, Yhat_0> <= 0).
  std::vector<double> l0;
  for (const auto& jr : j["regimes"])
    for (const auto& jw : jr["widths"])
      for (const auto& in : jw["instances"]) l0.push_back(in["L0_over_half_Y2"]);
  PlotSeries need{"L_0 / (1/2 ||Y||^2) of the instances (median)", {}, {}, false};
  for (int w : kFrontierWidths) need.x.push_back(w), need.y.push_back(median(l0));
  admitted.push_back(need);
  const auto& last = j["regimes"][2]["widths"].back();  // one layer, head 1e-3
  const auto& ord = j["regimes"].front()["widths"].back();
  PlotSpec sm{"fraction of instances meeting (H1) and (H2)", "width d = m", "fraction", true, false, 760, 320};
  PlotSpec sa{"largest L_0 / (1/2 ||Y||^2) admitted by (H2) (the max over instances)", "width d = m", "L_0 / (1/2 ||Y||^2)", true, true, 760, 360};
  PlotSpec sr{"per-step loss decrease 1 - contraction: certified eta alpha vs measured (median)", "width d = m", "1 - contraction", true, true, 760, 360};
  PlotSpec sl{"theory's looseness: log(measured contraction) / log(certified contraction) (median)", "width d = m", "ratio of rates", true, true, 760, 320};
  const int wmax = kFrontierWidths[std::size(kFrontierWidths) - 1];
  const std::vector<Figure> figures{
      {line_plot(sm, met), fmt::format("[Q]'s linear-rate theorem needs (H1) J(rho) rho <= sigma0/2 and (H2) 2 sqrt(2 L_0) a(rho)/alpha <= rho. "
                                       "Fraction of {} instances per width meeting both, targets independent of the model at the output scale. "
                                       "At width {}: {:.2g} at ordinary initialisation, {:.2g} with the head at 1e-3.", a.seeds, wmax,
                                       ord["fraction_hypotheses_hold"].get<double>(), last["fraction_hypotheses_hold"].get<double>())},
      {line_plot(sa, admitted), fmt::format("The largest loss the theorem admits, 1/2 (sigma0^3 / (16 J a))^2, as a fraction of 1/2 ||Y||^2, "
                                            "against the loss the instances start from (at least 2: targets of the outputs' size, <Y, Yhat_0> <= 0). At width {}: {:.3g} at ordinary "
                                            "initialisation, {:.3g} with the head at 1e-3.", wmax, ord["largest_L0max_over_half_Y2"].get<double>(),
                                            last["largest_L0max_over_half_Y2"].get<double>())},
      {line_plot(sr, rates), fmt::format("Certified per-step decrease eta alpha = sigma0^2 / (4 Lg) beside the measured one, 1 - (L_T/L_0)^(1/T) "
                                         "of GD at the theorem's step eta = 1/Lg over T = {} steps (medians; instances whose hypotheses fail "
                                         "included, at rho*).", steps)},
      {line_plot(sl, looseness), fmt::format("How much faster the loss falls than the theorem certifies, log(measured) / log(certified), median "
                                             "per width. At width {} with the head at 1e-3: {:.3g}.", wmax, last["median_rate_ratio"].get<double>())}};
  atomic_write(dir / "qin-rate-frontier.html",
               experiment_html("qin-rate-frontier", "Where the linear-rate theorems (every block trained, sharper constants; one layer, "
                                                    "and two layers with the constants propagated) say something, against the width "
                                                    "d = m; seed " + std::to_string(a.seed) + ".",
                               figures));
  fmt::print("wrote {}, {} and {}\n", (dir / "qin-rate-frontier.csv").string(), (dir / "qin-rate-frontier.json").string(),
             (dir / "qin-rate-frontier.html").string());
  return kExitOk;
}

}  // namespace

int experiment(const ExperimentArgs& a) {
  if (a.name != "qin-beta-sweep" && a.name != "qin-depth" && a.name != "qin-rate-frontier" && !is_goel_experiment(a.name))
    throw UsageError("unknown experiment '" + a.name +
                     "' (expected qin-beta-sweep, qin-depth, qin-rate-frontier, goel-m-scaling, goel-n-scaling or goel-baseline)");
  if (a.name == "qin-rate-frontier" && a.data) throw UsageError("--data does not apply to qin-rate-frontier (synthetic widths)");
  if (is_goel_experiment(a.name) && a.data) throw UsageError("--data applies to the qin experiments only");
  if (a.seeds < 1 || a.seeds > 1000) throw UsageError("--seeds must be in [1, 1000]");
  if (a.steps < 1 || a.steps > 1000000) throw UsageError("--steps must be in [1, 1000000]");
  if (a.window < 1 || a.window > 512 || a.samples < 1 || a.samples > 512) throw UsageError("--window and --samples must be in [1, 512]");
  std::optional<DataSeries> series;
  if (a.data) {
    try {
      series = read_series_csv(*a.data);
      // A column that is constant over the rows the windows use cannot be standardised (0/0).
      const Eigen::Index used = std::min<Eigen::Index>(series->values.rows(), Eigen::Index(a.samples) * a.window + 1);
      for (Eigen::Index c = 0; c < series->values.cols(); ++c) {
        const auto col = series->values.col(c).head(used);
        if (!(col.maxCoeff() > col.minCoeff()))
          throw DataError(*a.data + ": column '" + series->columns[static_cast<std::size_t>(c)].substr(0, 40) + "' is constant over the " +
                          std::to_string(used) + " rows used: it cannot be standardised");
      }
      // Validate the windowing before any work.
      QModelSpec probe;
      probe.n = a.samples;
      probe.N = a.window;
      build_qin_model_from_series(series->values, probe);
    } catch (const DataError& e) {
      throw UsageError(e.what());
    } catch (const std::invalid_argument& e) {
      throw UsageError(*a.data + ": " + e.what());
    }
  }
  try {
    prepare_report_dir(a.out);
  } catch (const ReportError& e) {
    throw UsageError(e.what());
  }
  if (is_goel_experiment(a.name)) return goel_experiment(a);
  if (a.name == "qin-rate-frontier") return rate_frontier_experiment(a);
  return a.name == "qin-beta-sweep" ? beta_sweep_experiment(a, series) : depth_experiment(a, series);
}

}  // namespace thm::cli
