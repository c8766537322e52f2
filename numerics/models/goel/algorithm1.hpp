// [G] Algorithm 1 (structure-aware GD) and its baselines on the finite-data objective
// (docs/spec/claims.md, "Algorithm 1"; docs/derivations/goel.finite_data.md):
//   spectral initialisation: SVD of Z_hat = M_hat Sigma_hat^{1/2} = U D V^T, P_0 = U_r D^{1/2}, Q_0 = V_r D^{1/2}
//   (balanced), mapped back with Sigma_hat: A_0 Sigma_hat B_0^T = M_hat exactly;
//   preconditioned GD on L_n + R: A -= eta G_A Sigma_hat^{-1}, B -= eta Sigma_hat^{-1} G_B Sigma_hat^{-1}
//   (GD in (P_hat, Q_hat)); optional renormalisation (A, B) -> (cA, B/c) with ||P_hat||_F = ||Q_hat||_F;
//   baselines: plain GD (no preconditioner) and SGD (mini-batches of query tokens) from any start.
// Every iterate is recorded: objective L_n + R, population excess L - L* (closed form), P-distance to
// the population manifold S, ||B||_F.
#pragma once

#include "numerics/fault.hpp"

#include "numerics/models/goel/factor_manifold.hpp"
#include "numerics/models/goel/finite_attention.hpp"

#include <cstdint>
#include <vector>

namespace thm {

struct TrainOptions {
  int iterations = 100;
  double eta = 0.1;
  double lambda = 1.0;
  Regularizer regularizer = Regularizer::balancing;  // R on (P_hat, Q_hat) = (A Sigma_hat^{1/2}, Sigma_hat^{1/2} B Sigma_hat^{1/2})
  bool precondition = true;   // Algorithm 1; false: plain GD in (A, B)
  bool renormalise = false;   // (A, B) -> (cA, B/c), ||P_hat|| = ||Q_hat||, after every step
  bool mask_self = true;     // token i does not attend to itself (our reading's default)
  int batch = 0;              // > 0: SGD on that many query rows per step (sampled with sgd_seed)
  bool record_distance = true;  // the P-distance to S at every iterate (an SVD per step)
  std::uint64_t sgd_seed = 0;
};

template <class T>
struct TrainRecord {
  std::vector<T> objective, excess, dist, norm_B;  // t = 0 .. iterations
};

template <class T>
struct TrainRun {
  ParamPair<T> final;
  TrainRecord<T> record;
  bool diverged = false;  // a non-finite or exploding objective stopped the run
};

template <class T>
ParamPair<T> spectral_init(const EmpiricalMoments<T>& moments, int rank);

// `S` is the manifold of the population problem `population` (for the recorded distances).
template <class T>
TrainRun<T> train(const ParamPair<T>& init, const Mat<T>& X, const Mat<T>& Y, const EmpiricalMoments<T>& moments,
                  const RegressionTask<T>& population, const FactorManifold<T>& S, const TrainOptions& options);

// One step of Algorithm 1 (what train does each iteration) from theta with g the objective's gradient in (A, B): the
// preconditioned step A -= eta g_A Sigma_hat^{-1}, B -= eta Sigma_hat^{-1} g_B Sigma_hat^{-1}, or the plain one. Header-only
// so that an interval certificate runs the same step (goel.precond.equivalence).
template <class T>
void algorithm1_step(ParamPair<T>& theta, const ParamPair<T>& g, const Mat<T>& hat_inv, const Mat<T>& population_inv, const T& eta,
                     bool precondition) {
  if (precondition && !THM_FAULT(preconditioner_identity)) {
    const Mat<T>& inv = THM_FAULT(preconditioner_population) ? population_inv : hat_inv;
    theta.A -= eta * g.A * inv;
    theta.B -= eta * inv * g.B * inv;
  } else {
    theta.A -= eta * g.A;
    theta.B -= eta * g.B;
  }
}

// The rest of an iteration of train (and of the prompts reading's trainer) once the loss gradient g at theta is known:
// R's gradient added (fh = (P_hat, Q_hat) of theta), the step (algorithm1_step), then with options.renormalise
// (A, B) -> (cA, B/c) with ||P_hat|| = ||Q_hat||, c^2 = ||Q_hat|| / ||P_hat|| (goel.model.md, "Why this R_si").
template <class T>
void algorithm1_update(ParamPair<T>& theta, ParamPair<T> g, const Factors<T>& fh, const SymmetricRoots<T>& hat, const Mat<T>& population_inv,
                       const TrainOptions& o) {
  using std::sqrt;
  if (o.regularizer != Regularizer::none) {
    const ParamPair<T> gr = gradient_to_params(regularizer_gradient(fh, o.regularizer, T(o.lambda)), hat);
    g.A += gr.A;
    g.B += gr.B;
  }
  algorithm1_step(theta, g, hat.inv, population_inv, T(o.eta), o.precondition);
  if (o.renormalise) {
    const Factors<T> f = to_factors(theta.A, theta.B, hat);
    const T p = THM_FAULT(renormalise_in_a_b) ? T(theta.A.norm()) : T(f.P.norm());
    const T q = THM_FAULT(renormalise_in_a_b) ? T(theta.B.norm()) : T(f.Q.norm());
    if (p > 0 && q > 0) {
      const T c = THM_FAULT(renormalise_c_squared) ? T(q / p) : T(sqrt(q / p));
      theta.A *= c;
      theta.B /= c;
    }
  }
}

#define THM_ALGORITHM1_EXTERN(T)                                                                                   \
  extern template ParamPair<T> spectral_init(const EmpiricalMoments<T>&, int);                                     \
  extern template TrainRun<T> train(const ParamPair<T>&, const Mat<T>&, const Mat<T>&, const EmpiricalMoments<T>&, \
                                    const RegressionTask<T>&, const FactorManifold<T>&, const TrainOptions&);
THM_ALGORITHM1_EXTERN(double)
THM_ALGORITHM1_EXTERN(mpfr_dynamic)
#undef THM_ALGORITHM1_EXTERN

}  // namespace thm
