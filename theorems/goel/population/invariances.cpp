// goel.population.invariances (derived; docs/derivations/goel.population.invariances.md)
//
// The symmetries of the population loss and of the two regularisers.
//
//   L(P G, Q G^{-T}) = L(P, Q) for invertible G; L(cA, B/c) = L(A, B); R_bal(P O, Q O) = R_bal(P, Q) for
//   orthogonal O; R_si(cA, B/c) = R_si(A, B); c in {1e-2, 1, 1e2}; each to a rounding bound.
//   Negative control: (PG, QG), (cA, cB), (PG, QG) for R_bal, and R_bal in place of R_si.
#include "numerics/spectral.hpp"
#include "numerics/models/goel/detail/population_instance_impl.hpp"
#include "theorems/goel/generators.hpp"
#include "theorems/goel/noise.hpp"
#include "numerics/models/goel/attention_regression_interval.hpp"
#include "theorems/certify.hpp"
#include "theorems/register_claim.hpp"

#include <array>
#include <cmath>
#include <string>

namespace thm::goel {

inline constexpr std::array<double, 3> kInvarianceScales = {1e-2, 1.0, 1e2};

struct Invariances {
  static ClaimInfo info() {
    return {
        .id = "goel.population.invariances",
        .source = "G",
        .provenance = Provenance::derived,
        .kind = ClaimKind::identity,
        .statement = "L(P G, Q G^{-T}) = L(P, Q); L(cA, B/c) = L(A, B); R_bal(P O, Q O) = R_bal(P, Q); R_si(cA, B/c) = "
                     "R_si(A, B); c in {1e-2, 1, 1e2}, each to a rounding bound",
        .negative_control = "(P G, Q G), (cA, cB), (P G, Q G) for R_bal, R_bal in place of R_si",
        .uses = {"goel.population.matrix_factorization"},
        .default_cases = 100,
        .resolving_factor = 247.7,  // thmcheck power --claims goel.population.invariances --seeds 1..20
    };
  }

  // The instances it reads (numerics/instance_schema.hpp): what the generator below draws.
  static InstanceSchema schema() {
    return goel_population_schema({detail::kDimCap, detail::kDimCap, false, true});
  }
  static Instance generate(ChoiceSource& src) {
    GSpec s;
    s.d = sized_dimension(src, 1, detail::kDimCap);
    s.k = sized_dimension(src, 1, detail::kDimCap);
    s.rank = std::min(s.k, s.d);
    detail::draw_problem(src, s);
    s.point = GPoint::random;
    s.param_scale = src.log_real(0.1, 3.0);
    s.gauges = true;
    s.gauge_kappa = src.log_real(1.0, 10.0);
    s.entropy = src.entropy();
    return build_goel(s);
  }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant variant) {
    using std::abs;
    const GProblem<T> g = lift_goel<T>(inst);
    const bool claim = variant == Variant::claim;
    const Mat<T> G = lift<T>(inst.matrix("G", g.d, g.d));
    const Mat<T> Ginv = G.partialPivLu().inverse();
    // The gauge O orthogonal to working precision (the stored double is orthogonal only to 1e-16).
    const Mat<T> O = polar_factor<T>(lift<T>(inst.matrix("O_gauge", g.d, g.d)));
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

  // Each difference of the evaluation above for the exact instance: Sigma^{1/2}, Sigma^{-1/2}, G^{-1} and the polar
  // factor of O enclosed (numerics/interval_functions.hpp), the losses and regularisers on intervals; certified
  // against the allowance the double evaluation states (an identity: the exact difference is 0).
  static Certification certify(const Instance& inst, int digits, Variant variant) {
    const Evaluation at_double = evaluate<double>(inst, variant);
    const IntervalPrecision guard(static_cast<unsigned>(digits));
    const GProblem<mpfi_dynamic> g = interval_goel(inst);
    const bool claim = variant == Variant::claim;
    const IMat G = to_interval(inst.matrix("G", g.d, g.d)), Ginv = enclose_inverse(G);
    const IMat O = enclose_polar_factor(to_interval(inst.matrix("O_gauge", g.d, g.d)));
    const IMat &S = g.task.roots.sqrt, &Si = g.task.roots.inv_sqrt;
    const mpfi_dynamic L0 = population_excess(g.A, g.B, g.task);
    std::vector<mpfi_dynamic> diff;
    const IMat A1 = g.A * S * G * Si, B1 = g.B * S * (claim ? IMat(Ginv.transpose()) : G) * Si;
    diff.push_back(population_excess(A1, B1, g.task) - L0);
    for (double c_d : kInvarianceScales) {
      const mpfi_dynamic c(c_d);
      diff.push_back(population_excess(IMat(c * g.A), claim ? IMat(g.B / c) : IMat(g.B * c), g.task) - L0);
    }
    const Factors<mpfi_dynamic> f0 = to_factors(g.A, g.B, g.task.roots);
    const IMat& Og = claim ? O : G;
    const mpfi_dynamic R0 = regularizer(f0, Regularizer::balancing, g.lambda);
    diff.push_back(regularizer(Factors<mpfi_dynamic>{f0.P * Og, f0.Q * Og}, Regularizer::balancing, g.lambda) - R0);
    const Regularizer kind = claim ? Regularizer::scale_invariant : Regularizer::balancing;
    const mpfi_dynamic Rs0 = regularizer(f0, kind, g.lambda);
    for (double c_d : kInvarianceScales) {
      const mpfi_dynamic c(c_d);
      diff.push_back(regularizer(to_factors(IMat(c * g.A), IMat(g.B / c), g.task.roots), kind, g.lambda) - Rs0);
    }
    return combine(certify_within_allowance(at_double, diff),
                   "MPFI: Sigma^{1/2}, Sigma^{-1/2}, G^{-1} and polar(O) enclosed; the exact differences against the double allowance");
  }
};

}  // namespace thm::goel

THM_REGISTER_CLAIM(thm::goel::Invariances)
