// Algorithm 1 on any finite-data objective given by its loss gradient in (A, B): the loop the readings without the first
// reading's trainer share (n prompts, prompt_attention.hpp; the attention limit, limit_attention.hpp), and the Hessian of
// the objective in hat coordinates that caps its step (goel.finite_data.md, "Step size").
//   `gradient(A, B, &loss)` returns (G_A, G_B) of the loss at (A, B) and writes the loss.
#pragma once

#include "numerics/fault.hpp"
#include "numerics/models/goel/algorithm1.hpp"
#include "numerics/models/goel/factor_hessian.hpp"

#include <utility>

namespace thm {

// Algorithm 1 on loss + R(P_hat, Q_hat), hat coordinates from `moments` (the queries'): objective, population excess and
// ||B|| recorded at t = 0 .. iterations (the distance and mini-batches are not supported here). A non-finite or >= 1e100
// objective stops the run (diverged).
template <class T, class Gradient>
TrainRun<T> train_algorithm1(const ParamPair<T>& init, const Gradient& gradient, const EmpiricalMoments<T>& moments,
                             const RegressionTask<T>& population, const TrainOptions& o) {
  const SymmetricRoots<T> hat = symmetric_roots(moments.Sigma_hat);
  const T lambda(o.lambda);
  TrainRun<T> run;
  ParamPair<T> theta = init;
  const auto record = [&](const ParamPair<T>& th, const Factors<T>& fh, const T& loss) {
    run.record.objective.push_back(THM_FAULT(regulariser_value_unrecorded) ? loss : T(loss + regularizer(fh, o.regularizer, lambda)));
    run.record.excess.push_back(population_excess(th.A, th.B, population));
    run.record.norm_B.push_back(th.B.norm());
  };
  for (int t = 0; t < o.iterations; ++t) {
    T loss = 0;
    ParamPair<T> g = gradient(theta.A, theta.B, &loss);
    const Factors<T> fh = to_factors(theta.A, theta.B, hat);
    record(theta, fh, loss);
    if (!(run.record.objective.back() < T(1e100))) {
      run.diverged = true;
      break;
    }
    algorithm1_update(theta, std::move(g), fh, hat, population.roots.inv, o);
  }
  if (!run.diverged) {
    T loss = 0;
    gradient(theta.A, theta.B, &loss);
    record(theta, to_factors(theta.A, theta.B, hat), loss);
  }
  run.final = theta;
  return run;
}

// The Hessian of F~(P, Q) = loss(P Sigma_hat^{-1/2}, Sigma_hat^{-1/2} Q Sigma_hat^{-1/2}) + R(P, Q) (the objective Algorithm 1
// runs plain GD on in hat coordinates) at `at` (factor_hessian: central differences of the exact gradient, in double).
template <class T, class Gradient>
MatD algorithm1_hat_hessian(const Gradient& gradient, const EmpiricalMoments<T>& moments, const ParamPair<T>& at, const TrainOptions& o) {
  const SymmetricRoots<T> hat = symmetric_roots(moments.Sigma_hat);
  const T lambda(o.lambda);
  return factor_hessian(to_factors(at.A, at.B, hat), [&](const Factors<T>& p) {
    const ParamPair<T> th = from_factors(p, hat);
    const ParamPair<T> g = gradient(th.A, th.B, static_cast<T*>(nullptr));
    // dL/dP = G_A Sigma_hat^{-1/2}, dL/dQ = Sigma_hat^{-1/2} G_B Sigma_hat^{-1/2} (the chain rule of goel.model.md, inverted).
    const Factors<T> gr = regularizer_gradient(p, o.regularizer, lambda);
    return Factors<T>{Mat<T>(g.A * hat.inv_sqrt + gr.P), Mat<T>(hat.inv_sqrt * g.B * hat.inv_sqrt + gr.Q)};
  });
}

}  // namespace thm
