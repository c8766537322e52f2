// The generic kernels on intervals: what makes a model written once for every scalar (numerics/activation.hpp,
// numerics/softmax.hpp) evaluate rigorously on mpfi_dynamic. Their generic bodies compare (softmax's row maximum, the
// activations' branches), and comparing overlapping intervals aborts the process (numerics/interval.hpp); these
// explicit specialisations branch on midpoints only where both branches are the same real function, and enclose
// the rest (ReLU at a box containing 0). A translation unit that instantiates a model on mpfi_dynamic includes this
// header before the model's implementation.
#pragma once

#include "numerics/activation.hpp"
#include "numerics/interval.hpp"
#include "numerics/matmul.hpp"
#include "numerics/softmax.hpp"

namespace thm {

// op(a) op(b) on intervals: each entry accumulated in two reused MPFI variables (mpfi_mul, mpfi_add), in place of
// Eigen's generic kernel, which builds Boost temporaries per multiply-add (about 3x slower here; bench/README.md).
template <>
Mat<mpfi_dynamic> product(const Mat<mpfi_dynamic>& a, const Mat<mpfi_dynamic>& b, Trans ta, Trans tb);

// softmax_rows on intervals is interval_softmax_rows (every row of every real K in the box).
template <>
Mat<mpfi_dynamic> softmax_rows(const Mat<mpfi_dynamic>& logits);
// sigma(x) and sigma'(x) for every real x in the interval.
template <>
mpfi_dynamic activate(Activation a, const mpfi_dynamic& x);
template <>
mpfi_dynamic activate_prime(Activation a, const mpfi_dynamic& x);

// Enclosures of the inverse and of the symmetric roots of every matrix in a box (docs/derivations/interval_enclosure.md,
// "Inverses and square roots"): an approximate factor in mpfr_dynamic, its residual enclosed, a perturbation bound.
// Throw std::runtime_error when the residual is too large to certify (singular or nearly singular), and
// std::invalid_argument for a non-square or unbounded box.
//   inverse: X ~ A^{-1}, R = I - A X, r >= ||R||_F; r < 1 gives ||A^{-1} - X||_2 <= ||X||_F r / (1 - r).
IMat enclose_inverse(const IMat& a);
// Sigma symmetric positive definite: S ~ Sigma^{1/2} symmetric, certified positive definite, E = S^2 - Sigma; then
// ||S - Sigma^{1/2}||_F <= ||E||_F / lambda_min(S) (the Sylvester operator X -> S X + X Sigma^{1/2}). Returns
// enclosures of Sigma^{1/2}, Sigma^{-1/2} and Sigma^{-1} (the eigen fields of SymmetricRoots are left empty).
struct IntervalRoots {
  IMat sqrt, inv_sqrt, inv;
};
IntervalRoots enclose_spd_roots(const IMat& sigma);
// The orthogonal polar factor O (O^T O)^{-1/2} of every invertible O in the box.
IMat enclose_polar_factor(const IMat& o);

}  // namespace thm
