// Eigen aliases per scalar type. Include this (not Eigen directly) wherever MP scalars meet Eigen:
// boost/multiprecision/eigen.hpp supplies NumTraits for the MP types, numerics/eigen_mpfr_gemm.hpp their products.
#pragma once

#include "numerics/scalar.hpp"

#include <Eigen/Dense>
#include <boost/multiprecision/eigen.hpp>
#include "numerics/eigen_mpfr_gemm.hpp"  // A * B at multiprecision: the Ozaki scheme

namespace thm {

template <class T>
using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
template <class T>
using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;

using MatD = Mat<double>;
using VecD = Vec<double>;

// Instances are held in double; every double is exactly representable at every rung, so this
// lift is exact and the same instance is evaluated at every precision.
template <class T>
Mat<T> lift(const MatD& m) {
  return m.template cast<T>();
}

}  // namespace thm

// The decompositions several translation units use are compiled once, in the explicit instantiations of
// numerics/detail/instantiate.inc: without these declarations every unit that calls one instantiates it again
// (JacobiSVD and BDCSVD in double cost 5 to 15 s of compile per unit, and were built in up to six).
extern template class Eigen::JacobiSVD<thm::MatD>;
extern template class Eigen::JacobiSVD<thm::Mat<thm::mpfr_dynamic>>;
extern template class Eigen::BDCSVD<thm::MatD>;
extern template class Eigen::SelfAdjointEigenSolver<thm::MatD>;
extern template Eigen::SelfAdjointEigenSolver<thm::MatD>& Eigen::SelfAdjointEigenSolver<thm::MatD>::compute(
    const Eigen::EigenBase<thm::MatD>&, int);
