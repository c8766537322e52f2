// The manifold of global minima of [G]'s regularised factor objective, in (P, Q) coordinates
// (docs/spec/claims.md, "Manifold of global minima"; docs/derivations/goel.model.md):
//   Z* = U D V^T (rank r),  S = { (U_r D^{1/2} E_r^T O, V_r D^{1/2} E_r^T O) : O in O(d) },
// E_r^T the first r rows of I_d. The projection onto S (nearest point in the P-weighted norm, which is
// Euclidean in (P, Q)) is orthogonal Procrustes: O_hat = polar factor of K = P*^T P + Q*^T Q.
#pragma once

#include "numerics/models/goel/attention_regression.hpp"

namespace thm {

template <class T>
struct FactorManifold {
  Factors<T> star;  // the point of S with O = I
  Vec<T> sigma;     // every singular value of Z*, decreasing
  int rank = 0;     // r: the number of singular triplets kept
};

// Throws std::domain_error unless 1 <= rank <= min(k, d).
template <class T>
FactorManifold<T> factor_manifold(const Mat<T>& Z, int rank);

// The orthogonal polar factor U V^T of a square matrix (from its SVD K = U S V^T).
template <class T>
Mat<T> polar_factor(const Mat<T>& K);

// The point (P* O, Q* O) of S.
template <class T>
Factors<T> manifold_point(const FactorManifold<T>& S, const Mat<T>& O);

template <class T>
struct Projection {
  Factors<T> point;  // proj_S(theta)
  Mat<T> O;          // its gauge
  T distance = 0;    // dist_P(theta, S) = ||theta - proj_S(theta)||
};

// Which Procrustes problem to solve; `factor_p_only` (the polar factor of P*^T P alone) ignores Q and
// is not the nearest point: it exists for the negative control of goel.manifold.global_minima.
enum class ProcrustesTarget { both_factors, factor_p_only };

template <class T>
Projection<T> project_onto_manifold(const FactorManifold<T>& S, const Factors<T>& theta,
                                    ProcrustesTarget target = ProcrustesTarget::both_factors);

// The Cayley rotation (I - K/2)^{-1} (I + K/2) of a skew-symmetric K: orthogonal to working precision.
template <class T>
Mat<T> cayley_rotation(const Mat<T>& K);

#define THM_FACTOR_MANIFOLD_EXTERN(T)                                                                    \
  extern template FactorManifold<T> factor_manifold(const Mat<T>&, int);                                \
  extern template Mat<T> polar_factor(const Mat<T>&);                                                    \
  extern template Factors<T> manifold_point(const FactorManifold<T>&, const Mat<T>&);                    \
  extern template Projection<T> project_onto_manifold(const FactorManifold<T>&, const Factors<T>&, ProcrustesTarget); \
  extern template Mat<T> cayley_rotation(const Mat<T>&);
THM_FACTOR_MANIFOLD_EXTERN(double)
THM_FACTOR_MANIFOLD_EXTERN(mpfr_dynamic)
#undef THM_FACTOR_MANIFOLD_EXTERN

}  // namespace thm
