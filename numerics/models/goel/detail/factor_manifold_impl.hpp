#pragma once

#include "numerics/checked_svd.hpp"
#include "numerics/fault.hpp"
#include "numerics/models/goel/factor_manifold.hpp"

#include <Eigen/LU>
#include <Eigen/SVD>
#include <stdexcept>

namespace thm {

template <class T>
FactorManifold<T> factor_manifold(const Mat<T>& Z, int rank) {
  using std::sqrt;
  const Eigen::Index d = Z.cols();
  if (rank < 1 || rank > std::min<Eigen::Index>(Z.rows(), d)) throw std::domain_error("rank must be in 1..min(k, d)");
  const auto svd = checked_jacobi_svd<T>(Z, Eigen::ComputeFullU | Eigen::ComputeFullV, "factor_manifold");
  FactorManifold<T> S;
  S.sigma = svd.singularValues();
  S.rank = rank;
  S.star.P = Mat<T>::Zero(Z.rows(), d);
  S.star.Q = Mat<T>::Zero(d, d);
  for (int i = 0; i < rank; ++i) {
    const T root = sqrt(S.sigma(i));
    S.star.P.col(i) = svd.matrixU().col(i) * root;
    const bool square = Z.rows() == d;
    S.star.Q.col(i) = (THM_FAULT(spectral_start_u_for_v) && square ? svd.matrixU().col(i) : svd.matrixV().col(i)) * root;
  }
  return S;
}

template <class T>
Mat<T> polar_factor(const Mat<T>& K) {
  const auto svd = checked_jacobi_svd<T>(K, Eigen::ComputeFullU | Eigen::ComputeFullV, "polar_factor");
  if (THM_FAULT(procrustes_transposed)) return svd.matrixV() * svd.matrixU().transpose();
  return svd.matrixU() * svd.matrixV().transpose();
}

template <class T>
Factors<T> manifold_point(const FactorManifold<T>& S, const Mat<T>& O) {
  return {S.star.P * O, S.star.Q * O};
}

template <class T>
Projection<T> project_onto_manifold(const FactorManifold<T>& S, const Factors<T>& theta, ProcrustesTarget target) {
  using std::sqrt;
  // min_O ||P - P* O||^2 + ||Q - Q* O||^2 = const - 2 tr(O^T K): O = polar(K).
  Mat<T> K = S.star.P.transpose() * theta.P;
  if (target == ProcrustesTarget::both_factors) K += S.star.Q.transpose() * theta.Q;
  Projection<T> p;
  p.O = polar_factor(K);
  p.point = manifold_point(S, p.O);
  p.distance = sqrt(squared_norm(theta - p.point));
  return p;
}

template <class T>
Mat<T> cayley_rotation(const Mat<T>& K) {
  const Mat<T> I = Mat<T>::Identity(K.rows(), K.cols());
  return (I - K / T(2)).partialPivLu().solve(I + K / T(2));
}

}  // namespace thm
