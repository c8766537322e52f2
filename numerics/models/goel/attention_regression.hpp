// [G] softmax attention for linear regression (docs/spec/claims.md, "Model [G]"; docs/derivations/goel.model.md).
//
// Tokens x ~ N(0, Sigma) in R^d; parameters A (k x d, value/output) and B (d x d, key-query);
// yhat(q) = A sum_j softmax_j(q^T B x_j) x_j; target y = M q + xi, xi ~ N(0, s^2 I_k).
// Population loss (T -> infinity): L(A, B) = 1/2 ||(A Sigma B^T - M) Sigma^{1/2}||_F^2 + L*, L* = k s^2 / 2.
// Change of variables: P = A Sigma^{1/2}, Q = Sigma^{1/2} B Sigma^{1/2}, Z* = M Sigma^{1/2}:
// L - L* = 1/2 ||P Q^T - Z*||_F^2, and the P-weighted geometry of (A, B) is the Euclidean one of (P, Q).
#pragma once

#include "numerics/eigen_types.hpp"
#include "numerics/symmetric_roots.hpp"

namespace thm {

// The population data of a [G] problem at working precision.
template <class T>
struct RegressionTask {
  Mat<T> Sigma, M;
  T noise_sd = 0;
  SymmetricRoots<T> roots;  // of Sigma
  Mat<T> Z;                 // Z* = M Sigma^{1/2}
};
// Throws std::domain_error for mismatched shapes or a Sigma that is not symmetric positive definite.
template <class T>
RegressionTask<T> make_regression_task(const Mat<T>& Sigma, const Mat<T>& M, const T& noise_sd);

// L* = k s^2 / 2.
template <class T>
T bayes_risk(const RegressionTask<T>& task);

template <class T>
struct ParamPair {
  Mat<T> A, B;
};

// L - L* = 1/2 ||(A Sigma B^T - M) Sigma^{1/2}||_F^2, from the closed form (docs/spec/pitfalls.md: never as a
// difference of two large numbers).
template <class T>
T population_excess(const Mat<T>& A, const Mat<T>& B, const RegressionTask<T>& task);
// Its gradient: G_A = (A Sigma B^T - M) Sigma B Sigma, G_B = Sigma (A Sigma B^T - M)^T A Sigma.
template <class T>
ParamPair<T> population_excess_gradient(const Mat<T>& A, const Mat<T>& B, const RegressionTask<T>& task);

// (P, Q) coordinates; also used for tangent vectors and gradients.
template <class T>
struct Factors {
  Mat<T> P, Q;
};
template <class T>
Factors<T> to_factors(const Mat<T>& A, const Mat<T>& B, const SymmetricRoots<T>& roots);
// A = P Sigma^{-1/2}, B = Sigma^{-1/2} Q Sigma^{-1/2}.
template <class T>
ParamPair<T> from_factors(const Factors<T>& f, const SymmetricRoots<T>& roots);
// A gradient in (P, Q) pulled back to (A, B): G_A = g_P Sigma^{1/2}, G_B = Sigma^{1/2} g_Q Sigma^{1/2}.
template <class T>
ParamPair<T> gradient_to_params(const Factors<T>& g, const SymmetricRoots<T>& roots);
template <class T>
T inner(const Factors<T>& x, const Factors<T>& y);
template <class T>
T squared_norm(const Factors<T>& x);
template <class T>
Factors<T> operator-(const Factors<T>& x, const Factors<T>& y);

// Regularisers (docs/derivations/goel.model.md):
//   balancing:        R = lambda/8 ||P^T P - Q^T Q||_F^2                          (the default)
//   scale_invariant:  R = lambda/8 ||(|Q|/|P|) P^T P - (|P|/|Q|) Q^T Q||_F^2,  |.| = Frobenius norm,
//                     invariant under (P, Q) -> (c P, Q / c), equal to the balancing one when |P| = |Q|.
enum class Regularizer { none, balancing, scale_invariant };
template <class T>
T regularizer(const Factors<T>& f, Regularizer kind, const T& lambda);
template <class T>
Factors<T> regularizer_gradient(const Factors<T>& f, Regularizer kind, const T& lambda);

// Qobj - L* = 1/2 ||P Q^T - Z||_F^2 + R(P, Q) and its gradient in (P, Q).
template <class T>
T factor_objective(const Factors<T>& f, const Mat<T>& Z, Regularizer kind, const T& lambda);
template <class T>
Factors<T> factor_gradient(const Factors<T>& f, const Mat<T>& Z, Regularizer kind, const T& lambda);

// The finite-token attention average sum_j softmax_j(w^T x_j) x_j for the rows x_j of X (stable softmax).
template <class T>
Vec<T> attention_average(const Vec<T>& w, const Mat<T>& X);

#define THM_ATTENTION_REGRESSION_EXTERN(T)                                                                    \
  extern template RegressionTask<T> make_regression_task(const Mat<T>&, const Mat<T>&, const T&);             \
  extern template T bayes_risk(const RegressionTask<T>&);                                                     \
  extern template T population_excess(const Mat<T>&, const Mat<T>&, const RegressionTask<T>&);               \
  extern template ParamPair<T> population_excess_gradient(const Mat<T>&, const Mat<T>&, const RegressionTask<T>&); \
  extern template Factors<T> to_factors(const Mat<T>&, const Mat<T>&, const SymmetricRoots<T>&);              \
  extern template ParamPair<T> from_factors(const Factors<T>&, const SymmetricRoots<T>&);                     \
  extern template ParamPair<T> gradient_to_params(const Factors<T>&, const SymmetricRoots<T>&);               \
  extern template T inner(const Factors<T>&, const Factors<T>&);                                              \
  extern template T squared_norm(const Factors<T>&);                                                          \
  extern template Factors<T> operator-(const Factors<T>&, const Factors<T>&);                                 \
  extern template T regularizer(const Factors<T>&, Regularizer, const T&);                                    \
  extern template Factors<T> regularizer_gradient(const Factors<T>&, Regularizer, const T&);                  \
  extern template T factor_objective(const Factors<T>&, const Mat<T>&, Regularizer, const T&);                \
  extern template Factors<T> factor_gradient(const Factors<T>&, const Mat<T>&, Regularizer, const T&);        \
  extern template Vec<T> attention_average(const Vec<T>&, const Mat<T>&);
THM_ATTENTION_REGRESSION_EXTERN(double)
THM_ATTENTION_REGRESSION_EXTERN(mpfr_dynamic)
#undef THM_ATTENTION_REGRESSION_EXTERN

}  // namespace thm
