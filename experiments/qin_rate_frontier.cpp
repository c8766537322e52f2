// qin-rate-frontier: where the linear-rate theorems (qin.gd.linear_rate, all six blocks of one layer, and
// qin.gd.linear_rate_multilayer with two layers, the sharper constants) say something, as the width w = d = m grows
// (docs/derivations/qin.gd.linear_rate.md, "Measured").
// Per width and initialisation regime, --seeds instances (n = 2, N = 3, d_y = 2, beta = 1, softplus and tanh
// alternately, targets independent of the model at the output scale): whether the hypotheses hold, the largest
// L_0 / (1/2 ||Y||^2) that (H2) admits, the certified 1 - eta alpha and the measured per-step contraction
// (L_T / L_0)^(1/T) of GD at the theorem's step eta = 1/Lg.
#include "experiments/experiment.hpp"
#include "numerics/models/qin/gd.hpp"
#include "numerics/models/qin/model_instance.hpp"
#include "numerics/random.hpp"
#include "numerics/statistics.hpp"
#include "theorems/qin/linear_rate.hpp"
#include "theorems/qin/model_cases.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace thm {

namespace qin_rate_frontier {  // named: the experiments build as one unit (CMakeLists.txt, THM_UNITY)
namespace {

std::string num(double x) { return exact_decimal(x); }

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

// One instance of one regime and width: what the theorem's constants say and what GD does at its step.
struct FrontierPoint {
  bool hypotheses_hold;
  double f0, half_y2, l0_max, sigma0, h0, rho_star, J, a, Lg, eta_alpha, certified, measured;
  int steps;
};

FrontierPoint frontier_point(const ExperimentArgs& a, std::size_t r, int w, int k, int steps) {
  const FrontierRegime& reg = kFrontierRegimes[r];
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
  const RateSetup<double> st = rate_setup(q, tr, true);
  if (!(st.sigma0 > 0)) throw std::domain_error("qin-rate-frontier: sigma_nN(H_0) = 0 at width " + std::to_string(w));
  // The theorem's step: at the radius it uses when (H1) and (H2) hold, else at rho* (what it would use).
  const double eta = 1.0 / st.sm.Lg;
  GdOptions o;
  o.max_steps = steps;
  o.record_spectra = false;
  const GdRun<double> run = gradient_descent(q.params, q.config, q.X, q.Y, o, eta);
  return {!st.discard, st.f0, st.half_y2, st.l0_max, st.sigma0, st.h0, st.rho_star, st.sm.J, st.sm.a, st.sm.Lg, eta * st.alpha,
          1.0 - eta * st.alpha, std::pow(run.records.back().loss / st.f0, 1.0 / double(run.records.size() - 1)),
          static_cast<int>(run.records.size() - 1)};
}

ExperimentResult run(const ExperimentArgs& a) {
  const int steps = std::min(a.steps, kFrontierMaxSteps);
  constexpr int widths = static_cast<int>(std::size(kFrontierWidths));
  const int per_regime = widths * a.seeds;
  const std::vector<FrontierPoint> points = independent_runs(a, static_cast<int>(std::size(kFrontierRegimes)) * per_regime, [&](int i) {
    return frontier_point(a, static_cast<std::size_t>(i / per_regime), kFrontierWidths[(i % per_regime) / a.seeds], i % a.seeds, steps);
  });

  ExperimentResult res{"qin-rate-frontier",
                       "Where the linear-rate theorems (every block trained, sharper constants; one layer, "
                       "and two layers with the constants propagated) say something, against the width "
                       "d = m; seed " + std::to_string(a.seed) + ".",
                       {{"experiment", a.name}, {"seed", a.seed}, {"seeds", a.seeds}, {"steps", steps}, {"data", "synthetic"}},
                       {}, {}, {}};
  ExperimentTable table{"qin-rate-frontier.csv",
                        {"regime", "width", "seed", "activation", "hypotheses_hold", "L0_over_half_Y2", "L0max_over_half_Y2", "sigma0",
                         "kappa_H0", "rho_star", "J", "a", "Lg", "eta_alpha", "certified_contraction", "measured_contraction", "steps"},
                        {}};
  nlohmann::json& j = res.json;
  j["widths"] = kFrontierWidths;
  j["regimes"] = nlohmann::json::array();
  std::vector<PlotSeries> met, admitted, rates, looseness;
  struct WidthSummary {
    double fraction_hypotheses_hold, largest_l0max_over_half_y2, median_rate_ratio;
  };
  std::vector<std::vector<WidthSummary>> summary(std::size(kFrontierRegimes));  // per regime, per width
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
    for (int wi = 0; wi < widths; ++wi) {
      const int w = kFrontierWidths[wi];
      int held = 0;
      double best = 0;
      std::vector<double> certified, measured, ratio;
      nlohmann::json jw{{"width", w}, {"instances", nlohmann::json::array()}};
      for (int k = 0; k < a.seeds; ++k) {
        const FrontierPoint& p = points[r * static_cast<std::size_t>(per_regime) + static_cast<std::size_t>(wi * a.seeds + k)];
        held += p.hypotheses_hold;
        best = std::max(best, p.l0_max / p.half_y2);
        certified.push_back(p.certified);
        measured.push_back(p.measured);
        ratio.push_back(std::log(p.measured) / std::log(p.certified));
        const char* act = k % 2 ? "tanh" : "softplus";
        table.rows.push_back({reg.name, std::to_string(w), std::to_string(k), act, p.hypotheses_hold ? "1" : "0", num(p.f0 / p.half_y2),
                              num(p.l0_max / p.half_y2), num(p.sigma0), num(p.h0 / p.sigma0), num(p.rho_star), num(p.J), num(p.a),
                              num(p.Lg), num(p.eta_alpha), num(p.certified), num(p.measured), std::to_string(p.steps)});
        jw["instances"].push_back({{"seed_index", k}, {"activation", act}, {"hypotheses_hold", p.hypotheses_hold},
                                   {"L0_over_half_Y2", p.f0 / p.half_y2}, {"L0max_over_half_Y2", p.l0_max / p.half_y2},
                                   {"sigma0", p.sigma0}, {"kappa_H0", p.h0 / p.sigma0}, {"rho_star", p.rho_star},
                                   {"J", p.J}, {"a", p.a}, {"Lg", p.Lg}, {"eta_alpha", p.eta_alpha},
                                   {"certified_contraction", p.certified}, {"measured_contraction", p.measured},
                                   {"steps", p.steps}});
      }
      const double frac = double(held) / a.seeds;
      jw["fraction_hypotheses_hold"] = frac;
      jw["largest_L0max_over_half_Y2"] = best;
      jw["median_certified_contraction"] = median(certified);
      jw["median_measured_contraction"] = median(measured);
      jw["median_rate_ratio"] = median(ratio);
      jr["widths"].push_back(jw);
      summary[r].push_back({frac, best, median(ratio)});
      pm.x.push_back(w), pm.y.push_back(frac);
      pa.x.push_back(w), pa.y.push_back(best);
      pc.x.push_back(w), pc.y.push_back(1.0 - median(certified));
      pq.x.push_back(w), pq.y.push_back(1.0 - median(measured));
      pl.x.push_back(w), pl.y.push_back(median(ratio));
      res.log.push_back(fmt::format("{:<48} w {:>4}  hypotheses {}/{}  largest L0max/(|Y|^2/2) {:>9.3e}  certified {:.6f}  measured {:.6f}  ratio {:.3g}",
                                    reg.name, w, held, a.seeds, best, median(certified), median(measured), median(ratio)));
    }
    met.push_back(pm);
    admitted.push_back(pa);
    rates.push_back(pc);
    rates.push_back(pq);
    looseness.push_back(pl);
    j["regimes"].push_back(jr);
  }
  res.tables.push_back(std::move(table));
  // L_0 / (1/2 ||Y||^2) of the instances themselves (at least 2: targets of the outputs' size, <Y, Yhat_0> <= 0).
  std::vector<double> l0;
  for (const FrontierPoint& p : points) l0.push_back(p.f0 / p.half_y2);
  PlotSeries need{"L_0 / (1/2 ||Y||^2) of the instances (median)", {}, {}, false};
  for (int w : kFrontierWidths) need.x.push_back(w), need.y.push_back(median(l0));
  admitted.push_back(need);
  const WidthSummary& last = summary[2].back();  // one layer, head 1e-3
  const WidthSummary& ord = summary.front().back();
  const int wmax = kFrontierWidths[std::size(kFrontierWidths) - 1];
  res.figures = {
      {{"fraction of instances meeting (H1) and (H2)", "width d = m", "fraction", true, false, 760, 320}, met,
       fmt::format("[Q]'s linear-rate theorem needs (H1) J(rho) rho <= sigma0/2 and (H2) 2 sqrt(2 L_0) a(rho)/alpha <= rho. "
                   "Fraction of {} instances per width meeting both, targets independent of the model at the output scale. "
                   "At width {}: {:.2g} at ordinary initialisation, {:.2g} with the head at 1e-3.", a.seeds, wmax,
                   ord.fraction_hypotheses_hold, last.fraction_hypotheses_hold)},
      {{"largest L_0 / (1/2 ||Y||^2) admitted by (H2) (the max over instances)", "width d = m", "L_0 / (1/2 ||Y||^2)", true, true, 760, 360},
       admitted,
       fmt::format("The largest loss the theorem admits, 1/2 (sigma0^3 / (16 J a))^2, as a fraction of 1/2 ||Y||^2, "
                   "against the loss the instances start from (at least 2: targets of the outputs' size, <Y, Yhat_0> <= 0). At width {}: {:.3g} at ordinary "
                   "initialisation, {:.3g} with the head at 1e-3.", wmax, ord.largest_l0max_over_half_y2,
                   last.largest_l0max_over_half_y2)},
      {{"per-step loss decrease 1 - contraction: certified eta alpha vs measured (median)", "width d = m", "1 - contraction", true, true, 760, 360},
       rates,
       fmt::format("Certified per-step decrease eta alpha = sigma0^2 / (4 Lg) beside the measured one, 1 - (L_T/L_0)^(1/T) "
                   "of GD at the theorem's step eta = 1/Lg over T = {} steps (medians; instances whose hypotheses fail "
                   "included, at rho*).", steps)},
      {{"theory's looseness: log(measured contraction) / log(certified contraction) (median)", "width d = m", "ratio of rates", true, true, 760, 320},
       looseness,
       fmt::format("How much faster the loss falls than the theorem certifies, log(measured) / log(certified), median "
                   "per width. At width {} with the head at 1e-3: {:.3g}.", wmax, last.median_rate_ratio)}};
  return res;
}

}  // namespace
}  // namespace qin_rate_frontier

extern const Experiment kQinRateFrontier{"qin-rate-frontier",
                                         "[Q]: where the linear-rate theorems' hypotheses hold as the width grows, certified against measured rate",
                                         300, false, qin_rate_frontier::run};

}  // namespace thm
