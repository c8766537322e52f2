// goel.init.step_rule (derived; docs/derivations/goel.init.step_rule.md)
//
// Algorithm 1's step, set before its first iteration with its spectral start (docs/derivations/goel.finite_data.md,
// "Step size"): the step the Algorithm-1 claims train with (algorithm1_options), on one sequence of n tokens, satisfies
//
//   (R1) eta <= 1 / (2 max(1, lambda) sigma_1(Z_hat))                        half the stability limit at S
//   (R2) eta lambda_max(H~_n(S_0)) <= 1                                      GD's own hypothesis at the start
//   (R3) eta >= min(1 / (2 max(1, lambda) sigma_1(Z_hat)), 1 / lambda_max) / 2   (the cap's rounding to a power of two)
//
// and the plain-GD baseline's step (the same rule without the preconditioner, algorithm_options)
//
//   (R4) eta_GD <= 1 / (2 max(1, lambda) sigma_1(Z_hat) ||Sigma_hat||_2^2)       half its stability limit at S
//
// each to the rounding of the rule (computed in double). sigma_1(Z_hat) is recomputed here from the tokens
// (sigma_1^2 = lambda_max(C Sigma_hat^{-1} C^T), C = Y^T X / n), not from the moments the rule reads; H~_n is the Hessian
// of F~_n = L_n(P, Q; X Sigma_hat^{-1/2}, Y) + lambda/8 ||P^T P - Q^T Q||^2 at the spectral start (hat_hessian).
//   Negative control: each bound strengthened by control_factor (a rule twice as cautious would satisfy it).
#include "numerics/models/goel/algorithm1.hpp"
#include "theorems/goel/algorithm.hpp"
#include "theorems/goel/noise.hpp"
#include "theorems/register_claim.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <string>

namespace thm::goel {

struct StepRule {
  static ClaimInfo info() {
    return {
        .id = "goel.init.step_rule",
        .source = "G",
        .provenance = Provenance::derived,
        .kind = ClaimKind::inequality,
        .statement = "Algorithm 1's step from the spectral start S_0: eta <= 1 / (2 max(1, lambda) sigma_1(Z_hat)), "
                     "eta lambda_max(H~_n(S_0)) <= 1, eta >= half the smaller of the two limits; plain GD's step "
                     "<= 1 / (2 max(1, lambda) sigma_1(Z_hat) ||Sigma_hat||_2^2); each to the rule's rounding",
        .negative_control = "each bound strengthened by control_factor",
        .reading = reading_id(FiniteReading::one_sequence),
        .default_cases = 60,
        .mp_cases = 10,
        .control_factor = 2,
        .resolving_factor = 1,  // thmcheck power --claims goel.init.step_rule --seeds 1..20 (1.0000000006)
    };
  }

  // The instances it reads (numerics/instance_schema.hpp): what the generator below draws.
  static InstanceSchema schema() { return finite_schema(4).integer("n", 8, 64); }
  // Few tokens (n <= 64): where the finite-data curvature exceeds the population's and the cap binds (derivation).
  static Instance generate(ChoiceSource& src) { return detail::spectral_start_instance(src); }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant) {
    using std::sqrt;
    const int n = int_param(inst, "n", 2, 1 << 16);
    const FiniteProblem<T> f = finite_problem<T>(inst, n, data_seed(inst, n, 0));
    const ParamPair<T> start = spectral_init(f.moments, std::min(f.g.k, f.g.d));
    // The step every Algorithm-1 claim trains with.
    const TrainOptions o = algorithm1_options(f, start, 0);
    const T eta(o.eta), eta_gd(algorithm_options(f.moments, 0, false).eta);
    // sigma_1(Z_hat)^2 = lambda_max(C Sigma_hat^{-1} C^T), C = Y^T X / n: from the tokens, by an LDLT solve and a Jacobi SVD.
    const Mat<T> C = f.Y.transpose() * f.X / T(n), Sigma = f.X.transpose() * f.X / T(n);
    const Mat<T> W = C * Eigen::LDLT<Mat<T>>(Sigma).solve(Mat<T>(C.transpose()));
    const T s1 = sqrt(T(Eigen::JacobiSVD<Mat<T>>(W).singularValues()(0)));
    const Vec<T> ev = Eigen::JacobiSVD<Mat<T>>(Sigma).singularValues();
    const T kappa = ev(0) / ev(ev.size() - 1);
    const double top = Eigen::SelfAdjointEigenSolver<MatD>(hat_hessian(f, start, o), Eigen::EigenvaluesOnly).eigenvalues().maxCoeff();
    const T doc = T(1) / (T(2) * T(std::max(1.0, o.lambda)) * s1), cap = T(1) / T(top);
    // The rule is evaluated in double (so that every precision takes the same step): its rounding, kappa(Sigma_hat) times a
    // chain of n + k + d operations at double, is the statement's allowance; the comparison's own rounding is the noise.
    const T allow = T(detail::chain_eps<double>(n + f.g.k + f.g.d)) * kappa;
    const T noise = detail::chain_eps<T>(f.g.k + f.g.d) * kappa;
    Evaluation e;
    e.conditions.push_back(make_le<T>("(R1) eta 2 max(1, lambda) sigma_1(Z_hat) <= 1", T(eta / doc), T(T(1) + allow), noise));
    e.conditions.push_back(make_le<T>("(R2) eta lambda_max(H~_n(S_0)) <= 1", T(eta / cap), T(T(1) + allow), noise));
    e.conditions.push_back(make_le<T>("(R3) min(1 / (2 max(1, lambda) sigma_1), 1 / lambda_max) <= 2 eta",
                                      T(std::min(doc, cap) / eta), T(T(2) * (T(1) + allow)), noise));
    const T sigma_norm = ev(0);  // ||Sigma_hat||_2
    e.conditions.push_back(make_le<T>("(R4) eta_GD 2 max(1, lambda) sigma_1(Z_hat) ||Sigma_hat||_2^2 <= 1",
                                      T(eta_gd / doc * sigma_norm * sigma_norm), T(T(1) + allow), noise));
    e.observations = {{"n", double(n)},
                      {"eta", o.eta},
                      {"eta / documented step", to_double(T(eta / doc))},
                      {"documented step lambda_max", to_double(T(doc / cap))},
                      {"kappa(Sigma_hat)", to_double(kappa)}};
    return e;
  }
};

}  // namespace thm::goel

THM_REGISTER_CLAIM(thm::goel::StepRule)
