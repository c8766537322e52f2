// goel.init.spectral_near_manifold (reconstruction; docs/derivations/goel.init.spectral_near_manifold.md)
//
// The spectral start lands near the manifold S of population minima, at distance ~ n^{-1/2} (a rate and a frequency).
//
//   Over n in a grid (64..4096) and seeds, the median dist_P(theta_0, S) falls like n^{-1/2} (|slope + 1/2| <= 0.1 +
//   bootstrap half-width), and for n >= 4 n_0, n_0 = (C / rho)^2 from the law fitted on 32 held-out data draws per n
//   (never judged), at least 75% of the 32 judged seeds start inside rho (a one-sided binomial test at level 1e-3).
//   Negative control, the named alternative the run must rule out: slope -1/4 (the distance falling half as fast).
#include "numerics/models/goel/algorithm1.hpp"
#include "numerics/models/goel/factor_manifold.hpp"
#include "theorems/goel/algorithm.hpp"
#include "theorems/goel/constants.hpp"
#include "theorems/register_claim.hpp"

#include <boost/math/distributions/binomial.hpp>

#include <cmath>
#include <string>
#include <vector>

namespace thm::goel {

inline constexpr int kNearSeeds = 32;
inline constexpr double kNearSlopeTolerance = 0.1, kNearInsideFraction = 0.75, kNearBinomialLevel = 1e-3;
// The frequency is judged at n >= 4 n_0: there the limit fraction inside rho is >= 0.823 for every number of
// effective dimensions (0.66 at 2 n_0 for one; goel.init.spectral_near_manifold.md, step 6).
inline constexpr double kNearThresholdFactor = 4.0;

struct SpectralNearManifold {
  static ClaimInfo info() {
    return {
        .id = "goel.init.spectral_near_manifold",
        .source = "G",
        .provenance = Provenance::reconstruction,
        .kind = ClaimKind::rate,
        .statement = "n in 64..4096, 32 seeds: median dist_P(theta_0, S) ~ n^{-1/2} (|slope + 1/2| <= 0.1 + 99% bootstrap "
                     "half-width); for n >= 4 n_0, n_0 = (C/rho)^2 fitted on 32 held-out draws per n, at least 75% of the judged "
                     "seeds start inside rho (binomial test, 1e-3)",
        .negative_control = "slope -1/4 (the named alternative: the distance falling half as fast)",
        .reading = kEveryReading,
        .uses = {"goel.init.spectral_exact"},
        // 5 instances: the power against slope -1/4 at least 0.99 per run (derivation, "Control power").
        .default_cases = 5,
        .mp_cases = 3,
        .ladder_checks = 1,
        .resolving_factor = 13.81,  // thmcheck power --claims goel.init.spectral_near_manifold --seeds 1..20
    };
  }

