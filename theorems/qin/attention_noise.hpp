// Rounding-noise bounds for the [Q] attention block evaluated at working precision eps (the attention claims share them).
//
// Every claim compares quantities computed in floating point with a bound that holds for the exact
// instance; a margin smaller than the rounding error they carry is "inconclusive", not a verdict.
// Standard first-order bounds (Higham, Accuracy and Stability, ch. 3), gamma_k = k eps:
//   dot products of length k:        |fl(x^T y) - x^T y| <= gamma_k |x|^T |y|
//   K = c (X W_Q)(X W_K)^T:           |dK_jk| <= gamma_{3d+2} c ((|X||W_Q|)(|X||W_K|)^T)_jk
//   S = softmax_rows(K), row by row:  |dS_jk| <= ((N + 4) eps + 2 max|dK|) S_jk, so
//                                     ||dS||_2 <= sqrt(N) ((N + 4) eps + 2 max|dK|)   (||.||_1 ||.||_inf)
//   X W_V:                            ||d(XV)||_2 <= gamma_{d+1} || |X||W_V| ||_F
//   A = S (X W_V):                    ||dA||_2 <= ||dS|| ||XV|| + ||S|| ||d(XV)|| + gamma_{N+1} sqrt(N) || |XV| ||_F
//   Z = A + beta X:                   ||dZ||_2 <= ||dA|| + 2 eps (||A||_F + |beta| ||X||_F)
// and a computed singular value adds singular_value_error_bound (numerics/spectral.hpp).
// All bounds are doubled to cover second-order terms.
#pragma once

#include "numerics/fault.hpp"
#include "numerics/models/qin/attention.hpp"
#include "numerics/spectral.hpp"

#include <cmath>

namespace thm::detail {

template <class T>
struct AttentionNoise {
  T dK;   // max entry of |K_computed - K_exact|
  T dS;   // ||S_computed - S_exact||_2
  T dXV;  // ||XV_computed - XV_exact||_2
  T dA;   // ||A_computed - A_exact||_2
  T dZ;   // ||Z_computed - Z_exact||_2
};

template <class T>
AttentionNoise<T> attention_noise(const Mat<T>& X, const AttentionWeights<T>& w, const T& beta,
                                  const AttentionForward<T>& f) {
  using std::abs;
  using std::sqrt;
  const T eps = epsilon<T>();
  const T N = T(X.rows()), d = T(X.cols());
  const Mat<T> aX = X.cwiseAbs();
  const Mat<T> aXQ = aX * w.W_Q.cwiseAbs(), aXK = aX * w.W_K.cwiseAbs();
  AttentionNoise<T> r;
  r.dK = T(3 * d + 2) * eps * abs(w.c) * (aXQ * aXK.transpose()).maxCoeff();
  r.dS = sqrt(N) * (T(N + 4) * eps + T(2) * r.dK);
  const Mat<T> XV = X * w.W_V;
  r.dXV = T(d + 1) * eps * (aX * w.W_V.cwiseAbs()).norm();
  const T normS = spectral_norm(f.S), normXV = spectral_norm(XV);
  r.dA = r.dS * normXV + normS * r.dXV + T(N + 1) * eps * sqrt(N) * XV.norm();
  r.dZ = r.dA + T(2) * eps * (f.A.norm() + abs(beta) * X.norm());
  const T doubled = THM_FAULT(attention_noise_shrunk) ? T(2) / T(100) : T(2);
  r.dK *= doubled;
  r.dS *= doubled;
  r.dXV *= doubled;
  r.dA *= doubled;
  r.dZ *= doubled;
  return r;
}

// Noise of a computed singular value of M (m x n) whose entries carry ||dM||_2 <= dM.
template <class T>
T singular_value_noise(const Mat<T>& m, const T& norm, const T& dM) {
  return dM + singular_value_error_bound<T>(m.rows(), m.cols(), norm);
}

}  // namespace thm::detail
