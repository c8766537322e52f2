#pragma once

#include "numerics/fault.hpp"
#include "numerics/models/goel/algorithm1.hpp"
#include "numerics/random.hpp"

#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace thm {

template <class T>
ParamPair<T> spectral_init(const EmpiricalMoments<T>& m, int rank) {
  using std::sqrt;
  const SymmetricRoots<T> roots = symmetric_roots(m.Sigma_hat);
  const Mat<T> Zhat = m.M_hat * roots.sqrt;
  const Eigen::Index d = Zhat.cols();
  if (rank < 1 || rank > std::min<Eigen::Index>(Zhat.rows(), d)) throw std::domain_error("spectral_init: rank must be in 1..min(k, d)");
  Eigen::JacobiSVD<Mat<T>> svd(Zhat, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Factors<T> f{Mat<T>::Zero(Zhat.rows(), d), Mat<T>::Zero(d, d)};
  for (int i = 0; i < rank; ++i) {
    const T root = THM_FAULT(spectral_start_unscaled) ? T(1) : T(sqrt(svd.singularValues()(i)));
    // The bug: the pair of the smallest singular values, d - 1 - i, in place of i.
    const Eigen::Index u = THM_FAULT(spectral_start_last_vector) ? std::min<Eigen::Index>(Zhat.rows(), d) - 1 - i : i;
    f.P.col(i) = svd.matrixU().col(u) * root;
    f.Q.col(i) = svd.matrixV().col(u) * root;
  }
  return from_factors(f, roots);
}

template <class T>
TrainRun<T> train(const ParamPair<T>& init, const Mat<T>& X, const Mat<T>& Y, const EmpiricalMoments<T>& m,
                  const RegressionTask<T>& population, const FactorManifold<T>& S, const TrainOptions& o) {
  using std::sqrt;
  const SymmetricRoots<T> hat = symmetric_roots(m.Sigma_hat);
  const T lambda(o.lambda);
  TrainRun<T> run;
  ParamPair<T> theta = init;
  Rng rng(o.sgd_seed);
  const int n = static_cast<int>(X.rows());
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  // One forward pass per iteration: the loss of theta_t comes with its gradient.
  const auto record = [&](const ParamPair<T>& th, const Factors<T>& fh, const T& loss) {
    run.record.objective.push_back(loss + regularizer(fh, o.regularizer, lambda));
    run.record.excess.push_back(population_excess(th.A, th.B, population));
    if (o.record_distance) run.record.dist.push_back(project_onto_manifold(S, to_factors(th.A, th.B, population.roots)).distance);
    run.record.norm_B.push_back(th.B.norm());
  };
  for (int t = 0; t < o.iterations; ++t) {
    std::vector<int> rows;
    if (o.batch > 0 && o.batch < n) {
      // A mini-batch of distinct query rows: a partial Fisher-Yates shuffle.
      for (int i = 0; i < o.batch; ++i) std::swap(order[i], order[i + static_cast<int>(rng.uniform_int(0, n - 1 - i))]);
      rows.assign(order.begin(), order.begin() + o.batch);
    }
    T loss = 0;
    ParamPair<T> g = finite_gradient(theta.A, theta.B, X, Y, o.mask_self, rows.empty() ? nullptr : &rows, &loss);
    const Factors<T> fh = to_factors(theta.A, theta.B, hat);  // (P_hat, Q_hat): the record and R's gradient
    record(theta, fh, loss);
    if (!(run.record.objective.back() < T(1e100))) {
      run.diverged = true;
      break;
    }
    algorithm1_update(theta, std::move(g), fh, hat, population.roots.inv, o);
  }
  if (!run.diverged) record(theta, to_factors(theta.A, theta.B, hat), finite_loss(theta.A, theta.B, X, Y, o.mask_self));
  run.final = theta;
  return run;
}

}  // namespace thm
