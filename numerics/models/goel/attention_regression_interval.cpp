// The explicit instantiation of the [G] population model on intervals
// (numerics/models/goel/attention_regression_interval.hpp).
#include "numerics/models/goel/attention_regression_interval.hpp"

#include "numerics/models/goel/detail/attention_regression_impl.hpp"
#include "numerics/models/goel/detail/finite_attention_impl.hpp"

#include <stdexcept>

namespace thm {

using I = mpfi_dynamic;

RegressionTask<I> interval_regression_task(const MatD& Sigma, const IMat& M, double noise_sd) {
  if (M.cols() != Sigma.rows() || Sigma.rows() != Sigma.cols()) throw std::invalid_argument("M must have d columns (Sigma is d x d)");
  RegressionTask<I> t;
  t.Sigma = to_interval(Sigma);
  t.M = M;
  t.noise_sd = I(noise_sd);
  const IntervalRoots r = enclose_spd_roots(t.Sigma);
  t.roots.sqrt = r.sqrt;
  t.roots.inv_sqrt = r.inv_sqrt;
  t.roots.inv = r.inv;
  t.Z = t.M * t.roots.sqrt;
  return t;
}

GProblem<I> interval_goel(const Instance& inst) {
  const GProblem<double> checked = lift_goel<double>(inst);  // every check of the instance, in double
  GProblem<I> g;
  g.k = checked.k;
  g.d = checked.d;
  g.rank = checked.rank;
  g.point = checked.point;
  const IMat M = inst.matrices.count("M") ? to_interval(inst.matrix("M"))
                                          : IMat(to_interval(inst.matrix("M_left")) * to_interval(inst.matrix("M_right")).transpose());
  g.task = interval_regression_task(inst.matrix("Sigma"), M, inst.param("noise_sd"));
  g.A = to_interval(inst.matrix("A"));
  g.B = to_interval(inst.matrix("B"));
  g.lambda = I(inst.param("lambda"));
  return g;
}

template <>
I regularizer(const Factors<I>& f, Regularizer kind, const I& lambda) {
  if (kind != Regularizer::scale_invariant) {
    const IMat PtP = f.P.transpose() * f.P, QtQ = f.Q.transpose() * f.Q;
    return kind == Regularizer::none ? I(0) : I(lambda / I(8) * squared_frobenius(IMat(PtP - QtQ)));
  }
  const I a = squared_frobenius(f.P), b = squared_frobenius(f.Q);
  if (!(lower(a) > 0) || !(lower(b) > 0)) throw std::runtime_error("the scale-invariant regulariser needs |P|, |Q| > 0 certified");
  const I s = sqrt(I(b / a));
  const IMat PtP = f.P.transpose() * f.P, QtQ = f.Q.transpose() * f.Q;
  return lambda / I(8) * squared_frobenius(IMat(s * PtP - QtQ / s));
}

template <>
Factors<I> regularizer_gradient(const Factors<I>& f, Regularizer kind, const I& lambda) {
  const IMat PtP = f.P.transpose() * f.P, QtQ = f.Q.transpose() * f.Q;
  switch (kind) {
    case Regularizer::none: return {IMat::Zero(f.P.rows(), f.P.cols()), IMat::Zero(f.Q.rows(), f.Q.cols())};
    case Regularizer::balancing: {  // lambda/2 P N and -lambda/2 Q N, N = P^T P - Q^T Q (the generic body, no fault points)
      const IMat N = PtP - QtQ;
      const I w = lambda / I(2);
      return {w * f.P * N, -w * f.Q * N};
    }
    case Regularizer::scale_invariant: {
      const I a = squared_frobenius(f.P), b = squared_frobenius(f.Q);
      if (!(lower(a) > 0) || !(lower(b) > 0)) throw std::runtime_error("the scale-invariant regulariser needs |P|, |Q| > 0 certified");
      const I pp = PtP.squaredNorm(), qq = QtQ.squaredNorm(), c = lambda / I(8);
      return {c * (I(4) * (b / a) * f.P * PtP - I(2) * (b / (a * a)) * pp * f.P - I(4) * f.P * QtQ + I(2) * (qq / b) * f.P),
              c * (I(4) * (a / b) * f.Q * QtQ - I(2) * (a / (b * b)) * qq * f.Q - I(4) * f.Q * PtP + I(2) * (pp / a) * f.Q)};
    }
  }
  throw std::invalid_argument("unknown regulariser");
}

template Factors<I> factor_gradient(const Factors<I>&, const IMat&, Regularizer, const I&);
template I inner(const Factors<I>&, const Factors<I>&);
template Factors<I> operator-(const Factors<I>&, const Factors<I>&);
template I population_excess(const IMat&, const IMat&, const RegressionTask<I>&);
template Factors<I> to_factors(const IMat&, const IMat&, const SymmetricRoots<I>&);
template ParamPair<I> from_factors(const Factors<I>&, const SymmetricRoots<I>&);
template ParamPair<I> gradient_to_params(const Factors<I>&, const SymmetricRoots<I>&);
template FiniteForward<I> finite_forward(const IMat&, const IMat&, const IMat&, const IMat&, bool);
template I finite_loss(const IMat&, const IMat&, const IMat&, const IMat&, bool);
template ParamPair<I> finite_gradient(const IMat&, const IMat&, const IMat&, const IMat&, bool, const std::vector<int>*, I*);
template I factor_objective(const Factors<I>&, const IMat&, Regularizer, const I&);

}  // namespace thm
