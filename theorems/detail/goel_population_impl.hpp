#pragma once

#include "numerics/monte_carlo.hpp"
#include "numerics/rate_fit.hpp"
#include "theorems/detail/goel_instance_impl.hpp"
#include "theorems/detail/goel_noise.hpp"
#include "theorems/goel_population.hpp"

#include <boost/math/quadrature/sinh_sinh.hpp>

#include <cmath>
#include <string>

namespace thm {

namespace detail {

template <class T>
Vec<T> query_of(const Instance& inst, int d) {
  const MatD& q = inst.matrix("q");
  if (q.rows() != d || q.cols() != 1) throw InstanceError("matrix 'q' must be d x 1");
  return lift<T>(q).col(0);
}

inline std::uint64_t mc_seed_of(const Instance& inst) {
  const double s = inst.param("mc_seed");
  if (s < 0 || s != std::floor(s) || s > 9007199254740992.0) throw InstanceError("parameter 'mc_seed' must be an integer in [0, 2^53]");
  return static_cast<std::uint64_t>(s);
}

// E[e^{w x} x] / E[e^{w x}] for x ~ N(0, sigma2), by double-exponential quadrature on the real line at
// working precision; `error` is the quadrature's own a-posteriori estimate, propagated to the ratio.
template <class T>
T tilted_mean_by_quadrature(const T& sigma2, const T& w, T& error) {
  using std::exp;
  using std::pow;
  boost::math::quadrature::sinh_sinh<T> integrator(20);
  const auto density = [&](const T& x) { return exp(w * x - x * x / (T(2) * sigma2)); };
  // Tolerance eps^(2/3): double-exponential rules roughly square the error per level, so the converged
  // result is good to about eps and the estimate (the last difference) is about eps^(2/3).
  const T tol = pow(epsilon<T>(), T(2) / T(3));
  T err_num = 0, err_den = 0;
  const T num = integrator.integrate([&](const T& x) { return density(x) * x; }, tol, &err_num);
  const T den = integrator.integrate(density, tol, &err_den);
  using std::abs;
  const T ratio = num / den;
  error = (err_num + abs(ratio) * err_den) / den;
  return ratio;
}

}  // namespace detail

template <class T>
Evaluation evaluate_tilting_identity(const Instance& inst, Variant variant) {
  using std::exp;
  using std::abs;
  const GProblem<T> g = lift_goel<T>(inst);
  const Vec<T> q = detail::query_of<T>(inst, g.d);
  const Vec<T> w = g.B.transpose() * q;
  const Vec<T> Sw = g.task.Sigma * w;
  const T wSw = w.dot(Sw);
  if (!(wSw <= T(kTiltingLogitVarMax)))
    return Evaluation::discarded("w^T Sigma w = " + exact_decimal(to_double(wSw)) + " > 1/2 (w = B^T q): outside the protocol's regime");
  if (!(wSw > 0)) return Evaluation::discarded("w = B^T q = 0: the attention is uniform and the error has no 1/T law");
  // Leading term of m_T (derivation): c1 / T.
  const T c1 = exp(wSw) * ((g.A * g.task.Sigma * g.A.transpose()).trace() + (g.A * Sw).squaredNorm());
  const Vec<T> target = variant == Variant::claim ? Sw : w;
  const std::uint64_t seed = detail::mc_seed_of(inst);

  Evaluation e;
  std::vector<double> x, y, var;
  McEstimate last;
  for (int tokens : kTiltingTokens) {
    Rng rng = Rng::derive(seed, kTiltingIdentityId, static_cast<std::uint64_t>(tokens));
    last = summarize(attention_error_samples(g.A, w, target, g.task.roots.sqrt, tokens, kTiltingDraws, rng));
    x.push_back(std::log(double(tokens)));
    y.push_back(std::log(last.mean));
    const double rel = last.std_error / last.mean;
    var.push_back(rel * rel);
    e.observations.emplace_back("T m_T / c1[T=" + std::to_string(tokens) + "]", tokens * last.mean / to_double(c1));
    e.observations.emplace_back("m_T[T=" + std::to_string(tokens) + "]", last.mean);
  }
  const WeightedLineFit fit = fit_line_weighted(x, y, var);
  e.conditions.push_back(make_le<double>("|slope(log m_T, log T) + 1| <= bias allowance + z SE", std::fabs(fit.slope + 1.0),
                                         kTiltingSlopeBias + kTiltingZ * fit.slope_se, 0.0));
  const double t_max = kTiltingTokens.back();
  const double ratio = t_max * last.mean / to_double(c1), rel_se = last.std_error / last.mean;
  e.conditions.push_back(make_le<double>("|T m_T / c1 - 1| at the largest T <= bias allowance + z SE", std::fabs(ratio - 1.0),
                                         kTiltingC1Bias + kTiltingZ * rel_se * ratio, 0.0));
  // The one-dimensional identity at working precision: sigma^2 = Sigma_11, w = w_1.
  const T sigma2 = g.task.Sigma(0, 0), w1 = w(0);
  T qerr = 0;
  const T tilted = detail::tilted_mean_by_quadrature(sigma2, w1, qerr);
  const T exact = variant == Variant::claim ? T(sigma2 * w1) : w1;
  e.conditions.push_back(make_le<T>(variant == Variant::claim ? "1-D: |E[e^{wx} x] / E[e^{wx}] - sigma^2 w| by quadrature <= its error estimate"
                                                              : "1-D: |E[e^{wx} x] / E[e^{wx}] - w| by quadrature <= its error estimate",
                                    T(abs(tilted - exact)), T(qerr + T(16) * epsilon<T>() * (abs(exact) + abs(tilted))), T(0)));
  e.observations.emplace_back("slope", fit.slope);
  e.observations.emplace_back("slope SE", fit.slope_se);
  e.observations.emplace_back("R^2", fit.r2);
  e.observations.emplace_back("c1", to_double(c1));
  e.observations.emplace_back("w^T Sigma w", to_double(wSw));
  e.observations.emplace_back("1-D quadrature error", to_double(T(abs(tilted - T(sigma2 * w1)))));
  return e;
}

template <class T>
Evaluation evaluate_matrix_factorization(const Instance& inst, Variant variant) {
  using std::sqrt;
  using std::abs;
  const GProblem<T> g = lift_goel<T>(inst);
  const std::uint64_t seed = detail::mc_seed_of(inst);
  const T L_star = bayes_risk(g.task);
  const T closed = population_excess(g.A, g.B, g.task) + L_star;
  const T control = (g.A * g.task.Sigma * g.B.transpose() - g.task.M).squaredNorm() / T(2) + L_star;

  Evaluation e;
  McEstimate m[2];
  for (int i = 0; i < 2; ++i) {
    Rng rng = Rng::derive(seed, kMatrixFactorizationId, static_cast<std::uint64_t>(kFactorizationTokens[i]));
    m[i] = summarize(population_loss_samples(g.A, g.B, g.task, kFactorizationTokens[i], kFactorizationDraws, rng));
    e.observations.emplace_back("L_T (Monte-Carlo)[T=" + std::to_string(kFactorizationTokens[i]) + "]", m[i].mean);
  }
  // The 1/T law extrapolated to T = infinity (Richardson on two lengths).
  const double t1 = kFactorizationTokens[0], t2 = kFactorizationTokens[1];
  const double L_inf = (t2 * m[1].mean - t1 * m[0].mean) / (t2 - t1);
  const double se_inf = std::sqrt(t2 * t2 * m[1].std_error * m[1].std_error + t1 * t1 * m[0].std_error * m[0].std_error) / (t2 - t1);
  const double reference = to_double(variant == Variant::claim ? closed : control);
  e.conditions.push_back(make_le<double>(variant == Variant::claim
                                             ? "|L_inf (Monte-Carlo, extrapolated) - closed form| <= z SE"
                                             : "|L_inf (Monte-Carlo, extrapolated) - 1/2 ||A Sigma B^T - M||^2 - L*| <= z SE",
                                         std::fabs(L_inf - reference), kFactorizationZ * se_inf, 0.0));

  // The change of variables, to working precision.
  const Factors<T> f = to_factors(g.A, g.B, g.task.roots);
  const Mat<T> Q = variant == Variant::claim ? f.Q : Mat<T>(g.task.roots.sqrt * g.B);
  const Mat<T> lhs = g.A * g.task.Sigma * g.B.transpose() * g.task.roots.sqrt;
  const T r = g.task.roots.sqrt.norm();
  const T ce = detail::chain_eps<T>(g.k + g.d);
  const T scale = g.A.norm() * g.task.Sigma.norm() * g.B.norm() * r + g.A.norm() * r * r * r * g.B.norm();
  e.conditions.push_back(make_le<T>(variant == Variant::claim ? "||A Sigma B^T Sigma^{1/2} - P Q^T||_F <= rounding"
                                                              : "||A Sigma B^T Sigma^{1/2} - P (Sigma^{1/2} B)^T||_F <= rounding",
                                    T((lhs - f.P * Q.transpose()).norm()), T(ce * scale), T(0)));
  const T excess_pq = (f.P * Q.transpose() - g.task.Z).squaredNorm() / T(2);
  const T E = sqrt(T(2) * (closed - L_star));
  const T eE = ce * (scale + g.task.M.norm() * r);
  e.conditions.push_back(make_le<T>("|(L - L*) - 1/2 ||P Q^T - Z*||_F^2| <= rounding", T(abs(closed - L_star - excess_pq)),
                                    T((E + eE) * eE * T(2) + ce * E * E), T(0)));
  e.observations.emplace_back("L_inf (extrapolated)", L_inf);
  e.observations.emplace_back("SE of L_inf", se_inf);
  e.observations.emplace_back("closed form", to_double(closed));
  e.observations.emplace_back("control (no Sigma^{1/2} weight)", to_double(control));
  e.observations.emplace_back("|L_inf - closed| / SE", std::fabs(L_inf - to_double(closed)) / se_inf);
  return e;
}

template <class T>
Evaluation evaluate_invariances(const Instance& inst, Variant variant) {
  using std::abs;
  const GProblem<T> g = lift_goel<T>(inst);
  const bool claim = variant == Variant::claim;
  const Mat<T> G = lift<T>(inst.matrix("G"));
  const Mat<T> Ginv = G.partialPivLu().inverse();
  // The gauge O orthogonal to working precision (the stored double is orthogonal only to 1e-16).
  const Mat<T> O = polar_factor<T>(lift<T>(inst.matrix("O_gauge")));
  const Mat<T>&S = g.task.roots.sqrt, &Si = g.task.roots.inv_sqrt;
  const T r = S.norm(), ri = Si.norm(), nS = g.task.Sigma.norm(), nA = g.A.norm(), nB = g.B.norm(), nM = g.task.M.norm();
  const T kG = G.norm() * Ginv.norm();
  const T ce = detail::chain_eps<T>(g.k + g.d);
  const T L0 = population_excess(g.A, g.B, g.task);
  using std::sqrt;
  const T E0 = sqrt(T(2) * L0);
  // |L(theta') - L(theta)| <= (|E| + e) 2 e + ce |E|^2 when each E is within e of the exact one.
  const auto tol_L = [&](const T& e) { return (E0 + e) * T(2) * e + ce * E0 * E0; };

  Evaluation e;
  // GL(d): A' = A Sigma^{1/2} G Sigma^{-1/2}, B' = B Sigma^{1/2} G^{-T} Sigma^{-1/2}, i.e. (P G, Q G^{-T}).
  const Mat<T> A1 = g.A * S * G * Si;
  const Mat<T> B1 = g.B * S * (claim ? Mat<T>(Ginv.transpose()) : G) * Si;
  const T eG = ce * ((T(3) + kG) * nA * nB * r * r * ri * ri * kG * nS + nM) * r;
  e.conditions.push_back(make_le<T>(claim ? "|L(P G, Q G^-T) - L(P, Q)| <= rounding" : "|L(P G, Q G) - L(P, Q)| <= rounding",
                                    T(abs(population_excess(A1, B1, g.task) - L0)), tol_L(eG), T(0)));
  const T e1 = ce * (T(3) * nA * nS * nB + nM) * r;
  const Factors<T> f0 = to_factors(g.A, g.B, g.task.roots);
  const T p = f0.P.norm(), q = f0.Q.norm();
  const T rel_pq = ce * (T(2) + nA * r / p + r * r * nB / q);  // relative error of the computed P and Q
  for (double c_d : kInvarianceScales) {
    const T c(c_d);
    const Mat<T> Bc = claim ? Mat<T>(g.B / c) : Mat<T>(g.B * c);
    e.conditions.push_back(make_le<T>(std::string(claim ? "|L(cA, B/c) - L(A, B)|" : "|L(cA, cB) - L(A, B)|") + " <= rounding, c = " +
                                          exact_decimal(c_d),
                                      T(abs(population_excess(Mat<T>(c * g.A), Bc, g.task) - L0)), tol_L(e1), T(0)));
  }
  // R_bal(P O, Q O) = R_bal(P, Q).
  const Mat<T> Og = claim ? O : G;
  const Factors<T> fO{f0.P * Og, f0.Q * Og};
  const T R0 = regularizer(f0, Regularizer::balancing, g.lambda);
  const T N0 = sqrt(T(8) * R0 / g.lambda), eN = (p * p + q * q) * rel_pq * T(2);
  e.conditions.push_back(make_le<T>(claim ? "|R_bal(P O, Q O) - R_bal(P, Q)| <= rounding" : "|R_bal(P G, Q G) - R_bal(P, Q)| <= rounding",
                                    T(abs(regularizer(fO, Regularizer::balancing, g.lambda) - R0)),
                                    T(g.lambda / T(8) * ((N0 + eN) * T(2) * eN + ce * N0 * N0)), T(0)));
  // R_si(cA, B/c) = R_si(A, B).
  const Regularizer kind = claim ? Regularizer::scale_invariant : Regularizer::balancing;
  const T Rs0 = regularizer(f0, kind, g.lambda);
  const T X0 = sqrt(T(8) * Rs0 / g.lambda), eX = T(4) * p * q * rel_pq;
  for (double c_d : kInvarianceScales) {
    const T c(c_d);
    const Factors<T> fc = to_factors(Mat<T>(c * g.A), Mat<T>(g.B / c), g.task.roots);
    e.conditions.push_back(make_le<T>(std::string(claim ? "|R_si(cA, B/c) - R_si(A, B)|" : "|R_bal(cA, B/c) - R_bal(A, B)|") +
                                          " <= rounding, c = " + exact_decimal(c_d),
                                      T(abs(regularizer(fc, kind, g.lambda) - Rs0)),
                                      T(g.lambda / T(8) * ((X0 + eX) * T(2) * eX + ce * X0 * X0)), T(0)));
  }
  e.observations = {{"L - L*", to_double(L0)}, {"kappa(G)", to_double(kG)}, {"R_bal", to_double(R0)}, {"R_si", to_double(Rs0)}};
  return e;
}

}  // namespace thm
