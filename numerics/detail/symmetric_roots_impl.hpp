#pragma once

#include "numerics/symmetric_roots.hpp"

#include <Eigen/Eigenvalues>
#include <stdexcept>

namespace thm {

template <class T>
SymmetricRoots<T> symmetric_roots(const Mat<T>& sigma) {
  using std::sqrt;
  if (sigma.rows() != sigma.cols() || sigma.rows() == 0) throw std::domain_error("Sigma must be square and non-empty");
  if (sigma != sigma.transpose()) throw std::domain_error("Sigma must be symmetric");
  Eigen::SelfAdjointEigenSolver<Mat<T>> eig(sigma);
  if (eig.info() != Eigen::Success) throw std::domain_error("eigen-decomposition of Sigma did not converge");
  SymmetricRoots<T> r;
  r.eigenvalues = eig.eigenvalues();
  if (!(r.eigenvalues(0) > 0)) throw std::domain_error("Sigma must be positive definite");
  r.eigenvectors = eig.eigenvectors();
  const Mat<T>& V = r.eigenvectors;
  const Vec<T> root = r.eigenvalues.array().sqrt();
  r.sqrt = V * root.asDiagonal() * V.transpose();
  r.inv_sqrt = V * root.cwiseInverse().asDiagonal() * V.transpose();
  r.inv = V * r.eigenvalues.cwiseInverse().asDiagonal() * V.transpose();
  // Exactly symmetric, so that transposes in the model are the same matrices.
  r.sqrt = ((r.sqrt + r.sqrt.transpose()) / T(2)).eval();
  r.inv_sqrt = ((r.inv_sqrt + r.inv_sqrt.transpose()) / T(2)).eval();
  r.inv = ((r.inv + r.inv.transpose()) / T(2)).eval();
  return r;
}

}  // namespace thm
