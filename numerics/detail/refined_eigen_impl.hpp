// Ogita-Aishima refinement of a symmetric eigendecomposition; derivation and bound in docs/derivations/refined_svd.md
// ("Symmetric eigendecomposition"). Instantiated per scalar type by numerics/detail/instantiate.inc (one TU for all
// types was the longest unit of the build, 73 s).
#pragma once

#include "numerics/refined_eigen.hpp"

#include "numerics/detail/scaled_double.hpp"

#include "numerics/matmul.hpp"
#include "numerics/numerical_failure.hpp"
#include "numerics/spectral.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>

namespace thm {
namespace detail {

template <class T>
RefinedEigen<T> eigen_fallback(const Mat<T>& a, bool vectors, int iterations) {
  Eigen::SelfAdjointEigenSolver<Mat<T>> eig(a, vectors ? Eigen::ComputeEigenvectors : Eigen::EigenvaluesOnly);
  if (eig.info() != Eigen::Success) throw NumericalFailure("the symmetric eigendecomposition did not converge");
  RefinedEigen<T> out;
  out.values = eig.eigenvalues();
  if (vectors) out.vectors = eig.eigenvectors();
  out.path = SvdPath::mpfr_fallback;
  out.iterations = iterations;
  ++svd_path_counts().mpfr_fallback;
  return out;
}

template <class T>
T norm2_upper_sym(const Mat<T>& x) {  // ||X||_2 <= min(||X||_F, ||X||_1) for symmetric X
  return std::min(T(x.norm()), T(x.cwiseAbs().colwise().sum().maxCoeff()));
}

}  // namespace detail

template <class T>
RefinedEigen<T> refined_symmetric_eigen(const Mat<T>& a, bool vectors, int max_iterations) {
  using std::abs;
  using std::sqrt;
  const Eigen::Index n = a.rows();
  if (a.cols() != n) throw NumericalFailure("symmetric eigendecomposition of a non-square matrix");
  if (!a.allFinite()) throw NumericalFailure("eigendecomposition of a non-finite matrix (an intermediate overflowed)");
  if (n == 0 || a.isZero(0)) {
    RefinedEigen<T> out;
    out.values = Vec<T>::Zero(n);
    if (vectors) out.vectors = Mat<T>::Identity(n, n);
    ++svd_path_counts().refined;
    return out;
  }
  const T eps = epsilon<T>(), inf = std::numeric_limits<T>::infinity();
  int e = 0;
  const MatD ad = detail::scaled_to_double(a, e);
  Eigen::SelfAdjointEigenSolver<MatD> eig0(ad);
  if (eig0.info() != Eigen::Success || !eig0.eigenvectors().allFinite()) return detail::eigen_fallback<T>(a, vectors, 0);
  Mat<T> X = eig0.eigenvectors().template cast<T>();
  const int steps = max_iterations >= 0
                        ? max_iterations
                        : int(std::ceil(std::log2(std::max(1.0, double(decimal_digits<T>()) / 15.0)))) + 4;
  const auto off_norm = [](const auto& v, Eigen::Index skip) {
    T s2 = T(0);
    for (Eigen::Index k = 0; k < v.size(); ++k)
      if (k != skip) s2 += v(k) * v(k);
    return T(sqrt(s2));
  };
  T previous_bound = inf, previous_step = T(0);
  Mat<T> E(n, n);
  for (int k = 0;; ++k) {
    // R = I - X^T X, S = X^T A X; lambda_i = s_ii / (1 - r_ii).
    Mat<T> R = -product(X, X, Trans::transpose, Trans::none);
    R.diagonal().array() += T(1);
    const Mat<T> S = product(X, product(a, X), Trans::transpose, Trans::none);
    Vec<T> lambda(n), s_off(n), r_off(n);
    T off2 = T(0);
    for (Eigen::Index i = 0; i < n; ++i) {
      lambda(i) = S(i, i) / (T(1) - R(i, i));
      s_off(i) = off_norm(S.col(i), i);
      r_off(i) = off_norm(R.col(i), i);
      off2 += s_off(i) * s_off(i);
    }
    const T rho = detail::norm2_upper_sym(R), tau = detail::norm2_upper_sym(S), norm_a = lambda.cwiseAbs().maxCoeff();
    // Q^T A Q = H^{-1} S H^{-1} = S + (R S + S R)/2 + E with H = (I - R)^{1/2}.
    T bound = inf, omega = inf;
    if (rho < T(0.5)) {
      const T du = T(3) / T(8) * rho * rho / ((T(1) - rho) * (T(1) - rho) * sqrt(T(1) - rho));
      const T e_norm = tau * (rho * rho / T(4) + T(2) * du * (T(1) + rho / T(2)) + du * du);
      const T c = rho * tau + e_norm;
      omega = sqrt(off2) + T(2) * c;
      Vec<T> eta = Vec<T>::Constant(n, inf);
      for (Eigen::Index i = 0; i < n; ++i) {
        const T r = abs(R(i, i));
        if (r < T(0.5)) eta(i) = abs(S(i, i)) * r * r / (T(1) - r) + r_off(i) * s_off(i) + e_norm;
      }
      bound = T(0);
      for (Eigen::Index i = 0; i < n; ++i) {
        T gap = inf;
        for (Eigen::Index j = 0; j < n; ++j)
          if (j != i) gap = std::min(gap, T(abs(T(lambda(i) - lambda(j))) - eta(i) - eta(j)));
        T beta = omega;
        if (gap > T(2) * omega) {
          const T res = s_off(i) + c;
          beta = std::min(omega, T(res * res / (gap - omega)));
        }
        bound = std::max(bound, T(eta(i) + beta));
      }
    }
    const T rounding = T(n + 2) * eps * norm_a;
    const T allowance = singular_value_error_bound<T>(n, n, norm_a);
    const bool values_ok = bound + rounding <= allowance;
    bool accept = values_ok && !vectors;
    int applied = k;
    if (!accept) {
      if (!values_ok && k >= 2 && !(bound < previous_bound / T(4))) return detail::eigen_fallback<T>(a, vectors, k);
      if (k >= steps && !(vectors && values_ok)) return detail::eigen_fallback<T>(a, vectors, k);
      // e_ij = (s_ij + lambda_j r_ij) / (lambda_j - lambda_i), clustered pairs r_ij / 2.
      const T cluster = rho < T(0.5) ? T(T(2) * omega) : inf;
      bool clusters_diagonal = true;
      for (Eigen::Index j = 0; j < n; ++j)
        for (Eigen::Index i = 0; i < n; ++i) {
          const T gap = lambda(j) - lambda(i);
          if (i != j && abs(gap) > cluster) {
            // S symmetrised, so that e_ij + e_ji = r_ij exactly (X^T (A X) is symmetric only to rounding, and
            // (s_ij - s_ji) / gap would spoil the orthogonality of X for a small gap).
            E(i, j) = ((S(i, j) + S(j, i)) / T(2) + lambda(j) * R(i, j)) / gap;
          } else {
            E(i, j) = R(i, j) / T(2);
            if (i != j && abs(S(i, j)) > allowance) clusters_diagonal = false;
          }
        }
      const T step = E.norm();
      if (values_ok && vectors && k >= 1) {
        const T c = std::max(T(1), T(step / (previous_step * previous_step)));
        accept = clusters_diagonal && c * step * step <= allowance / norm_a;
      }
      if (!accept && k >= steps) return detail::eigen_fallback<T>(a, vectors, k);
      X += product(X, E);
      applied = k + 1;
      previous_step = step;
    }
    previous_bound = bound;
    if (!accept) continue;
    std::vector<Eigen::Index> order(n);
    for (Eigen::Index i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](Eigen::Index p, Eigen::Index q) { return lambda(p) < lambda(q); });
    RefinedEigen<T> out;
    out.values.resize(n);
    if (vectors) out.vectors.resize(n, n);
    for (Eigen::Index i = 0; i < n; ++i) {
      out.values(i) = lambda(order[i]);
      if (vectors) out.vectors.col(i) = X.col(order[i]);
    }
    out.iterations = applied;
    out.error_bound = bound + rounding;
    ++svd_path_counts().refined;
    return out;
  }
}

}  // namespace thm
