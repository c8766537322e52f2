#pragma once

#include "numerics/fault.hpp"
#include "numerics/models/goel/attention_regression.hpp"

#include <stdexcept>

namespace thm {

template <class T>
RegressionTask<T> make_regression_task(const Mat<T>& Sigma, const Mat<T>& M, const T& noise_sd) {
  if (M.cols() != Sigma.rows()) throw std::domain_error("M must have d columns (Sigma is d x d)");
  if (!(noise_sd >= 0)) throw std::domain_error("the noise level s must be >= 0");
  RegressionTask<T> t;
  t.Sigma = Sigma;
  t.M = M;
  t.noise_sd = noise_sd;
  t.roots = symmetric_roots(Sigma);
  t.Z = M * t.roots.sqrt;
  return t;
}

template <class T>
T bayes_risk(const RegressionTask<T>& task) {
  return T(task.M.rows()) * task.noise_sd * task.noise_sd / T(2);
}

template <class T>
T population_excess(const Mat<T>& A, const Mat<T>& B, const RegressionTask<T>& task) {
  if (THM_FAULT(population_excess_unweighted)) return (A * task.Sigma * B.transpose() - task.M).squaredNorm() / T(2);
  const Mat<T> E = (A * task.Sigma * B.transpose() - task.M) * task.roots.sqrt;
  return E.squaredNorm() / T(2);
}

template <class T>
ParamPair<T> population_excess_gradient(const Mat<T>& A, const Mat<T>& B, const RegressionTask<T>& task) {
  const Mat<T> R = A * task.Sigma * B.transpose() - task.M;  // k x d
  return {R * task.Sigma * B * task.Sigma, task.Sigma * R.transpose() * A * task.Sigma};
}

template <class T>
Factors<T> to_factors(const Mat<T>& A, const Mat<T>& B, const SymmetricRoots<T>& roots) {
  return {A * roots.sqrt, roots.sqrt * B * roots.sqrt};
}

template <class T>
ParamPair<T> from_factors(const Factors<T>& f, const SymmetricRoots<T>& roots) {
  return {f.P * roots.inv_sqrt, roots.inv_sqrt * f.Q * roots.inv_sqrt};
}

template <class T>
ParamPair<T> gradient_to_params(const Factors<T>& g, const SymmetricRoots<T>& roots) {
  return {g.P * roots.sqrt, roots.sqrt * g.Q * roots.sqrt};
}

template <class T>
T inner(const Factors<T>& x, const Factors<T>& y) {
  return x.P.cwiseProduct(y.P).sum() + x.Q.cwiseProduct(y.Q).sum();
}

template <class T>
T squared_norm(const Factors<T>& x) {
  return x.P.squaredNorm() + x.Q.squaredNorm();
}

template <class T>
Factors<T> operator-(const Factors<T>& x, const Factors<T>& y) {
  return {x.P - y.P, x.Q - y.Q};
}

template <class T>
T regularizer(const Factors<T>& f, Regularizer kind, const T& lambda) {
  const Mat<T> PtP = f.P.transpose() * f.P, QtQ = f.Q.transpose() * f.Q;
  switch (kind) {
    case Regularizer::none: return T(0);
    case Regularizer::balancing: return lambda / T(8) * (PtP - QtQ).squaredNorm();
    case Regularizer::scale_invariant: {
      const T a = f.P.squaredNorm(), b = f.Q.squaredNorm();
      if (!(a > 0) || !(b > 0)) throw std::domain_error("the scale-invariant regulariser needs P != 0 and Q != 0");
      using std::sqrt;
      const T s = sqrt(b / a);
      return lambda / T(8) * (s * PtP - QtQ / s).squaredNorm();
    }
  }
  throw std::invalid_argument("unknown regulariser");
}

template <class T>
Factors<T> regularizer_gradient(const Factors<T>& f, Regularizer kind, const T& lambda) {
  const Mat<T> PtP = f.P.transpose() * f.P, QtQ = f.Q.transpose() * f.Q;
  switch (kind) {
    case Regularizer::none: return {Mat<T>::Zero(f.P.rows(), f.P.cols()), Mat<T>::Zero(f.Q.rows(), f.Q.cols())};
    case Regularizer::balancing: {
      const Mat<T> N = PtP - QtQ;
      // d/dP lambda/8 ||P^T P - Q^T Q||^2 = lambda/2 P N (and -lambda/2 Q N for Q).
      T w = lambda / T(2);
      if (THM_FAULT(regulariser_weight_quarter)) w = lambda;       // from lambda/4 in place of lambda/8
      if (THM_FAULT(regulariser_gradient_sign)) w = -w;
      return {w * f.P * N, -w * f.Q * N};
    }
    case Regularizer::scale_invariant: {
      // R = lambda/8 [ (b/a) |P^T P|^2 - 2 <P^T P, Q^T Q> + (a/b) |Q^T Q|^2 ], a = |P|^2, b = |Q|^2.
      const T a = f.P.squaredNorm(), b = f.Q.squaredNorm();
      if (!(a > 0) || !(b > 0)) throw std::domain_error("the scale-invariant regulariser needs P != 0 and Q != 0");
      const T pp = PtP.squaredNorm(), qq = QtQ.squaredNorm();
      const T c = lambda / T(8);
      Factors<T> g;
      g.P = c * (T(4) * (b / a) * f.P * PtP - T(2) * (b / (a * a)) * pp * f.P - T(4) * f.P * QtQ + T(2) * (qq / b) * f.P);
      g.Q = c * (T(4) * (a / b) * f.Q * QtQ - T(2) * (a / (b * b)) * qq * f.Q - T(4) * f.Q * PtP + T(2) * (pp / a) * f.Q);
      return g;
    }
  }
  throw std::invalid_argument("unknown regulariser");
}

template <class T>
T factor_objective(const Factors<T>& f, const Mat<T>& Z, Regularizer kind, const T& lambda) {
  return (f.P * f.Q.transpose() - Z).squaredNorm() / T(2) + regularizer(f, kind, lambda);
}

template <class T>
Factors<T> factor_gradient(const Factors<T>& f, const Mat<T>& Z, Regularizer kind, const T& lambda) {
  const Mat<T> E = f.P * f.Q.transpose() - Z;
  Factors<T> g = regularizer_gradient(f, kind, lambda);
  g.P += E * f.Q;
  if (THM_FAULT(factor_gradient_q_transposed)) g.Q += f.P.transpose() * E;  // d x d as well: the transpose
  else g.Q += E.transpose() * f.P;
  return g;
}

template <class T>
Vec<T> attention_average(const Vec<T>& w, const Mat<T>& X) {
  using std::exp;
  const Vec<T> logits = X * w;
  const T top = logits.maxCoeff();
  Vec<T> p(logits.size());
  for (Eigen::Index j = 0; j < logits.size(); ++j) p(j) = exp(logits(j) - top);
  return X.transpose() * p / p.sum();
}

}  // namespace thm
