// The [G] population model (numerics/models/goel/attention_regression.hpp) on intervals: the population excess, the
// change of variables and the regularisers evaluated in MPFI for every real point of the boxes given, with the roots
// of Sigma enclosed (numerics/interval_functions.hpp) instead of an eigen-decomposition. Built once, in
// attention_regression_interval.cpp.
#pragma once

#include "numerics/interval_functions.hpp"
#include "numerics/models/goel/attention_regression.hpp"
#include "numerics/models/goel/finite_attention.hpp"
#include "numerics/models/goel/population_instance.hpp"

namespace thm {

// The task of (Sigma, M, s) with Sigma^{1/2}, Sigma^{-1/2}, Sigma^{-1} enclosed and Z* = M Sigma^{1/2}; eigenvalues and
// eigenvectors are left empty. Throws std::runtime_error when Sigma is not certified positive definite.
RegressionTask<mpfi_dynamic> interval_regression_task(const MatD& Sigma, const IMat& M, double noise_sd);

// A [G] population instance (numerics/models/goel/population_instance.hpp) on intervals: checked as lift_goel checks it
// (InstanceError), then A, B, Sigma and M exactly (M = M_left M_right^T enclosed when stored as factors).
GProblem<mpfi_dynamic> interval_goel(const Instance& inst);

// The scale-invariant regulariser needs |P|, |Q| > 0: on intervals that is certified (std::runtime_error otherwise),
// never compared (comparing overlapping intervals aborts).
template <>
mpfi_dynamic regularizer(const Factors<mpfi_dynamic>& f, Regularizer kind, const mpfi_dynamic& lambda);

template <>
Factors<mpfi_dynamic> regularizer_gradient(const Factors<mpfi_dynamic>& f, Regularizer kind, const mpfi_dynamic& lambda);

extern template Factors<mpfi_dynamic> factor_gradient(const Factors<mpfi_dynamic>&, const IMat&, Regularizer, const mpfi_dynamic&);
extern template mpfi_dynamic inner(const Factors<mpfi_dynamic>&, const Factors<mpfi_dynamic>&);
extern template Factors<mpfi_dynamic> operator-(const Factors<mpfi_dynamic>&, const Factors<mpfi_dynamic>&);
extern template mpfi_dynamic population_excess(const IMat&, const IMat&, const RegressionTask<mpfi_dynamic>&);
extern template Factors<mpfi_dynamic> to_factors(const IMat&, const IMat&, const SymmetricRoots<mpfi_dynamic>&);
extern template ParamPair<mpfi_dynamic> from_factors(const Factors<mpfi_dynamic>&, const SymmetricRoots<mpfi_dynamic>&);
extern template ParamPair<mpfi_dynamic> gradient_to_params(const Factors<mpfi_dynamic>&, const SymmetricRoots<mpfi_dynamic>&);
// The finite-data loss and its gradient (the masked keys' logits are exactly -inf: interval_softmax_rows weighs them 0).
extern template FiniteForward<mpfi_dynamic> finite_forward(const IMat&, const IMat&, const IMat&, const IMat&, bool);
extern template mpfi_dynamic finite_loss(const IMat&, const IMat&, const IMat&, const IMat&, bool);
extern template ParamPair<mpfi_dynamic> finite_gradient(const IMat&, const IMat&, const IMat&, const IMat&, bool, const std::vector<int>*,
                                                        mpfi_dynamic*);
extern template mpfi_dynamic factor_objective(const Factors<mpfi_dynamic>&, const IMat&, Regularizer, const mpfi_dynamic&);

}  // namespace thm