  // The instances it reads (numerics/instance_schema.hpp): what the generator below draws.
  static InstanceSchema schema() {
    return finite_schema(4).integer("n_min", 4, 64).integer("n_max", 64, 4096).integer("seeds", 1, kNearSeeds).seconds_at_limits(2);
  }
  static Instance generate(ChoiceSource& src) {
    GSpec s = detail::finite_spec(src, 4, 100.0);
    s.entropy = src.entropy();
    s.mc_seed = src.entropy();
    Instance inst = build_goel(s);
    inst.params["n_min"] = 64;
    inst.params["n_max"] = 4096;  // spectral starts are cheap: the full grid in every budget
    inst.params["seeds"] = kNearSeeds;
    return inst;
  }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant variant) {
    const std::vector<int> grid = n_grid(inst);
    const int seeds = int_param(inst, "seeds", 3, 1000);
    const GProblem<T> g = lift_goel<T>(inst);
    if (g.k < g.d) return Evaluation::discarded("k < d: Z* cannot have rank d (rho needs sigma_d(Z*) > 0)");
    const FactorManifold<T> S = factor_manifold(g.task.Z, g.d);
    const OnePointConstants<T> c = one_point_constants(S.sigma(0), S.sigma(g.d - 1), T(kAlgorithmLambda));
    const double rho = to_double(c.rho);
    // dist_P(theta_0, S) of the spectral start on data draw s of size n (draws 0 .. seeds-1 are judged; seeds ..
    // 2 seeds-1 are held out, for n_0 only).
    const auto distance = [&](int n, int s) {
      const FiniteProblem<T> f = finite_problem<T>(inst, n, data_seed(inst, n, s));
      const ParamPair<T> init = spectral_init(f.moments, g.d);
      return to_double(project_onto_manifold(S, to_factors(init.A, init.B, g.task.roots)).distance);
    };
    std::vector<std::vector<double>> dist(grid.size()), held_out(grid.size());
    std::vector<int> inside(grid.size(), 0);
    Evaluation e;
    for (std::size_t i = 0; i < grid.size(); ++i) {
      for (int s = 0; s < seeds; ++s) {
        dist[i].push_back(distance(grid[i], s));
        inside[i] += dist[i].back() <= rho ? 1 : 0;
        held_out[i].push_back(distance(grid[i], seeds + s));
      }
      e.add_point("median dist_P(theta_0, S)", "n", double(grid[i]), median(dist[i]));
      e.add_point("fraction inside rho", "n", double(grid[i]), double(inside[i]) / seeds);
    }
    const ExponentFit fit = exponent_fit(grid, dist, mc_seed_of(inst));
    const double target = variant == Variant::claim ? -0.5 : -0.25;
    const double half = (fit.hi - fit.lo) / 2;
    e.conditions.push_back(make_le<double>(variant == Variant::claim ? "|slope(log median dist, log n) + 1/2| <= 0.1 + bootstrap half-width"
                                                                     : "|slope(log median dist, log n) + 1/4| <= 0.1 + bootstrap half-width",
                                           std::fabs(fit.slope - target), kNearSlopeTolerance + half, 0.0));
    // Frequency: n_0 = (C / rho)^2 from the law median dist = C n^{-1/2} fitted on the held-out draws, so the
    // threshold does not depend on the seeds it judges; at grid n >= 4 n_0, at least 75% of seeds start inside rho.
    const double C = std::exp(median([&] {
      std::vector<double> cs;
      for (std::size_t i = 0; i < grid.size(); ++i) cs.push_back(std::log(median(held_out[i]) * std::sqrt(double(grid[i]))));
      return cs;
    }()));
    const double n0 = (C / rho) * (C / rho);
    // Judged by a one-sided binomial test: violated when P(X <= observed count | p = 0.75) < 1e-3, i.e. when
    // the seeds show with confidence 99.9% that fewer than 75% start inside rho.
    const boost::math::binomial_distribution<double> at_support(seeds, kNearInsideFraction);
    int judged = 0;
    for (std::size_t i = 0; i < grid.size(); ++i)
      if (grid[i] >= kNearThresholdFactor * n0) {
        ++judged;
        e.conditions.push_back(make_ge<double>("n = " + std::to_string(grid[i]) +
                                                   " >= 4 n_0: P(X <= seeds inside rho | p = 0.75) >= 1e-3 (binomial, one-sided)",
                                               boost::math::cdf(at_support, double(inside[i])), kNearBinomialLevel, 0.0));
      }
    e.observations.emplace_back("slope", fit.slope);
    e.observations.emplace_back("slope CI low (99%)", fit.lo);
    e.observations.emplace_back("slope CI high (99%)", fit.hi);
    e.observations.emplace_back("R^2", fit.r2);
    e.observations.emplace_back("rho", rho);
    e.observations.emplace_back("n_0 = (C / rho)^2 (held-out draws)", n0);
    e.observations.emplace_back("grid points judged for the frequency (n >= 4 n_0)", double(judged));
    return e;
  }
};

}  // namespace thm::goel

THM_REGISTER_CLAIM(thm::goel::SpectralNearManifold)
