// The studies of [G]'s Algorithm 1 on the finite-data objective, shared by the claims on it (theorems/goel/) and the
// [G] experiments (experiments/): the data of an instance, Algorithm 1 with its documented step sizes and the
// baselines' (plain GD, SGD), the fitted rate of an objective gap, and the kappa(Sigma) variants of a rate instance.
// The twin of [Q]'s numerics/models/qin/sweeps.hpp. The reading of the finite-data setting is
// docs/derivations/goel.finite_data.md; Algorithm 1 here: spectral start, then preconditioned GD on
// L_n + lambda/8 ||P^T P - Q^T Q||^2 (lambda = 1) with eta = 1 / (2 sigma_1(Z_hat)) (half the stability limit of the
// population Hessian at S), capped by 1/lambda_max of the finite-data Hessian at the start (algorithm1_options;
// goel.finite_data.md, "Step size") and where a run that climbed ends (algorithm1_run), self-attention masked; plain GD uses eta = 1 / (2 sigma_1(Z_hat) ||Sigma_hat||_2^2),
// SGD the same scaled by its batch fraction (n/8 rows).
#pragma once

#include "numerics/fault.hpp"
#include "numerics/models/goel/algorithm1.hpp"
#include "numerics/models/goel/detail/population_instance_impl.hpp"
#include "numerics/models/goel/factor_hessian.hpp"
#include "numerics/models/goel/limit_attention.hpp"
#include "numerics/random.hpp"
#include "numerics/rate_fit.hpp"
#include "numerics/spectral.hpp"
#include "numerics/symmetric_roots.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace thm {

// Algorithm 1's regularisation weight (and the population problem's lambda of its claims).
inline constexpr double kAlgorithmLambda = 1.0;

// The data draw s of n tokens of an instance.
inline std::uint64_t data_seed(const Instance& inst, int n, int s) {
  const std::uint64_t base = mc_seed_of(inst);
  const std::uint64_t stream = THM_FAULT(data_seed_shared_across_n) ? 0 : static_cast<std::uint64_t>(n) * 1000;
  return Rng::derive(base, "goel.data", stream + static_cast<std::uint64_t>(s)).next_u64();
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
  const double half = THM_FAULT(step_full_stability_limit) ? 1.0 : 0.5;
  o.eta = precondition ? half * limit : half * limit / (sn * sn);
  return o;
}

// The Hessian of F~_n(P, Q) = L_n(P, Q; X Sigma_hat^{-1/2}, Y) + R(P, Q), the objective Algorithm 1 runs plain GD on in the
// hat coordinates (goel.precond.equivalence), at `at` mapped to them: central differences of the exact gradient with step
// sqrt(eps) max(1, ||theta||) (error about sqrt(eps) relative), symmetrised, in double. Coordinates: P then Q, column-major.
template <class T>
MatD hat_hessian(const FiniteProblem<T>& f, const ParamPair<T>& at, const TrainOptions& o) {
  const SymmetricRoots<T> hat = symmetric_roots(f.moments.Sigma_hat);
  const Mat<T> Xw = f.X * hat.inv_sqrt;
  const T lambda(o.lambda);
  return factor_hessian(to_factors(at.A, at.B, hat), [&](const Factors<T>& p) {
    const ParamPair<T> g = finite_gradient(p.P, p.Q, Xw, f.Y, o.mask_self);
    const Factors<T> gr = regularizer_gradient(p, o.regularizer, lambda);
    return Factors<T>{g.A + gr.P, g.B + gr.Q};
  });
}

// Algorithm 1 from `start`: the documented step (half the stability limit at S), capped where the run starts by GD's own
// hypothesis eta <= 1 / lambda_max(H) (H = hat_hessian at the start; goel.finite_data.md, "Step size"). With few tokens the
// finite-data curvature can exceed the population's several times, and the documented step alone then lands Algorithm 1 in
// a period-2 cycle. The cap is rounded down to a power of two, so that every precision takes the same step.
template <class T>
TrainOptions algorithm1_options(const FiniteProblem<T>& f, const ParamPair<T>& start, int iterations) {
  TrainOptions o = algorithm_options(f.moments, iterations, true);
  o.eta = hessian_step_cap(hat_hessian(f, start, o), o.eta);
  return o;
}

// Algorithm 1 (or the later algorithm: o's regulariser and renormalisation) on the first reading from `start` at o.eta,
// capped there (algorithm1_options), with the cap kept where the run ends (settled_run); `o.eta` is left at the step taken.
template <class T>
TrainRun<T> algorithm1_run(const FiniteProblem<T>& f, const ParamPair<T>& start, const FactorManifold<T>& S, TrainOptions& o) {
  return settled_run(
      o, [&](const TrainOptions& at) { return train(start, f.X, f.Y, f.moments, f.g.task, S, at); },
      [&](const ParamPair<T>& at) { return hat_hessian(f, at, o); });
}

// The later abstract's algorithm: Algorithm 1 with the scale-invariant regulariser R_si and the renormalisation
// (A, B) -> (cA, B/c), ||P_hat|| = ||Q_hat||, after every step (goel.model.md, "Why this R_si"), at the documented step
// (before any reading's cap).
template <class T>
TrainOptions later_options(const EmpiricalMoments<T>& m, int iterations) {
  TrainOptions o = algorithm_options(m, iterations, true);
  o.regularizer = Regularizer::scale_invariant;
  o.renormalise = true;
  return o;
}
// The later abstract's algorithm from `start` on the first reading: the step rule of algorithm1_options, its cap from the
// Hessian of L_n + R_si at the start.
template <class T>
TrainOptions later_algorithm_options(const FiniteProblem<T>& f, const ParamPair<T>& start, int iterations) {
  TrainOptions o = later_options(f.moments, iterations);
  o.eta = hessian_step_cap(hat_hessian(f, start, o), o.eta);
  return o;
}

