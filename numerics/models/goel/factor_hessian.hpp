// The Hessian of an objective of the factors (P, Q) from its exact gradient, the step cap it gives and the run that keeps
// the cap where it ends (goel.finite_data.md, "Step size"); shared by every finite-data reading (algorithm1_studies.hpp, prompt_attention.hpp).
#pragma once

#include "numerics/fault.hpp"
#include "numerics/models/goel/attention_regression.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <vector>

namespace thm {

// Central differences of `gradient` (Factors<T> -> Factors<T>) at p0 with step sqrt(eps) max(1, ||p0||) (error about
// sqrt(eps) relative), symmetrised, in double. Coordinates: P then Q, column-major.
template <class T, class Gradient>
MatD factor_hessian(const Factors<T>& p0, const Gradient& gradient) {
  using std::sqrt;
  const Eigen::Index np = p0.P.size(), dim = np + p0.Q.size();
  const T h = sqrt(epsilon<T>()) * std::max<T>(T(1), T(sqrt(squared_norm(p0))));
  MatD H(dim, dim);
  for (Eigen::Index j = 0; j < dim; ++j) {
    Factors<T> plus = p0, minus = p0;
    (j < np ? plus.P.data()[j] : plus.Q.data()[j - np]) += h;
    (j < np ? minus.P.data()[j] : minus.Q.data()[j - np]) -= h;
    const Factors<T> gp = gradient(plus), gm = gradient(minus);
    for (Eigen::Index i = 0; i < dim; ++i) {
      const T di = i < np ? T(gp.P.data()[i] - gm.P.data()[i]) : T(gp.Q.data()[i - np] - gm.Q.data()[i - np]);
      H(i, j) = to_double(T(di / (T(2) * h)));
    }
  }
  return (H + H.transpose()) / 2;
}

// eta capped by GD's own hypothesis eta <= 1 / lambda_max(H), the cap rounded down to a power of two so that every
// precision takes the same step.
inline double hessian_top(const MatD& H) { return Eigen::SelfAdjointEigenSolver<MatD>(H, Eigen::EigenvaluesOnly).eigenvalues().maxCoeff(); }
// The same from lambda_max(H) = top.
inline double step_cap_of_top(double top, double eta) {
  if (THM_FAULT(hessian_cap_skipped)) return eta;
  return top > 0 ? std::min(eta, std::ldexp(1.0, static_cast<int>(std::floor(std::log2(1.0 / top))))) : eta;
}
inline double hessian_step_cap(const MatD& H, double eta) { return step_cap_of_top(hessian_top(H), eta); }

// Whether an objective sequence rose at some step by more than its rounding floor, 100 eps |f_t| at the working
// precision: GD within its hypothesis descends (the descent lemma); a run beyond it climbs or cycles.
template <class T>
bool objective_rose(const std::vector<T>& f) {
  using std::abs;
  for (std::size_t t = 0; t + 1 < f.size(); ++t)
    if (f[t + 1] - f[t] > T(100) * epsilon<T>() * abs(f[t])) return true;
  return false;
}

// At most this many repeats of a run at a smaller step (settled_run): the step falls at least 2^kStepSettles-fold.
inline constexpr int kStepSettles = 4;

// GD's hypothesis eta <= 1 / lambda_max(H) where the run goes, not only where it starts (goel.finite_data.md, "Step
// size"): `run_at(o)` trains from the start with the options `o` (anything with a step `eta`), already capped there. A
// run that did not descend (objective_rose) and whose end point theta_m breaks the hypothesis
// (eta lambda_max(hessian_at(theta_m)) > 1) is repeated from the start at the cap there, a power of two as at the start,
// until one descends or keeps the hypothesis. A run that diverged is returned as it is (the claims judge it). `o.eta` is
// left at the step taken.
template <class Options, class RunAt, class HessianAt>
auto settled_run(Options& o, const RunAt& run_at, const HessianAt& hessian_at) {
  auto run = run_at(o);
  for (int k = 0; k < kStepSettles && !run.diverged && objective_rose(run.record.objective); ++k) {
    const double top = hessian_top(hessian_at(run.final)), cap = step_cap_of_top(top, o.eta);
    if (!(o.eta * top > 1) || !(cap < o.eta)) break;
    o.eta = cap;
    run = run_at(o);
  }
  return run;
}

}  // namespace thm
