// The manifold of minima and the one-point setting of theorems/goel/one_point.hpp on intervals (the certificates of
// goel.geometry.* and goel.manifold.global_minima; docs/derivations/interval_enclosure.md, "The manifold of minima").
// Z* = M Sigma^{1/2} = L R^T exactly, with L = M_left (k x r) and R = Sigma^{1/2} M_right (d x r) of full column rank
// r = rank(Z*). Its rank-r balanced factorisations are (L G, R G^{-1}) with G = W^{1/2}, W the SPD solution of
// W (L^T L) W = R^T R, W = A^{-1/2} (A^{1/2} B A^{1/2})^{1/2} A^{-1/2} (A = L^T L, B = R^T R): nested enclosed roots,
// no singular vector. S = {(P_r O_r, Q_r O_r)}, O_r the first r rows of an orthogonal O; the projection of theta is
// orthogonal Procrustes, O_r = (K K^T)^{-1/2} K with K = P_r^T P + Q_r^T Q (r x d), unique where K has rank r.
#pragma once

#include "numerics/models/goel/attention_regression_interval.hpp"
#include "theorems/certify.hpp"

#include <Eigen/QR>

#include <optional>
#include <string>

namespace thm::detail {

// A point of S: its r nonzero columns (P_r, Q_r).
struct IntervalManifold {
  IMat P, Q;
  int rank = 0;
};

// The instance's manifold at its rank (parameter "rank"), from its stored factors of M (or M whole: L = M, R =
// Sigma^{1/2} for k >= d; L = I, R = Sigma^{1/2} M^T otherwise). Throws std::runtime_error when a root is not certified.
inline IntervalManifold interval_manifold(const Instance& inst, const GProblem<mpfi_dynamic>& g) {
  IMat L, R;
  if (inst.matrices.count("M_left")) {
    L = to_interval(inst.matrix("M_left"));
    R = g.task.roots.sqrt * to_interval(inst.matrix("M_right"));
  } else if (g.k >= g.d) {
    L = g.task.M;
    R = g.task.roots.sqrt;
  } else {
    L = IMat::Identity(g.k, g.k);
    R = g.task.roots.sqrt * g.task.M.transpose();
  }
  const IntervalRoots a = enclose_spd_roots(IMat(L.transpose() * L));
  const IMat B = R.transpose() * R;
  const IMat W = a.inv_sqrt * enclose_spd_roots(IMat(a.sqrt * B * a.sqrt)).sqrt * a.inv_sqrt;
  const IntervalRoots G = enclose_spd_roots(W);
  return {L * G.sqrt, R * G.inv_sqrt, static_cast<int>(L.cols())};
}

// The point (P_r O_r, Q_r O_r) of S for the orthogonal gauge O (d x d).
inline Factors<mpfi_dynamic> manifold_point(const IntervalManifold& S, const IMat& O) {
  const IMat Or = O.topRows(S.rank);
  return {S.P * Or, S.Q * Or};
}

struct IntervalProjection {
  Factors<mpfi_dynamic> point;
  IMat gauge;  // O_r (r x d)
  mpfi_dynamic distance;
};

// proj_S theta by Procrustes (both factors), or for goel.manifold.global_minima's control from P alone.
inline IntervalProjection interval_projection(const IntervalManifold& S, const Factors<mpfi_dynamic>& theta, bool p_only = false) {
  IMat K = S.P.transpose() * theta.P;
  if (!p_only) K += S.Q.transpose() * theta.Q;
  IntervalProjection p;
  p.gauge = enclose_spd_roots(IMat(K * K.transpose())).inv_sqrt * K;
  p.point = {S.P * p.gauge, S.Q * p.gauge};
  p.distance = sqrt(mpfi_dynamic(squared_frobenius(IMat(theta.P - p.point.P)) + squared_frobenius(IMat(theta.Q - p.point.Q))));
  return p;
}

// An orthogonal d x d matrix whose first r rows are the orthonormal rows of `Or` (r x d): the rest an orthonormal basis of
// their complement, N P / (N P P^T N^T)^{1/2} with P = I - Or^T Or and N an approximate basis (QR of mid(Or)^T).
inline IMat complete_orthonormal(const IMat& Or) {
  const Eigen::Index r = Or.rows(), d = Or.cols();
  if (r == d) return Or;
  const Mat<mpfr_dynamic> mid = midpoint(Or);
  const Mat<mpfr_dynamic> q = Eigen::HouseholderQR<Mat<mpfr_dynamic>>(mid.transpose()).householderQ() * Mat<mpfr_dynamic>::Identity(d, d);
  const IMat NP = to_interval(Mat<mpfr_dynamic>(q.rightCols(d - r).transpose())) * IMat(IMat::Identity(d, d) - Or.transpose() * Or);
  IMat out(d, d);
  out.topRows(r) = Or;
  out.bottomRows(d - r) = enclose_spd_roots(IMat(NP * NP.transpose())).inv_sqrt * NP;
  return out;
}

inline mpfi_dynamic factor_squared_norm(const Factors<mpfi_dynamic>& f) { return squared_frobenius(f.P) + squared_frobenius(f.Q); }

struct IntervalOnePoint {
  GProblem<mpfi_dynamic> g;
  IntervalManifold S;
  mpfi_dynamic sigma_1, sigma_r, alpha, rho, beta_s, eta, mu;  // theorems/goel/constants.hpp, enclosed
  Factors<mpfi_dynamic> theta;  // (A Sigma^{1/2}, Sigma^{1/2} B Sigma^{1/2}) of the instance, exactly
};

// The setting at rank r = min(k, d) (the claims) or the instance's rank (`instance_rank`: strong convexity's control),
// or why it is not built: a certified discard (k < d, or rank(Z*) < d exactly) or an undecided hypothesis.
inline IntervalOnePoint interval_one_point(const Instance& inst, std::optional<Certification>& refusal, bool instance_rank = false) {
  using I = mpfi_dynamic;
  IntervalOnePoint s{interval_goel(inst), {}, I(0), I(0), I(0), I(0), I(0), I(0), I(0), {}};
  if (s.g.k < s.g.d) {
    refusal = certified_discard("k < d: Z* cannot have rank d (hypothesis rank(Z*) = d)");
    return s;
  }
  const int r = instance_rank ? s.g.rank : std::min(s.g.k, s.g.d);
  if (s.g.rank < r) {
    refusal = certified_discard("rank(Z*) = " + std::to_string(s.g.rank) + " < d exactly (Z* = M_left M_right^T Sigma^{1/2})");
    return s;
  }
  const SingularValueEnclosure sz = enclose_singular_values(s.g.task.Z);
  s.sigma_1 = sz.sigma.front();
  s.sigma_r = sz.sigma[static_cast<std::size_t>(r - 1)];
  if (!(lower(s.sigma_r) > 0)) {
    refusal = not_certified("sigma_r(Z*) > 0 is not certified at this precision");
    return s;
  }
  s.S = interval_manifold(inst, s.g);
  const double lambda = inst.param("lambda");  // the instance's double: min(1, lambda) decided exactly
  const I m = lambda < 1.0 ? s.g.lambda : I(1);
  s.alpha = m * s.sigma_r / I(2);
  s.rho = m * s.sigma_r / (I(3) * sqrt(I(2)) * (I(1) + s.g.lambda) * sqrt(s.sigma_1));
  const I a = sqrt(s.sigma_1) + s.rho, b = sqrt(I(2) * s.sigma_1) + s.rho / I(2);
  s.beta_s = I(2) * (I(1) + s.g.lambda) * (I(1) + s.g.lambda) * a * a * b * b;
  s.eta = s.alpha / s.beta_s;
  s.mu = I(1) - I(2) * s.eta * s.alpha + s.eta * s.eta * s.beta_s;
  s.theta = to_factors(s.g.A, s.g.B, s.g.task.roots);
  return s;
}

// The region hypothesis dist_P(theta, S) <= rho: certified inside (nullopt), certified outside (a discard), or undecided.
inline std::optional<Certification> region_refusal(const IntervalProjection& p, const mpfi_dynamic& rho) {
  if (upper(p.distance) <= lower(rho)) return std::nullopt;
  if (lower(p.distance) > upper(rho)) return certified_discard("dist_P(theta, S) > rho certified: outside the region");
  return not_certified("dist_P(theta, S) <= rho is not decided at this precision");
}

}  // namespace thm::detail