// Algorithm 1 on the third reading (the attention at its T -> infinity limit, limit_attention.hpp) from `start` on the data
// draw `f`: the options `o` as given (documented step, regulariser, renormalisation), the step capped by 1/lambda_max of
// this objective's Hessian at the start as algorithm1_options caps the first reading's, and where the run ends
// (settled_run); `o.eta` is left at the step taken.
template <class T>
TrainRun<T> limit_attention_run(const FiniteProblem<T>& f, const ParamPair<T>& start, TrainOptions& o) {
  const LimitAttentionData<T> data = limit_attention_data(f.g.task.Sigma, f.X, f.Y, f.moments);
  o.eta = hessian_step_cap(limit_attention_hat_hessian(data, f.moments, start, o), o.eta);
  return settled_run(
      o, [&](const TrainOptions& at) { return train_on_limit_attention(start, data, f.moments, f.g.task, at); },
      [&](const ParamPair<T>& at) { return limit_attention_hat_hessian(data, f.moments, at, o); });
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
// The reference the gap is measured from: the run's smallest objective (a descent method, Algorithm 1, whose limit it is),
// or its last one (an iteration that is not a descent method: the later algorithm's renormalisation moves along the scale
// orbit, which L_n is not invariant under, so its fixed point can sit above the smallest objective on its path; the
// gap to f_min then never closes, and |f_t - f_last| is the distance to the limit).
enum class GapReference { minimum, last };
template <class T>
T gap_reference(const std::vector<T>& objective, GapReference ref) {
  return ref == GapReference::last ? objective.back() : *std::min_element(objective.begin(), objective.end());
}
// With `tail_decades`, the window keeps only the last tail_decades decades above 1e3 times the floor (fit_tail).
template <class T>
GapFit fit_gap(const std::vector<T>& objective, double tail_decades = std::numeric_limits<double>::infinity(),
               GapReference ref = GapReference::minimum) {
  GapFit out;
  if (objective.size() < 4) return out;
  using std::abs;
  const T fmin = gap_reference(objective, ref);
  const T floor = T(100) * epsilon<T>() * abs(fmin);
  const T lo = T(1000) * floor;
  T hi = abs(T(objective.front() - fmin)) / T(1000);
  if (std::isfinite(tail_decades)) hi = std::min<T>(hi, T(lo * T(std::pow(10.0, tail_decades))));
  std::vector<double> t, y;
  for (std::size_t i = 0; i + 1 < objective.size(); ++i) {
    const T gap = abs(T(objective[i] - fmin));
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

// Whether a run's whole objective gap is within fit_gap's window floor from the start (g_0 / 1e3 below 1e3 times the
// rounding floor 100 eps |f_min|): nothing to fit, the run began at its minimum's rounding level.
template <class T>
bool starts_at_floor(const std::vector<T>& objective, GapReference ref = GapReference::minimum) {
  using std::abs;
  if (objective.empty()) return false;
  const T fmin = gap_reference(objective, ref);
  return abs(T(objective.front() - fmin)) <= T(1e6) * T(100) * epsilon<T>() * abs(fmin);
}

// Whether a run had reached its minimum's rounding level by step t: |f_t - f_ref| below fit_gap's window floor (1e3 times
// the rounding floor 100 eps |f_ref|). A run contracting faster than the window can resolve (fewer than three iterates in
// its 2.7 decades) has converged, though fit_gap finds nothing to fit; a run that has not reached its floor by t = m/2 is
// still moving, whatever its per-step decrease.
template <class T>
bool settled_by(const std::vector<T>& objective, std::size_t t, GapReference ref = GapReference::minimum) {
  using std::abs;
  if (t >= objective.size()) return false;
  const T fref = gap_reference(objective, ref);
  return abs(T(objective[t] - fref)) <= T(1000) * T(100) * epsilon<T>() * abs(fref);
}

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
  TrainOptions algorithm1;  // algorithm1_options from `start` (its step needs a Hessian: computed once); set iterations per run
};
template <class T>
RateProblem<T> rate_problem(const Instance& v, int tokens) {
  FiniteProblem<T> f = finite_problem<T>(v, tokens, data_seed(v, tokens, 0));
  FactorManifold<T> S = factor_manifold(f.g.task.Z, f.g.rank);
  ParamPair<T> start = spectral_init(f.moments, std::min(f.g.k, f.g.d));
  TrainOptions o = algorithm1_options(f, start, 0);
  return {std::move(f), std::move(S), std::move(start), std::move(o)};
}

template <class T>
TrainRun<T> rate_run(const RateProblem<T>& r, int iterations, bool precondition) {
  TrainOptions o = precondition ? r.algorithm1 : algorithm_options(r.f.moments, iterations, false);
  o.iterations = iterations;
  return train(r.start, r.f.X, r.f.Y, r.f.moments, r.f.g.task, r.S, o);
}
template <class T>
TrainRun<T> rate_run(const Instance& v, int tokens, int iterations, bool precondition) {
  return rate_run(rate_problem<T>(v, tokens), iterations, precondition);
}

// The first t with F(theta_t) - f_star <= (F(theta_0) - f_star) / reduction; -1 if none.
inline int iterations_to_reduce(const std::vector<double>& objective, double f_star, double reduction) {
  const double target = (objective.front() - f_star) / reduction;
  for (std::size_t t = 0; t < objective.size(); ++t)
    if (objective[t] - f_star <= target) return static_cast<int>(t);
  return -1;
}

}  // namespace thm
