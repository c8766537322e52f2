#pragma once

#include "numerics/algorithm1.hpp"
#include "numerics/rate_fit.hpp"
#include "numerics/spectral.hpp"
#include "theorems/detail/goel_instance_impl.hpp"
#include "theorems/goel/noise.hpp"
#include "theorems/goel_algorithm.hpp"
#include "theorems/goel_constants.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>
#include <string>
#include <vector>

namespace thm {

namespace detail {

inline std::uint64_t data_seed(const Instance& inst, int n, int s) {
  const std::uint64_t base = mc_seed_of(inst);
  return Rng::derive(base, "goel.data", static_cast<std::uint64_t>(n) * 1000 + static_cast<std::uint64_t>(s)).next_u64();
}

// The n grid written by the generator: n_min, 2 n_min, ..., n_max.
inline std::vector<int> n_grid(const Instance& inst) {
  const int lo = int_param(inst, "n_min", 4, 1 << 16), hi = int_param(inst, "n_max", lo, 1 << 16);
  std::vector<int> g;
  for (int n = lo; n <= hi; n *= 2) g.push_back(n);
  return g;
}

template <class T>
struct FiniteProblem {
  GProblem<T> g;
  Mat<T> X, Y;
  EmpiricalMoments<T> moments;
};

template <class T>
FiniteProblem<T> finite_problem(const Instance& inst, int n, std::uint64_t seed) {
  FiniteProblem<T> f{lift_goel<T>(inst), {}, {}, {}};
  const GData data = draw_goel_data(inst, n, seed);
  f.X = lift<T>(data.X);
  f.Y = lift<T>(data.Y);
  f.moments = empirical_moments(f.X, f.Y);
  return f;
}

template <class T>
T sigma1_of_zhat(const EmpiricalMoments<T>& m) {
  return singular_values(Mat<T>(m.M_hat * symmetric_roots(m.Sigma_hat).sqrt))(0);
}

// Algorithm 1 (preconditioned) or the plain-GD baseline, with the documented step sizes.
template <class T>
TrainOptions algorithm_options(const EmpiricalMoments<T>& m, int iterations, bool precondition) {
  TrainOptions o;
  o.iterations = iterations;
  o.lambda = kAlgorithmLambda;
  o.mask_self = true;
  o.precondition = precondition;
  o.record_distance = false;
  const double s1 = to_double(sigma1_of_zhat(m));
  const double sn = to_double(spectral_norm(m.Sigma_hat));
  // At a balanced minimum of f the Hessian's top eigenvalue is 2 max(1, lambda) sigma_1 (goel.finite_data.md):
  // half the stability limit 1 / (max(1, lambda) sigma_1); plain GD has ||Sigma_hat||_2^2 more curvature.
  const double limit = 1.0 / (std::max(1.0, kAlgorithmLambda) * s1);
  o.eta = precondition ? 0.5 * limit : 0.5 * limit / (sn * sn);
  return o;
}

// SGD on mini-batches of n/8 query rows (at least 4) with plain GD's step scaled by the batch fraction
// (the full step diverges on some instances: the mini-batch gradient's variance).
template <class T>
TrainOptions sgd_options(const EmpiricalMoments<T>& m, int iterations, int n, std::uint64_t seed) {
  TrainOptions o = algorithm_options(m, iterations, false);
  o.batch = std::max(4, n / 8);
  o.eta *= double(o.batch) / n;
  o.sgd_seed = seed;
  return o;
}

// A baseline run from a random start: the largest of eta, eta/2, eta/4, eta/8 that does not diverge
// (the step rule is calibrated at S; far from it the curvature can be larger).
template <class T>
TrainRun<T> stable_baseline_run(const ParamPair<T>& start, const FiniteProblem<T>& f, const FactorManifold<T>& S, TrainOptions o) {
  TrainRun<T> run;
  for (int halvings = 0; halvings < 4; ++halvings, o.eta /= 2) {
    run = train(start, f.X, f.Y, f.moments, f.g.task, S, o);
    if (!run.diverged) break;
  }
  return run;
}

// The fitted per-step contraction of the objective gap f_t - f_min over the window where the gap is
// between 1e-3 of its start and 1e3 times the rounding floor (100 eps |f_min|): the asymptotic phase, whose
// rate is set by the linearisation at the minimiser (goel.rate.geometric_in_m.md, step 3); the first three
// decades may carry a transient at another rate.
struct GapFit {
  double mu = 1, r2 = 0, smallest_gap = 0;  // smallest relative gap reached in the window
  int points = 0;
};
// With `tail_decades`, the window keeps only the last tail_decades decades above 1e3 times the floor (fit_tail).
template <class T>
GapFit fit_gap(const std::vector<T>& objective, double tail_decades = std::numeric_limits<double>::infinity()) {
  GapFit out;
  if (objective.size() < 4) return out;
  using std::abs;
  const T fmin = *std::min_element(objective.begin(), objective.end());
  const T floor = T(100) * epsilon<T>() * abs(fmin);
  const T lo = T(1000) * floor;
  T hi = T(objective.front() - fmin) / T(1000);
  if (std::isfinite(tail_decades)) hi = std::min<T>(hi, T(lo * T(std::pow(10.0, tail_decades))));
  std::vector<double> t, y;
  for (std::size_t i = 0; i + 1 < objective.size(); ++i) {
    const T gap = objective[i] - fmin;
    if (gap <= hi && gap >= lo) {
      t.push_back(double(i));
      y.push_back(std::log(to_double(gap)));
      out.smallest_gap = to_double(T(gap / abs(fmin)));
    }
  }
  if (t.size() < 3) return out;
  const LineFit f = fit_line(t, y);
  out.mu = std::exp(f.slope);
  out.r2 = f.r2;
  out.points = static_cast<int>(t.size());
  return out;
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The median of a resample (with replacement) of v.
inline double bootstrap_median(const std::vector<double>& v, Rng& rng) {
  std::vector<double> r;
  for (std::size_t j = 0; j < v.size(); ++j) r.push_back(v[static_cast<std::size_t>(rng.uniform_int(0, static_cast<std::int64_t>(v.size()) - 1))]);
  return median(r);
}

// Log-log fit of per-n medians over seeds with a bootstrap (resampling the seeds at each n): slope,
// its percentile interval, R^2, intercept.
struct ExponentFit {
  double slope = 0, intercept = 0, r2 = 0, lo = 0, hi = 0;
};
inline ExponentFit exponent_fit(const std::vector<int>& ns, const std::vector<std::vector<double>>& values, std::uint64_t seed,
                                double level = 0.99) {
  std::vector<double> x, y;
  for (std::size_t i = 0; i < ns.size(); ++i) {
    x.push_back(std::log(double(ns[i])));
    y.push_back(std::log(median(values[i])));
  }
  const LineFit f = fit_line(x, y);
  ExponentFit out{f.slope, f.intercept, f.r2, f.slope, f.slope};
  Rng rng = Rng::derive(seed, "bootstrap", 0);
  std::vector<double> slopes;
  for (int b = 0; b < kBootstrap; ++b) {
    std::vector<double> yb;
    for (const auto& v : values) yb.push_back(std::log(bootstrap_median(v, rng)));
    slopes.push_back(fit_line(x, yb).slope);
  }
  std::sort(slopes.begin(), slopes.end());
  const auto q = [&](double p) { return slopes[std::min(slopes.size() - 1, static_cast<std::size_t>(p * (slopes.size() - 1) + 0.5))]; };
  out.lo = q((1 - level) / 2);
  out.hi = q(1 - (1 - level) / 2);
  return out;
}

}  // namespace detail

template <class T>
Evaluation evaluate_spectral_exact(const Instance& inst, Variant variant) {
  using std::sqrt;
  const int n = detail::int_param(inst, "n", 2, 1 << 16);
  const detail::FiniteProblem<T> f = detail::finite_problem<T>(inst, n, detail::data_seed(inst, n, 0));
  const SymmetricRoots<T> hat = symmetric_roots(f.moments.Sigma_hat);
  const Mat<T> Zhat = f.moments.M_hat * hat.sqrt;
  const int r = std::min(f.g.k, f.g.d);
  ParamPair<T> init;
  if (variant == Variant::claim) {
    init = spectral_init(f.moments, r);
  } else {
    // The control: factors of M_hat itself, as if Sigma_hat were I.
    const FactorManifold<T> S = factor_manifold(f.moments.M_hat, r);
    init = {S.star.P, S.star.Q};
  }
  const Factors<T> p = to_factors(init.A, init.B, hat);
  const Vec<T> ev = hat.eigenvalues;
  const T kappa = ev(ev.size() - 1) / ev(0);
  const T ce = detail::chain_eps<T>(f.g.k + f.g.d) * kappa;
  const T pq = p.P.norm() * p.Q.norm();
  Evaluation e;
  e.conditions.push_back(make_le<T>("||A_0 Sigma_hat B_0^T - M_hat||_F <= rounding", T((init.A * f.moments.Sigma_hat * init.B.transpose() - f.moments.M_hat).norm()),
                                    T(ce * (Zhat.norm() + pq) * hat.inv_sqrt.norm()), T(0)));
  e.conditions.push_back(make_le<T>("balanced: ||P_0^T P_0 - Q_0^T Q_0||_F <= rounding", T((p.P.transpose() * p.P - p.Q.transpose() * p.Q).norm()),
                                    T(ce * (p.P.squaredNorm() + p.Q.squaredNorm())), T(0)));
  e.conditions.push_back(make_le<T>("empirical factor loss: ||P_0 Q_0^T - Z_hat||_F <= rounding", T((p.P * p.Q.transpose() - Zhat).norm()),
                                    T(ce * (Zhat.norm() + pq)), T(0)));
  e.observations = {{"n", double(n)}, {"kappa(Sigma_hat)", to_double(kappa)}, {"||M_hat||", to_double(T(f.moments.M_hat.norm()))}};
  return e;
}

template <class T>
Evaluation evaluate_precond_equivalence(const Instance& inst, Variant variant) {
  using std::abs;
  const int n = detail::int_param(inst, "n", 2, 1 << 16);
  const detail::FiniteProblem<T> f = detail::finite_problem<T>(inst, n, detail::data_seed(inst, n, 0));
  const SymmetricRoots<T> hat = symmetric_roots(f.moments.Sigma_hat);
  const T eta(inst.param("eta")), lambda = f.g.lambda;
  // One step in (A, B).
  ParamPair<T> g = finite_gradient(f.g.A, f.g.B, f.X, f.Y, true);
  const Factors<T> p0 = to_factors(f.g.A, f.g.B, hat);
  const ParamPair<T> gr = gradient_to_params(regularizer_gradient(p0, Regularizer::balancing, lambda), hat);
  g.A += gr.A;
  g.B += gr.B;
  const ParamPair<T> stepped = variant == Variant::claim
                                   ? ParamPair<T>{f.g.A - eta * g.A * hat.inv, f.g.B - eta * hat.inv * g.B * hat.inv}
                                   : ParamPair<T>{f.g.A - eta * g.A, f.g.B - eta * g.B};
  const Factors<T> lhs = to_factors(stepped.A, stepped.B, hat);
  // One GD step on the same objective in (P, Q): L_n on whitened tokens X Sigma_hat^{-1/2} plus R(P, Q).
  const Mat<T> Xw = f.X * hat.inv_sqrt;
  ParamPair<T> gw = finite_gradient(p0.P, p0.Q, Xw, f.Y, true);
  const Factors<T> grw = regularizer_gradient(p0, Regularizer::balancing, lambda);
  const Factors<T> rhs{p0.P - eta * (gw.A + grw.P), p0.Q - eta * (gw.B + grw.Q)};
  const Vec<T> ev = hat.eigenvalues;
  const T kappa = ev(ev.size() - 1) / ev(0);
  T logit = 0;
  const Mat<T> K = f.X * f.g.B * f.X.transpose();
  for (Eigen::Index i = 0; i < K.size(); ++i) logit = std::max<T>(logit, abs(K.data()[i]));
  using std::sqrt;
  const T tol = detail::chain_eps<T>(n + f.g.k + f.g.d) * kappa * (T(1) + logit) *
                (sqrt(squared_norm(p0)) + eta * sqrt(gw.A.squaredNorm() + gw.B.squaredNorm() + squared_norm(grw)));
  Evaluation e;
  e.conditions.push_back(make_le<T>(variant == Variant::claim ? "||(P, Q)(preconditioned step in (A, B)) - GD step in (P, Q)|| <= rounding"
                                                              : "||(P, Q)(plain step in (A, B)) - GD step in (P, Q)|| <= rounding",
                                    T(sqrt(squared_norm(lhs - rhs))), tol, T(0)));
  e.observations = {{"n", double(n)}, {"kappa(Sigma_hat)", to_double(kappa)}, {"max |logit|", to_double(logit)}};
  return e;
}

template <class T>
Evaluation evaluate_spectral_near_manifold(const Instance& inst, Variant variant) {
  const std::vector<int> grid = detail::n_grid(inst);
  const int seeds = detail::int_param(inst, "seeds", 3, 1000);
  const GProblem<T> g = lift_goel<T>(inst);
  if (g.k < g.d) return Evaluation::discarded("k < d: Z* cannot have rank d (rho needs sigma_d(Z*) > 0)");
  const FactorManifold<T> S = factor_manifold(g.task.Z, g.d);
  const OnePointConstants<T> c = one_point_constants(S.sigma(0), S.sigma(g.d - 1), T(kAlgorithmLambda));
  const double rho = to_double(c.rho);
  std::vector<std::vector<double>> dist(grid.size());
  std::vector<double> inside(grid.size(), 0);
  Evaluation e;
  for (std::size_t i = 0; i < grid.size(); ++i) {
    for (int s = 0; s < seeds; ++s) {
      const detail::FiniteProblem<T> f = detail::finite_problem<T>(inst, grid[i], detail::data_seed(inst, grid[i], s));
      const ParamPair<T> init = spectral_init(f.moments, g.d);
      const double dd = to_double(project_onto_manifold(S, to_factors(init.A, init.B, g.task.roots)).distance);
      dist[i].push_back(dd);
      inside[i] += dd <= rho ? 1.0 / seeds : 0.0;
    }
    e.observations.emplace_back("median dist_P(theta_0, S)[n=" + std::to_string(grid[i]) + "]", detail::median(dist[i]));
    e.observations.emplace_back("fraction inside rho[n=" + std::to_string(grid[i]) + "]", inside[i]);
  }
  const detail::ExponentFit fit = detail::exponent_fit(grid, dist, detail::mc_seed_of(inst));
  const double target = variant == Variant::claim ? -0.5 : -1.0;
  const double half = (fit.hi - fit.lo) / 2;
  e.conditions.push_back(make_le<double>(variant == Variant::claim ? "|slope(log median dist, log n) + 1/2| <= 0.1 + bootstrap half-width"
                                                                   : "|slope(log median dist, log n) + 1| <= 0.1 + bootstrap half-width",
                                         std::fabs(fit.slope - target), kNearSlopeTolerance + half, 0.0));
  // Frequency: n_0 = (C / rho)^2 from the fitted law median dist = C n^{-1/2}; at grid n >= 4 n_0, at least
  // 75% of seeds start inside rho.
  const double C = std::exp(detail::median([&] {
    std::vector<double> cs;
    for (std::size_t i = 0; i < grid.size(); ++i) cs.push_back(std::log(detail::median(dist[i]) * std::sqrt(double(grid[i]))));
    return cs;
  }()));
  const double n0 = (C / rho) * (C / rho);
  // Judged by a one-sided binomial test: violated when P(X <= observed count | p = 0.75) < 1e-3, i.e. when
  // the seeds show with confidence 99.9% that fewer than 75% start inside rho.
  int judged = 0;
  for (std::size_t i = 0; i < grid.size(); ++i)
    if (grid[i] >= kNearThresholdFactor * n0) {
      ++judged;
      const int count = static_cast<int>(std::lround(inside[i] * seeds));
      double cdf = 0, term = std::pow(1 - kNearInsideFraction, seeds);  // P(X = 0)
      for (int x = 0; x <= count; ++x) {
        cdf += term;
        term *= double(seeds - x) / double(x + 1) * kNearInsideFraction / (1 - kNearInsideFraction);
      }
      e.conditions.push_back(make_ge<double>("n = " + std::to_string(grid[i]) +
                                                 " >= 4 n_0: P(X <= seeds inside rho | p = 0.75) >= 1e-3 (binomial, one-sided)",
                                             cdf, kNearBinomialLevel, 0.0));
    }
  e.observations.emplace_back("slope", fit.slope);
  e.observations.emplace_back("slope CI low (99%)", fit.lo);
  e.observations.emplace_back("slope CI high (99%)", fit.hi);
  e.observations.emplace_back("R^2", fit.r2);
  e.observations.emplace_back("rho", rho);
  e.observations.emplace_back("n_0 = (C / rho)^2", n0);
  e.observations.emplace_back("grid points judged for the frequency (n >= 4 n_0)", double(judged));
  return e;
}

namespace detail {

// One kappa(Sigma) variant of a rate instance: the matrices with suffix "_k<kappa>".
inline Instance kappa_variant(const Instance& inst, double kappa) {
  Instance v;
  v.family = inst.family;
  v.params = inst.params;
  v.params["sigma_kappa"] = kappa;
  const std::string suffix = "_k" + std::to_string(static_cast<int>(kappa));
  for (const auto& [name, m] : inst.matrices)
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      v.matrices[name.substr(0, name.size() - suffix.size())] = m;
  if (v.matrices.empty()) throw InstanceError("no matrices for kappa(Sigma) = " + std::to_string(kappa));
  return v;
}

// One kappa variant's data, manifold and spectral start, built once for all of its runs.
template <class T>
struct RateProblem {
  FiniteProblem<T> f;
  FactorManifold<T> S;
  ParamPair<T> start;
};
template <class T>
RateProblem<T> rate_problem(const Instance& v) {
  FiniteProblem<T> f = finite_problem<T>(v, kRateTokens, data_seed(v, kRateTokens, 0));
  FactorManifold<T> S = factor_manifold(f.g.task.Z, f.g.rank);
  ParamPair<T> start = spectral_init(f.moments, std::min(f.g.k, f.g.d));
  return {std::move(f), std::move(S), std::move(start)};
}

template <class T>
TrainRun<T> rate_run(const RateProblem<T>& r, int iterations, bool precondition) {
  return train(r.start, r.f.X, r.f.Y, r.f.moments, r.f.g.task, r.S, algorithm_options(r.f.moments, iterations, precondition));
}
template <class T>
TrainRun<T> rate_run(const Instance& v, int iterations, bool precondition) {
  return rate_run(rate_problem<T>(v), iterations, precondition);
}

// Whether a run has reached the rounding floor: its last 100 steps changed the objective by at most
// 100 eps |f| (else f_min is not the minimum and the gap is measured against the wrong reference).
template <class T>
bool reached_floor(const std::vector<T>& objective) {
  using std::abs;
  if (objective.size() < 101) return false;
  const T& last = objective.back();
  return abs(objective[objective.size() - 101] - last) <= T(100) * epsilon<T>() * abs(last);
}

// The first t with F(theta_t) - f_star <= (F(theta_0) - f_star) / kRateGdReduction; -1 if none.
inline int iterations_to_reduce(const std::vector<double>& objective, double f_star) {
  const double target = (objective.front() - f_star) / kRateGdReduction;
  for (std::size_t t = 0; t < objective.size(); ++t)
    if (objective[t] - f_star <= target) return static_cast<int>(t);
  return -1;
}

// The tail fit (goel.rate.geometric_in_m.md, step 4): near a nondegenerate minimiser the gap is a positive
// sum of exponentials sum_i c_i rho_i^{2t}, whose log is convex and straight once the slowest mode dominates.
// The window is the last kRateTailDecades decades above 1e3 times the rounding floor (floor = 100 eps |f_min|),
// and below g_0 / 1e3: a fit over the whole descent bends where a faster mode hands over to a slower one.
template <class T>
GapFit fit_tail(const std::vector<T>& objective) {
  return fit_gap(objective, kRateTailDecades);
}

// Algorithm 1 at one kappa variant: 1500 steps, then 6000 and 24000 while the floor is not reached (empty: diverged or
// not reached; mu_hat > 0.9987 or so).
template <class T>
std::optional<TrainRun<T>> converged_run(const RateProblem<T>& rp) {
  TrainRun<T> a = rate_run(rp, kRateIterations, true);
  for (int m = 4 * kRateIterations; m <= 16 * kRateIterations && !a.diverged && !reached_floor(a.record.objective); m *= 4) a = rate_run(rp, m, true);
  if (a.diverged || !reached_floor(a.record.objective)) return std::nullopt;
  return a;
}

// Whitened tokens X~ = X Sigma_hat^{-1/2} (goel.finite_data.md, (W)).
template <class T>
Mat<T> whitened_tokens(const FiniteProblem<T>& f) {
  return f.X * symmetric_roots(f.moments.Sigma_hat).inv_sqrt;
}

// Step 1 of goel.rate.geometric_in_m.md: with the same G, Xi and Z*, the whitened tokens of two kappa variants
// satisfy X~_v = X~_1 O exactly, O = X~_1^T X~_v / n orthogonal; Algorithm 1 at v is then Algorithm 1 on the
// kappa-1 data from the gauged start (P_v O^T, O Q_v O^T). Returns that start in (A, B) of the kappa-1 data, and O.
template <class T>
std::pair<ParamPair<T>, Mat<T>> gauged_start(const RateProblem<T>& one, const RateProblem<T>& v) {
  const Mat<T> O = Mat<T>(whitened_tokens(one.f).transpose() * whitened_tokens(v.f)) / T(one.f.X.rows());
  const Factors<T> hv = to_factors(v.start.A, v.start.B, symmetric_roots(v.f.moments.Sigma_hat));
  const Factors<T> g{hv.P * O.transpose(), O * hv.Q * O.transpose()};
  return {from_factors(g, symmetric_roots(one.f.moments.Sigma_hat)), O};
}

// max_t |F_a(t) - F_b(t)| / max_t |F_a(t)| over the common prefix.
template <class T>
double sequence_distance(const std::vector<T>& a, const std::vector<T>& b) {
  using std::abs;
  T diff = 0, scale = 0;
  for (std::size_t t = 0; t < std::min(a.size(), b.size()); ++t) {
    diff = std::max<T>(diff, abs(a[t] - b[t]));
    scale = std::max<T>(scale, abs(a[t]));
  }
  return to_double(T(diff / scale));
}

// The rounding allowance of the gauge identity: per step, the whitening and the preconditioned update in (A, B)
// carry a relative error chain_eps(n + k + d) kappa(Sigma_hat); over m steps of a non-expansive map the errors add
// (goel.rate.geometric_in_m.md, Calibration).
template <class T>
double gauge_tolerance(const RateProblem<T>& v, int steps) {
  const Vec<T> ev = symmetric_roots(v.f.moments.Sigma_hat).eigenvalues;
  return to_double(T(chain_eps<T>(static_cast<int>(v.f.X.rows()) + v.f.g.k + v.f.g.d) * (ev(ev.size() - 1) / ev(0)) * T(steps)));
}

}  // namespace detail

template <class T>
Evaluation evaluate_geometric_in_m(const Instance& inst, Variant variant) {
  Evaluation e;
  if constexpr (!std::is_same_v<T, double>) {
    // Beyond double's floor (step 7): the double run at kappa(Sigma) = 10 is taken at the first step t_s where its gap
    // is within 1e2 of its floor (1e4 eps |f_min|), lifted exactly, and continued at the working precision for as many
    // steps as its double rate needs to bring the per-step decrease f_t - f_{t+1} (which decays at the gap's rate,
    // without needing f_inf) from 1e4 eps |f| (1 - mu) to 1e-3 eps(double) |f| (x 1.25), capped at kRateIterationsMpCap.
    const Instance v = detail::kappa_variant(inst, 10);
    const detail::RateProblem<double> rp = detail::rate_problem<double>(v);
    const std::optional<TrainRun<double>> a = detail::converged_run(rp);
    if (!a) return Evaluation::discarded("Algorithm 1 did not reach the rounding floor in " + std::to_string(16 * kRateIterations) + " steps");
    const std::vector<double>& obj = a->record.objective;
    const detail::GapFit lo = detail::fit_tail(obj);
    const double eps_d = epsilon<double>();
    const double fmin = *std::min_element(obj.begin(), obj.end());
    int ts = 0;
    while (ts + 1 < static_cast<int>(obj.size()) && obj[ts] - fmin > 1e4 * eps_d * std::fabs(fmin)) ++ts;
    const double ratio = 1e-7 / (1 - lo.mu);  // target / start of the decreases
    const int m2 = lo.points >= 3 && lo.mu < 1
                       ? std::min(kRateIterationsMpCap, static_cast<int>(std::ceil(1.25 * std::log(ratio) / std::log(lo.mu))) + 20)
                       : kRateIterationsMpCap;
    const ParamPair<double> at_ts = detail::rate_run(rp, ts, true).final;
    const detail::FiniteProblem<T> f = detail::finite_problem<T>(v, kRateTokens, detail::data_seed(v, kRateTokens, 0));
    const FactorManifold<T> S = factor_manifold(f.g.task.Z, f.g.rank);
    const TrainRun<T> hi = train(ParamPair<T>{lift<T>(at_ts.A), lift<T>(at_ts.B)}, f.X, f.Y, f.moments, f.g.task, S,
                                 detail::algorithm_options(f.moments, m2, true));
    // Per-step decreases, relative: OLS of their log on t, over those >= `lowest`. The double iterate carries rounding
    // in every mode, about eps(double) relative in theta, so modes slower than the fitted one can surface near
    // eps(double)^2 |f|: the fit stops 1e3 above that (the smallest decrease is taken over all steps).
    const auto decreases = [](const auto& seq, double lowest) {
      using S = typename std::decay_t<decltype(seq)>::value_type;
      using std::abs;
      std::vector<double> t, y;
      double smallest = 1;
      for (std::size_t i = 0; i + 1 < seq.size(); ++i) {
        const S dd = seq[i] - seq[i + 1];
        if (dd > 0) {
          const double rel = to_double(S(dd / abs(seq.back())));
          if (rel >= lowest) {
            t.push_back(double(i));
            y.push_back(std::log(rel));
          }
          smallest = std::min(smallest, rel);
        }
      }
      return std::make_tuple(t, y, smallest);
    };
    const auto [t_hi, y_hi, smallest_hi] = decreases(hi.record.objective, 1e3 * eps_d * eps_d);
    const auto [t_lo, y_lo, smallest_lo] = decreases(std::vector<double>(obj.end() - 101, obj.end()), 0.0);  // double at its floor
    const LineFit fit = t_hi.size() >= 3 ? fit_line(t_hi, y_hi) : LineFit{};
    const double mu_hi = std::exp(fit.slope);
    // Control: the same requirement of the double run past t_s: its decreases are whole ulps of f, >= eps/2.
    e.conditions.push_back(make_le<double>(variant == Variant::claim ? "smallest relative decrease f_t - f_{t+1} <= 1e-3 eps(double) (past double's floor)"
                                                                     : "control: the double run's smallest relative decrease at its floor <= 1e-3 eps(double)",
                                           variant == Variant::claim ? smallest_hi : smallest_lo, 1e-3 * eps_d, 0.0));
    e.conditions.push_back(make_ge<double>("R^2 of the geometric fit of the decreases past double's floor >= 0.99", fit.r2, 0.99, 0.0));
    const double rel = std::fabs(std::log(mu_hi) - std::log(lo.mu)) / std::fabs(std::log(lo.mu));
    e.conditions.push_back(make_le<double>("|log mu_hat (past double's floor, this precision) / log mu_hat (double tail) - 1| <= 0.1", rel, 0.1, 0.0));
    e.observations = {{"mu_hat (this precision)", mu_hi}, {"mu_hat (double tail)", lo.mu}, {"steps at this precision", double(m2)},
                      {"start step t_s", double(ts)}, {"smallest relative decrease", smallest_hi}};
    return e;
  } else {
    std::vector<detail::RateProblem<double>> rps;
    std::vector<TrainRun<double>> runs;
    std::vector<double> gap_alg;
    for (double kappa : kRateKappas) {
      rps.push_back(detail::rate_problem<double>(detail::kappa_variant(inst, kappa)));
      std::optional<TrainRun<double>> a = detail::converged_run(rps.back());
      if (!a) return Evaluation::discarded("Algorithm 1 diverged or did not reach the rounding floor in " + std::to_string(16 * kRateIterations) +
                                           " steps at kappa(Sigma) = " + exact_decimal(kappa));
      const detail::GapFit fa = detail::fit_tail(a->record.objective);
      const std::string k = exact_decimal(kappa);
      e.conditions.push_back(make_le<double>("kappa(Sigma) = " + k + ": Algorithm 1 mu_hat (tail) < 1", fa.mu, 1.0 - 1e-12, 0.0));
      e.conditions.push_back(make_ge<double>("kappa(Sigma) = " + k + ": R^2 of the geometric fit (tail) >= 0.99", fa.r2, 0.99, 0.0));
      gap_alg.push_back(1 - fa.mu);
      e.observations.emplace_back("Algorithm 1 mu_hat[kappa=" + k + "]", fa.mu);
      e.observations.emplace_back("Algorithm 1 steps[kappa=" + k + "]", double(a->record.objective.size() - 1));
      // The local-contraction mu at the step Algorithm 1 takes (step 5: >= 4.5, never < 1; reported).
      const OnePointConstants<double> c = one_point_constants(rps.back().S.sigma(0), rps.back().S.sigma(rps.back().S.rank - 1), kAlgorithmLambda);
      const double eta = detail::algorithm_options(rps.back().f.moments, 1, true).eta;
      const double mu = 1 - 2 * eta * c.alpha + eta * eta * c.beta_s;
      if (mu < 1)
        e.conditions.push_back(make_le<double>("kappa(Sigma) = " + k + ": mu_hat <= mu(eta) of goel.geometry.local_contraction", fa.mu, mu, 0.0));
      e.observations.emplace_back("mu(eta) of the local-contraction theorem (>= 1: vacuous)[kappa=" + k + "]", mu);
      runs.push_back(std::move(*a));
    }
    // Step 1: Sigma enters Algorithm 1 only through the gauge of its start. The run at kappa v equals, to rounding,
    // the run on the kappa-1 data from the gauged start; the control drops the gauge (the kappa-1 run itself).
    for (std::size_t i = 1; i < rps.size(); ++i) {
      const std::string k = exact_decimal(kRateKappas[i]);
      const int steps = static_cast<int>(runs[i].record.objective.size()) - 1;
      const auto [start, O] = detail::gauged_start(rps[0], rps[i]);
      TrainOptions o = detail::algorithm_options(rps[i].f.moments, steps, true);  // kappa v's step
      const TrainRun<double> g = train(start, rps[0].f.X, rps[0].f.Y, rps[0].f.moments, rps[0].f.g.task, rps[0].S, o);
      const double tol = detail::gauge_tolerance(rps[i], steps);
      const double d_gauge = detail::sequence_distance(runs[i].record.objective, g.record.objective);
      const double d_plain = detail::sequence_distance(runs[i].record.objective, runs[0].record.objective);
      if (variant == Variant::claim)
        e.conditions.push_back(make_le<double>("kappa(Sigma) = " + k + ": max_t |F(kappa) - F(kappa 1, gauged start)| / max |F| <= m chain_eps kappa(Sigma_hat)",
                                               d_gauge, tol, 0.0));
      else
        e.conditions.push_back(make_le<double>("control: kappa(Sigma) = " + k + ": max_t |F(kappa) - F(kappa 1)| / max |F| <= m chain_eps kappa(Sigma_hat) (gauge dropped)",
                                               d_plain, tol, 0.0));
      e.observations.emplace_back("||O - I||_F (gauge of the start)[kappa=" + k + "]", (O - MatD::Identity(O.rows(), O.cols())).norm());
      e.observations.emplace_back("objective distance, gauged[kappa=" + k + "]", d_gauge);
      e.observations.emplace_back("objective distance, gauge dropped[kappa=" + k + "]", d_plain);
    }
    const auto spread = [](const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()) / *std::min_element(v.begin(), v.end()); };
    e.observations.emplace_back("max / min over kappa(Sigma) of (1 - mu_hat) (reported; step 1)", spread(gap_alg));
    // Plain GD from the same start (step 6): T(kappa) = steps to reduce the gap 1e3-fold, at kappa 1 and 100.
    std::vector<int> steps_gd;
    for (std::size_t i : {std::size_t{0}, rps.size() - 1}) {
      const TrainRun<double> p = detail::rate_run(rps[i], kRateGdCap, false);
      if (p.diverged) return Evaluation::discarded("plain GD diverged at kappa(Sigma) = " + exact_decimal(kRateKappas[i]));
      const double f_star = *std::min_element(runs[i].record.objective.begin(), runs[i].record.objective.end());
      steps_gd.push_back(detail::iterations_to_reduce(p.record.objective, f_star));
      e.observations.emplace_back("plain GD steps to reduce the gap 1e3-fold (-1: not in " + std::to_string(kRateGdCap) + ")[kappa=" +
                                      exact_decimal(kRateKappas[i]) + "]",
                                  double(steps_gd.back()));
    }
    const int t1 = steps_gd.front(), t100 = steps_gd.back();
    if (t1 < 0) return Evaluation::discarded("plain GD did not reduce the gap 1e3-fold within " + std::to_string(kRateGdCap) + " steps at kappa(Sigma) = 1");
    const double t100_lower = t100 < 0 ? double(kRateGdCap + 1) : double(t100);
    const double ratio = t100_lower / std::max(1, t1);
    if (variant == Variant::claim) {
      if (t100 < 0 && ratio < kRateSlowdown)
        return Evaluation::discarded("plain GD's slowdown is censored by the step cap below the claimed factor");
      e.conditions.push_back(make_ge<double>("plain GD: steps to reduce the gap 1e3-fold, kappa 100 / kappa 1 >= 1.25", ratio, kRateSlowdown, 0.0));
    } else {
      e.conditions.push_back(make_le<double>("plain GD: steps to reduce the gap 1e3-fold, kappa 100 / kappa 1 <= 1.1 (as insensitive as Algorithm 1)",
                                             ratio, kRateInsensitive, 0.0));
    }
    return e;
  }
}

namespace detail {

// The excess-risk study of one instance (cached per instance and precision: a replay or a report of the
// same instance does not train again).
struct RiskStudy {
  std::vector<int> grid;
  std::vector<std::vector<double>> excess;  // [n][seed]
  double mu_m = 0;                          // median over runs of mu_hat^m
  int iterations = 0;
  int halvings = 0;                         // step halvings after a divergence, over all runs
  bool diverged = false;                    // some run diverged at eta / 8: the study is not judged
};

// Data draws at grid point n (written into the instance by the generator).
inline int risk_seeds(const Instance& inst, int n) {
  const int small = int_param(inst, "seeds", 1, 1000);
  if (!inst.params.count("n_large")) return small;
  return n >= int_param(inst, "n_large", 1, 1 << 16) ? int_param(inst, "seeds_large", 1, 1000) : small;
}

template <class T>
RiskStudy risk_study(const Instance& inst) {
  // Shared by the two risk claims and by run --jobs threads: guarded; a study two threads compute at once is
  // computed twice, with the same result.
  static std::map<std::string, RiskStudy> cache;
  static std::mutex cache_mutex;
  const std::string key = inst.describe() + "|" + std::to_string(std::numeric_limits<T>::digits);
  {
    const std::lock_guard<std::mutex> lock(cache_mutex);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
  }
  RiskStudy r;
  r.grid = n_grid(inst);
  r.iterations = int_param(inst, "iterations", 1, 100000);
  std::vector<double> mus;
  for (int n : r.grid) {
    std::vector<double> ex;
    for (int s = 0; s < risk_seeds(inst, n); ++s) {
      const FiniteProblem<T> f = finite_problem<T>(inst, n, data_seed(inst, n, s));
      const FactorManifold<T> S = factor_manifold(f.g.task.Z, f.g.rank);
      // Algorithm 1's step is half the stability limit at S; where the noise of Z_hat (s / sqrt n) is comparable to
      // sigma_1(Z*) the start is far from S and the step can be too long: halve it, at most three times (counted).
      TrainOptions o = algorithm_options(f.moments, r.iterations, true);
      TrainRun<T> run = train(spectral_init(f.moments, std::min(f.g.k, f.g.d)), f.X, f.Y, f.moments, f.g.task, S, o);
      for (int h = 0; h < 3 && run.diverged; ++h, ++r.halvings) {
        o.eta /= 2;
        run = train(spectral_init(f.moments, std::min(f.g.k, f.g.d)), f.X, f.Y, f.moments, f.g.task, S, o);
      }
      r.diverged = r.diverged || run.diverged;
      ex.push_back(to_double(run.record.excess.back()));
      mus.push_back(std::pow(fit_gap(run.record.objective).mu, r.iterations));
    }
    r.excess.push_back(ex);
  }
  r.mu_m = median(mus);
  const std::lock_guard<std::mutex> lock(cache_mutex);
  cache.emplace(key, r);
  return r;
}

// The Jonckheere-Terpstra statistic of ordered groups: pairs (i in an earlier group, j in a later one) with x_j > x_i.
inline int jonckheere(const std::vector<std::vector<double>>& groups) {
  int s = 0;
  for (std::size_t a = 0; a < groups.size(); ++a)
    for (std::size_t b = a + 1; b < groups.size(); ++b)
      for (double x : groups[a])
        for (double y : groups[b]) s += y > x ? 1 : 0;
  return s;
}

// Its exact upper tail P(J >= j) when the values are exchangeable (continuous, no ties): J has the law of the
// inversions of a uniformly random multiset permutation, whose generating function is the q-multinomial
// coefficient prod_g [N_g; s_g]_q, N_g = s_1 + .. + s_g ([n; k]_q = [n-1; k-1]_q + q^k [n-1; k]_q).
inline double jonckheere_upper_tail(const std::vector<int>& sizes, int j) {
  using Poly = std::vector<double>;
  const auto q_binomial = [](int n, int k) {
    std::vector<std::vector<Poly>> c(n + 1, std::vector<Poly>(k + 1));
    for (int m = 0; m <= n; ++m)
      for (int i = 0; i <= std::min(m, k); ++i) {
        if (i == 0 || i == m) {
          c[m][i] = Poly{1.0};
          continue;
        }
        const Poly &a = c[m - 1][i - 1], &b = c[m - 1][i];
        Poly r(std::max(a.size(), b.size() + i), 0.0);
        for (std::size_t t = 0; t < a.size(); ++t) r[t] += a[t];
        for (std::size_t t = 0; t < b.size(); ++t) r[t + i] += b[t];
        c[m][i] = r;
      }
    return c[n][k];
  };
  Poly g{1.0};
  int total = 0;
  for (int s : sizes) {
    total += s;
    const Poly q = q_binomial(total, s);
    Poly r(g.size() + q.size() - 1, 0.0);
    for (std::size_t a = 0; a < g.size(); ++a)
      for (std::size_t b = 0; b < q.size(); ++b) r[a + b] += g[a] * q[b];
    g = r;
  }
  double all = 0, tail = 0;
  for (std::size_t t = 0; t < g.size(); ++t) {
    all += g[t];
    if (static_cast<int>(t) >= j) tail += g[t];
  }
  return tail / all;
}

// The excess over the bound's shape, r = (L - L*) / b(n), must not grow with n: b(n) with a fixed C covers every n
// only if r stays bounded, and the one thing a finite grid can show against that is r increasing with n. Judged
// by the one-sided Jonckheere-Terpstra test over the grid (all draws), exact under exchangeability, at kRiskLevel
// (goel.risk.excess_bound_v1.md, Calibration). C = the largest median of r on the first half of the grid is reported.
template <class Bound>
void judge_bound(Evaluation& e, const RiskStudy& r, Bound bound, const std::string& name) {
  std::vector<std::vector<double>> ratio;
  std::vector<int> sizes;
  for (std::size_t i = 0; i < r.grid.size(); ++i) {
    std::vector<double> g;
    for (double x : r.excess[i]) g.push_back(x / bound(r.grid[i]));
    ratio.push_back(g);
    sizes.push_back(static_cast<int>(g.size()));
  }
  const int J = jonckheere(ratio);
  const double p = jonckheere_upper_tail(sizes, J);
  e.conditions.push_back(make_ge<double>("P(J >= observed | (L - L*) / (" + name + ") exchangeable over n) >= " + exact_decimal(kRiskLevel) +
                                             " (Jonckheere-Terpstra, one-sided: the excess over the bound does not grow with n)",
                                         p, kRiskLevel, 0.0));
  const std::size_t half = std::max<std::size_t>(1, r.grid.size() / 2);
  double C = 0;
  for (std::size_t i = 0; i < half; ++i) C = std::max(C, median(ratio[i]));
  e.observations.emplace_back("Jonckheere-Terpstra J (pairs increasing with n)", double(J));
  e.observations.emplace_back("J's largest value", [&] {
    double m = 0;
    int before = 0;
    for (int s : sizes) {
      m += double(before) * s;
      before += s;
    }
    return m;
  }());
  e.observations.emplace_back("C (largest median of (L - L*) / b(n) for n <= " + std::to_string(r.grid[half - 1]) + ")", C);
  for (std::size_t i = half; i < r.grid.size(); ++i)
    e.observations.emplace_back("median (L - L*) / (C b(n))[n=" + std::to_string(r.grid[i]) + "]", median(ratio[i]) / C);
}

template <class T, class Bound>
Evaluation evaluate_risk(const Instance& inst, Bound bound, const std::string& name, Variant variant) {
  Evaluation e;
  {
    // Hypothesis (both precisions): the per-query attention noise, of size e^{|w|^2} / T with w = Q^T q, has a finite
    // mean iff sigma_1(Z*) = ||Q*||_2^2 < 1/2 (the 1/n coefficient) and a finite variance iff sigma_1(Z*) < 1/4; only then
    // is n (L - L*) near its limit law at n = 32..256 and the trend test at its level (goel.risk.excess_bound_v1.md, step 4).
    const GProblem<double> g = lift_goel<double>(inst);
    const double s1 = singular_values(g.task.Z)(0);
    if (!(s1 < kRiskSigmaMax))
      return Evaluation::discarded("sigma_1(Z*) = " + exact_decimal(s1) + " >= 1/4: the attention noise has infinite variance");
  }
  if constexpr (!std::is_same_v<T, double>) {
    // At 50+ digits: the first grid point's first run again, against double (the statistics are
    // precision-independent; this shows the runs are).
    const int n = n_grid(inst).front(), m = int_param(inst, "iterations", 1, 100000);
    const auto excess_of = [&](auto tag, int replicate) {
      using S = decltype(tag);
      const FiniteProblem<S> f = finite_problem<S>(inst, n, data_seed(inst, n, replicate));
      const FactorManifold<S> M = factor_manifold(f.g.task.Z, f.g.rank);
      return to_double(train(spectral_init(f.moments, std::min(f.g.k, f.g.d)), f.X, f.Y, f.moments, f.g.task, M,
                             algorithm_options(f.moments, std::min(m, 100), true))
                           .record.excess.back());
    };
    // Control: the same agreement demanded of the double run on another data draw (replicate 1), which the
    // check must tell apart (different data, different excess).
    const double hi = excess_of(T(0), 0), lo = excess_of(0.0, variant == Variant::claim ? 0 : 1);
    e.conditions.push_back(make_le<double>(variant == Variant::claim ? "first grid point, 100 steps: |excess (this precision) / excess (double) - 1| <= 1e-6"
                                                                     : "control: |excess (this precision) / excess (double, another data draw) - 1| <= 1e-6",
                                           std::fabs(hi / lo - 1), 1e-6, 0.0));
    e.observations = {{"excess (this precision)", hi}, {"excess (double)", lo}};
    return e;
  } else {
    const RiskStudy r = risk_study<double>(inst);
    if (r.diverged) return Evaluation::discarded("a training run diverged at eta / 8");
    std::vector<double> medians;
    for (std::size_t i = 0; i < r.grid.size(); ++i) {
      medians.push_back(median(r.excess[i]));
      e.observations.emplace_back("median excess L - L*[n=" + std::to_string(r.grid[i]) + "]", medians.back());
      e.observations.emplace_back("bound shape[n=" + std::to_string(r.grid[i]) + "]", bound(r.grid[i], r.mu_m));
    }
    judge_bound(e, r, [&](int n) { return bound(n, r.mu_m); }, name);
    const ExponentFit fit = exponent_fit(r.grid, r.excess, mc_seed_of(inst));
    e.observations.emplace_back("measured exponent in n", fit.slope);
    e.observations.emplace_back("exponent CI low (99%)", fit.lo);
    e.observations.emplace_back("exponent CI high (99%)", fit.hi);
    e.observations.emplace_back("R^2", fit.r2);
    e.observations.emplace_back("mu^m (run's fitted mu)", r.mu_m);
    e.observations.emplace_back("step halvings after a divergence (all runs)", double(r.halvings));
    return e;
  }
}

}  // namespace detail

// n^{-2} log^6 n + mu^m (v1) and mu^m + 1/n (later version); both controls n^{-7} alone (a rate six powers of n
// faster than the 1/n excess, no optimisation term: with one effective parameter (d = k = 1) the excess is about
// chi^2_1 times 1/n, and a smaller power is not detected at level 5e-4 with probability 0.97; goel.risk.excess_bound_v1.md, Calibration).
template <class T>
Evaluation evaluate_excess_bound_v1(const Instance& inst, Variant variant) {
  if (variant == Variant::claim)
    return detail::evaluate_risk<T>(inst, [](int n, double mu_m) { const double l = std::log(double(n)); return std::pow(l, 6) / (double(n) * n) + mu_m; },
                                    "n^-2 log^6 n + mu^m", variant);
  return detail::evaluate_risk<T>(inst, [](int n, double) { return std::pow(double(n), -7.0); }, "n^-7 (optimisation term dropped)", variant);
}

template <class T>
Evaluation evaluate_excess_bound_1_over_n(const Instance& inst, Variant variant) {
  if (variant == Variant::claim)
    return detail::evaluate_risk<T>(inst, [](int n, double mu_m) { return 1.0 / n + mu_m; }, "mu^m + 1/n", variant);
  return detail::evaluate_risk<T>(inst, [](int n, double) { return std::pow(double(n), -7.0); }, "n^-7 (optimisation term dropped)", variant);
}

template <class T>
Evaluation evaluate_baseline(const Instance& inst, Variant variant) {
  const int n = detail::int_param(inst, "n", 8, 1 << 16);
  const bool mp = !std::is_same_v<T, double>;
  const int m = mp ? kBaselineIterationsMp : kBaselineIterations;
  const detail::FiniteProblem<T> f = detail::finite_problem<T>(inst, n, detail::data_seed(inst, n, 0));
  const FactorManifold<T> S = factor_manifold(f.g.task.Z, f.g.rank);
  const ParamPair<T> spectral = spectral_init(f.moments, std::min(f.g.k, f.g.d));
  const ParamPair<T> random{f.g.A, f.g.B};  // the instance's point: a random start
  const TrainRun<T> alg = train(spectral, f.X, f.Y, f.moments, f.g.task, S, detail::algorithm_options(f.moments, m, true));
  const TrainRun<T> gd = detail::stable_baseline_run(random, f, S, detail::algorithm_options(f.moments, m, false));
  const TrainRun<T> sgd = detail::stable_baseline_run(random, f, S, detail::sgd_options(f.moments, m, n, detail::data_seed(inst, n, 1)));
  if (alg.diverged || gd.diverged || sgd.diverged) return Evaluation::discarded("a training run diverged");
  const double e_spec = to_double(alg.record.excess.front()), e_rand = to_double(gd.record.excess.front());
  const double e_alg = to_double(alg.record.excess.back()), e_gd = to_double(gd.record.excess.back()), e_sgd = to_double(sgd.record.excess.back());
  const double f_alg = to_double(alg.record.objective.back()), f_gd = to_double(gd.record.objective.back()),
               f_sgd = to_double(sgd.record.objective.back());
  Evaluation e;
  const std::string at = " after " + std::to_string(m) + " steps";
  // Ties (both runs at the same minimiser) are within 1e-9 relative: inconclusive, never a pass.
  const auto tie = [](double a, double b) { return 1e-9 * std::max(std::fabs(a), std::fabs(b)); };
  if (variant == Variant::claim) {
    e.conditions.push_back(make_le<double>("population excess: spectral start <= random start", e_spec, e_rand, tie(e_spec, e_rand)));
    e.conditions.push_back(make_le<double>("objective L_n + R: Algorithm 1 <= GD (random start)" + at, f_alg, f_gd, tie(f_alg, f_gd)));
    e.conditions.push_back(make_le<double>("objective L_n + R: Algorithm 1 <= SGD (random start)" + at, f_alg, f_sgd, tie(f_alg, f_sgd)));
  } else {
    e.conditions.push_back(make_ge<double>("population excess: spectral start >= random start", e_spec, e_rand, tie(e_spec, e_rand)));
    e.conditions.push_back(make_ge<double>("objective L_n + R: Algorithm 1 >= GD (random start)" + at, f_alg, f_gd, tie(f_alg, f_gd)));
    e.conditions.push_back(make_ge<double>("objective L_n + R: Algorithm 1 >= SGD (random start)" + at, f_alg, f_sgd, tie(f_alg, f_sgd)));
  }
  e.observations = {{"excess, spectral start", e_spec},  {"excess, random start", e_rand},   {"random / spectral start", e_rand / e_spec},
                    {"excess, Algorithm 1", e_alg},       {"excess, GD", e_gd},              {"excess, SGD", e_sgd},
                    {"excess: GD / Algorithm 1", e_gd / e_alg}, {"excess: SGD / Algorithm 1", e_sgd / e_alg},
                    {"excess: Algorithm 1 at m / at its start", e_alg / e_spec},
                    {"objective: GD - Algorithm 1", f_gd - f_alg}, {"objective: SGD - Algorithm 1", f_sgd - f_alg}};
  for (int t = 0; t <= m; t += std::max(1, m / 20)) {
    e.observations.emplace_back("Algorithm 1 excess[t=" + std::to_string(t) + "]", to_double(alg.record.excess[std::min<std::size_t>(t, alg.record.excess.size() - 1)]));
    e.observations.emplace_back("GD excess[t=" + std::to_string(t) + "]", to_double(gd.record.excess[std::min<std::size_t>(t, gd.record.excess.size() - 1)]));
    e.observations.emplace_back("SGD excess[t=" + std::to_string(t) + "]", to_double(sgd.record.excess[std::min<std::size_t>(t, sgd.record.excess.size() - 1)]));
  }
  return e;
}

}  // namespace thm
