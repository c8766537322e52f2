#pragma once

#include "numerics/factor_manifold.hpp"
#include "numerics/spectral.hpp"
#include "theorems/detail/goel_instance_impl.hpp"
#include "theorems/detail/goel_noise.hpp"
#include "theorems/goel_constants.hpp"
#include "theorems/goel_geometry.hpp"

#include <string>

namespace thm {

namespace detail {

// The common setting of the one-point claims: theta in (P, Q), S, its projection, the constants.
template <class T>
struct OnePointSetting {
  GProblem<T> g;
  FactorManifold<T> S;
  Factors<T> theta;
  Projection<T> proj;
  OnePointConstants<T> c;
  T sigma_1, sigma_r;
  T e_w;  // noise of theta - proj (factor_noise)
};

// The claim uses r = d (its hypothesis, judged through the region: a numerically rank-deficient Z*
// has a tiny sigma_d and so a tiny rho); the negative control drops it and uses the instance's rank.
template <class T>
OnePointSetting<T> one_point_setting(const Instance& inst, Variant variant) {
  OnePointSetting<T> s{lift_goel<T>(inst), {}, {}, {}, {}, T(0), T(0), T(0)};
  const int r = variant == Variant::claim ? std::min(s.g.k, s.g.d) : s.g.rank;
  s.S = factor_manifold(s.g.task.Z, r);
  s.sigma_1 = s.S.sigma(0);
  s.sigma_r = s.S.sigma(r - 1);
  s.c = one_point_constants(s.sigma_1, s.sigma_r, s.g.lambda);
  s.theta = to_factors(s.g.A, s.g.B, s.g.task.roots);
  s.proj = project_onto_manifold(s.S, s.theta);
  s.e_w = factor_noise(s.g, s.g.A, s.g.B, s.sigma_1, s.sigma_r);
  return s;
}

// Why a one-point case is outside the claim's region, or "" when it is inside.
template <class T>
std::string one_point_discard(const OnePointSetting<T>& s) {
  if (s.g.k < s.g.d) return "k < d: Z* cannot have rank d (hypothesis rank(Z*) = d)";
  if (!(s.sigma_r > 0)) return "sigma_d(Z*) = 0: hypothesis rank(Z*) = d fails";
  if (!(s.proj.distance <= s.c.rho - s.e_w))
    return "dist_P(theta, S) = " + exact_decimal(to_double(s.proj.distance)) + " > rho = " + exact_decimal(to_double(s.c.rho)) +
           (s.sigma_r < T(1e-8) * s.sigma_1 ? " (Z* numerically rank-deficient: hypothesis rank(Z*) = d fails)" : "");
  return "";
}

template <class T>
void one_point_observations(Evaluation& e, const OnePointSetting<T>& s) {
  e.observations.emplace_back("alpha", to_double(s.c.alpha));
  e.observations.emplace_back("rho", to_double(s.c.rho));
  e.observations.emplace_back("beta_s", to_double(s.c.beta_s));
  e.observations.emplace_back("dist_P / rho", to_double(T(s.proj.distance / s.c.rho)));
  e.observations.emplace_back("sigma_1(Z*)", to_double(s.sigma_1));
  e.observations.emplace_back("sigma_r(Z*)", to_double(s.sigma_r));
  e.observations.emplace_back("lambda", to_double(s.g.lambda));
}

}  // namespace detail

template <class T>
Evaluation evaluate_global_minima(const Instance& inst, Variant variant) {
  using std::sqrt;
  const GProblem<T> g = lift_goel<T>(inst);
  const FactorManifold<T> S = factor_manifold(g.task.Z, g.rank);
  const T s1 = S.sigma(0), sr = S.sigma(g.rank - 1);
  const T ce = detail::chain_eps<T>(g.k + g.d);
  // Gauges orthogonal to working precision (the stored doubles are orthogonal only to 1e-16).
  // Every auxiliary matrix is d x d; checked before any arithmetic.
  for (const char* name : {"O_gauge", "O_random0", "O_random1", "O_random2", "K"}) (void)inst.matrix(name, g.d, g.d);
  const Factors<T> star = manifold_point(S, polar_factor<T>(lift<T>(inst.matrix("O_gauge"))));
  const ParamPair<T> ab = from_factors(star, g.task.roots);
  const T r = g.task.roots.sqrt.norm(), ri = g.task.roots.inv_sqrt.norm();
  const T p = star.P.norm(), q = star.Q.norm();

  Evaluation e;
  // L - L* = 1/2 ||E||^2 with E = (A Sigma B^T - M) Sigma^{1/2}: ||E|| within the rounding of the chain
  // (A, B) = (P Sigma^{-1/2}, Sigma^{-1/2} Q Sigma^{-1/2}) -> A Sigma B^T Sigma^{1/2}, plus the SVD's.
  const T normE = sqrt(T(2) * population_excess(ab.A, ab.B, g.task));
  const T tolE = ce * (p * q * ri * ri * ri * g.task.Sigma.norm() * r + g.task.M.norm() * r + s1 * sqrt(s1 / sr));
  e.conditions.push_back(make_le<T>("at a point of S: sqrt(2 (L - L*)) = ||(A Sigma B^T - M) Sigma^{1/2}||_F <= rounding", normE, tolE, T(0)));
  const T tolN = ce * (p * p + q * q + s1 * sqrt(s1 / sr));
  for (Regularizer kind : {Regularizer::balancing, Regularizer::scale_invariant}) {
    const char* name = kind == Regularizer::balancing ? "balancing" : "scale-invariant";
    const T R = regularizer(star, kind, g.lambda);
    e.conditions.push_back(make_le<T>(std::string("at a point of S: sqrt(8 R / lambda) <= rounding (") + name + ")",
                                      T(sqrt(T(8) * R / g.lambda)), tolN, T(0)));
    const T gn = sqrt(squared_norm(factor_gradient(star, g.task.Z, kind, g.lambda)));
    e.conditions.push_back(make_le<T>(std::string("at a point of S: ||grad Qobj||_{P^-1} <= rounding (") + name + ")", gn,
                                      T(detail::gradient_noise(g, star) + ce * (T(1) + g.lambda) * (p + q) * s1 * sqrt(s1 / sr)),
                                      T(0)));
  }

  // Projection of theta = (A, B) near S: idempotent, and the nearest point.
  const ProcrustesTarget target = variant == Variant::claim ? ProcrustesTarget::both_factors : ProcrustesTarget::factor_p_only;
  const Factors<T> theta = to_factors(g.A, g.B, g.task.roots);
  const Projection<T> pr = project_onto_manifold(S, theta, target);
  const Projection<T> again = project_onto_manifold(S, pr.point, target);
  const T e_w = detail::factor_noise(g, g.A, g.B, s1, sr);
  e.conditions.push_back(make_le<T>("idempotence: ||proj_S(proj_S theta) - proj_S theta||_P <= rounding",
                                    T(sqrt(squared_norm(again.point - pr.point))), T(ce * sqrt(s1) * s1 / sr), T(0)));
  // Procrustes optimality (first order): O_hat^T W*^T W is symmetric (it is the PSD factor H of the
  // polar decomposition W*^T W = O_hat H). A non-nearest gauge leaves a skew part.
  const Mat<T> H = pr.O.transpose() * (S.star.P.transpose() * theta.P + S.star.Q.transpose() * theta.Q);
  e.conditions.push_back(make_le<T>("Procrustes: ||skew(O_hat^T W*^T W)||_F <= rounding", T((H - H.transpose()).norm() / T(2)),
                                    T(ce * (S.star.P.norm() * theta.P.norm() + S.star.Q.norm() * theta.Q.norm()) * sqrt(s1 / sr)), T(0)));
  const T dist_noise = T(2) * e_w + ce * (pr.distance + sqrt(squared_norm(theta)));
  for (int i = 0; i < 3; ++i) {
    const T di = sqrt(squared_norm(theta - manifold_point(S, polar_factor<T>(lift<T>(inst.matrix("O_random" + std::to_string(i)))))));
    e.conditions.push_back(make_ge<T>("nearest: dist_P(theta, W* O_random" + std::to_string(i) + ") >= dist_P(theta, proj_S theta)",
                                      di, pr.distance, dist_noise));
  }
  // Small rotations of the gauge: Cayley(+-eps K') O_hat, K' = K without its block on the columns
  // beyond the rank (there W* is zero and the rotation does not move the point).
  Mat<T> K = lift<T>(inst.matrix("K"));
  for (int i = S.rank; i < g.d; ++i)
    for (int j = S.rank; j < g.d; ++j) K(i, j) = 0;
  // (For d = 1, or K' = 0, there is no rotation to try: O(1) = {+-1} is covered by the random O.)
  for (int sign : {+1, -1}) {
    if (!(K.norm() > 0)) break;
    const Mat<T> R = cayley_rotation<T>(T(sign * kNearestRotation) * K);
    const T dr = sqrt(squared_norm(theta - manifold_point(S, Mat<T>(R * pr.O))));
    e.conditions.push_back(make_ge<T>(std::string("nearest: dist_P(theta, W* Cayley(") + (sign > 0 ? "+" : "-") +
                                          "1e-3 K) O_hat) >= dist_P(theta, proj_S theta)",
                                      dr, pr.distance, dist_noise));
  }
  e.observations = {{"dist_P(theta, S)", to_double(pr.distance)},
                    {"sigma_1(Z*)", to_double(s1)},
                    {"sigma_r(Z*)", to_double(sr)},
                    {"rank", double(S.rank)},
                    {"||E|| at S / rounding", to_double(T(normE / tolE))}};
  return e;
}

template <class T>
Evaluation evaluate_one_point_strong_convexity(const Instance& inst, Variant variant) {
  using std::sqrt;
  const detail::OnePointSetting<T> s = detail::one_point_setting<T>(inst, variant);
  const std::string why = detail::one_point_discard(s);
  if (!why.empty()) return Evaluation::discarded(why);
  const Factors<T> grad = factor_gradient(s.theta, s.g.task.Z, Regularizer::balancing, s.g.lambda);
  const Factors<T> delta = s.theta - s.proj.point;
  const T dist = s.proj.distance, lhs = inner(grad, delta), rhs = s.c.alpha * dist * dist;
  const T e_g = detail::gradient_noise(s.g, s.theta), ce = detail::chain_eps<T>(s.g.k + s.g.d);
  using std::abs;
  const T noise = e_g * dist + sqrt(squared_norm(grad)) * s.e_w + ce * abs(lhs) + s.c.alpha * (T(2) * dist * s.e_w + s.e_w * s.e_w);
  Evaluation e;
  e.conditions.push_back(make_ge<T>("<grad Qobj, theta - proj_S theta> >= alpha dist_P^2", lhs, rhs, noise));
  e.observations.emplace_back("<grad, Delta> / dist_P^2", to_double(T(lhs / (dist * dist))));
  e.observations.emplace_back("(<grad, Delta> / dist_P^2) / alpha", to_double(T(lhs / rhs)));
  detail::one_point_observations(e, s);
  return e;
}

template <class T>
Evaluation evaluate_one_point_smoothness(const Instance& inst, Variant variant) {
  using std::sqrt;
  const detail::OnePointSetting<T> s = detail::one_point_setting<T>(inst, Variant::claim);
  const std::string why = detail::one_point_discard(s);
  if (!why.empty()) return Evaluation::discarded(why);
  const Factors<T> grad = factor_gradient(s.theta, s.g.task.Z, Regularizer::balancing, s.g.lambda);
  const T dist = s.proj.distance, g2 = squared_norm(grad), gn = sqrt(g2);
  const T beta = variant == Variant::claim ? s.c.beta_s : T(s.c.alpha * s.c.alpha / T(4));
  const T e_g = detail::gradient_noise(s.g, s.theta), ce = detail::chain_eps<T>(s.g.k + s.g.d);
  const T noise = T(2) * gn * e_g + e_g * e_g + ce * g2 + beta * (T(2) * dist * s.e_w + s.e_w * s.e_w);
  Evaluation e;
  e.conditions.push_back(make_le<T>(variant == Variant::claim ? "||grad Qobj||_{P^-1}^2 <= beta_s dist_P^2"
                                                              : "||grad Qobj||_{P^-1}^2 <= (alpha^2 / 4) dist_P^2",
                                    g2, T(beta * dist * dist), noise));
  e.observations.emplace_back("||grad||^2 / dist_P^2", to_double(T(g2 / (dist * dist))));
  e.observations.emplace_back("(||grad||^2 / dist_P^2) / beta_s", to_double(T(g2 / (s.c.beta_s * dist * dist))));
  detail::one_point_observations(e, s);
  return e;
}

template <class T>
Evaluation evaluate_local_contraction(const Instance& inst, Variant variant) {
  using std::sqrt;
  const detail::OnePointSetting<T> s = detail::one_point_setting<T>(inst, Variant::claim);
  const std::string why = detail::one_point_discard(s);
  if (!why.empty()) return Evaluation::discarded(why);
  const T eta = s.c.eta;
  // The control claims mu'' = 1 - 2 alpha / sqrt(beta_s): false at every point of the region, since a
  // step of length eta ||grad|| <= eta sqrt(beta_s) dist moves dist by at most that (derivation).
  const T mu = variant == Variant::claim ? s.c.mu : T(T(1) - T(2) * s.c.alpha / sqrt(s.c.beta_s));
  const T ce = detail::chain_eps<T>(s.g.k + s.g.d);
  Evaluation e;
  Factors<T> theta = s.theta;
  Projection<T> pr = s.proj;
  e.observations.emplace_back("dist_P^2[t=0]", to_double(T(pr.distance * pr.distance)));
  for (int t = 0; t < kContractionSteps; ++t) {
    const Factors<T> grad = factor_gradient(theta, s.g.task.Z, Regularizer::balancing, s.g.lambda);
    const T e_step = eta * detail::gradient_noise(s.g, theta) + ce * sqrt(squared_norm(theta));
    theta.P -= eta * grad.P;
    theta.Q -= eta * grad.Q;
    const Projection<T> next = project_onto_manifold(s.S, theta);
    const T d0 = pr.distance, d1 = next.distance;
    const T e_w = ce * s.sigma_1 / sqrt(s.sigma_r) + (t == 0 ? s.e_w : T(0));
    const T noise = T(2) * d1 * (e_w + e_step) + T(2) * mu * d0 * e_w + ce * (d1 * d1 + mu * d0 * d0);
    e.conditions.push_back(make_le<T>("step " + std::to_string(t) + (variant == Variant::claim ? ": dist_{t+1}^2 <= mu dist_t^2"
                                                                                                 : ": dist_{t+1}^2 <= (1 - 2 alpha / sqrt(beta_s)) dist_t^2"),
                                      T(d1 * d1), T(mu * d0 * d0), noise));
    e.observations.emplace_back("dist_P^2[t=" + std::to_string(t + 1) + "]", to_double(T(d1 * d1)));
    pr = next;
  }
  e.observations.emplace_back("mu", to_double(mu));
  e.observations.emplace_back("eta", to_double(eta));
  const double first = e.observations.front().second, last = e.observations[kContractionSteps].second;
  e.observations.emplace_back("observed per-step contraction of dist^2", std::pow(last / first, 1.0 / kContractionSteps));
  detail::one_point_observations(e, s);
  return e;
}

}  // namespace thm
