// The Hessian of an objective of the factors (P, Q) from its exact gradient, and the step cap it gives
// (goel.finite_data.md, "Step size"); shared by both finite-data readings (algorithm1_studies.hpp, prompt_attention.hpp).
#pragma once

#include "numerics/fault.hpp"
#include "numerics/models/goel/attention_regression.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>

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
inline double hessian_step_cap(const MatD& H, double eta) {
  if (THM_FAULT(hessian_cap_skipped)) return eta;
  const double top = Eigen::SelfAdjointEigenSolver<MatD>(H, Eigen::EigenvaluesOnly).eigenvalues().maxCoeff();
  return top > 0 ? std::min(eta, std::ldexp(1.0, static_cast<int>(std::floor(std::log2(1.0 / top))))) : eta;
}

}  // namespace thm
