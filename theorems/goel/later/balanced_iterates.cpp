// goel.later.balanced_iterates (reconstruction; docs/derivations/goel.later.balanced_iterates.md)
//
// The later abstract's algorithm as we reconstruct it (docs/derivations/goel.model.md, "Why this R_si"): Algorithm 1's
// preconditioned step on L + R_si, R_si = lambda/8 ||(|Q|/|P|) P^T P - (|P|/|Q|) Q^T Q||^2 in the hat coordinates
// P = A Sigma_hat^{1/2}, Q = Sigma_hat^{1/2} B Sigma_hat^{1/2}, then the renormalisation (A, B) -> (c A, B / c) that makes
// |P| = |Q| (Frobenius norms). Run on the prompts reading from a point off the manifold of minima, m = 1..8 iterations:
//   (a) the iterate theta_m is balanced, | |P_m| - |Q_m| | <= 64 (d + 2) kappa^2 eps (|P_m| + |Q_m|),
//       kappa = |Sigma_hat^{1/2}|_F |Sigma_hat^{-1/2}|_F >= kappa(Sigma_hat^{1/2}) (Q has two such factors);
//   (b) the objective the run records at t = 0 and t = m is L_{n,T}(theta_t) + R_si(theta_t), R_si evaluated here from
//       its formula, within the rounding of R_si's two evaluations (derivation, "Allowance").
// Negative control: the same run without the renormalisation (the paper's Algorithm 1 on L + R_si).
#include "numerics/models/goel/algorithm1_studies.hpp"
#include "numerics/models/goel/prompt_attention.hpp"
#include "theorems/goel/algorithm.hpp"
#include "theorems/register_claim.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace thm::goel {

struct BalancedIterates {
  static ClaimInfo info() {
    return {
        .id = "goel.later.balanced_iterates",
        .source = "G",
        .provenance = Provenance::reconstruction,
        .kind = ClaimKind::identity,
        .statement = "the later algorithm (preconditioned step on L_{n,T} + R_si, then (A, B) -> (cA, B/c)) from a point off the "
                     "manifold, m = 1..8 iterations on n prompts: theta_m is balanced, |P_m| = |Q_m| in the hat coordinates, and the "
                     "objective it records at t = 0 and t = m is L_{n,T} + R_si, R_si from its formula, each to a rounding allowance",
        .negative_control = "the same run without the renormalisation (the paper's Algorithm 1 on L + R_si)",
        .reading = reading_id(FiniteReading::prompts),
        .default_cases = 40,
        .ladder_checks = 0,  // a statement about the working precision's own evaluation: no rung re-judges it
        .resolving_factor = 349.8,  // thmcheck power --claims goel.later.balanced_iterates --seeds 1..20
    };
  }

  static InstanceSchema schema() {
    return finite_schema(4).integer("n", 8, 64).integer("tokens", 2, 16).integer("m", 1, 8);
  }
  // goel.finite.masked_loss's problems (d <= 4, kappa(Sigma) <= 100); the start theta_S + delta Delta, Delta a random unit
  // direction in (P, Q) and delta log-uniform in [0.05, 0.5] sqrt(sigma_1(Z*)) (unbalanced: R_si > 0); n = 2 d + 2 (at
  // least 8) to 64 prompts of T = 2..16 tokens; m = 1..8 iterations.
  static Instance generate(ChoiceSource& src) {
    GSpec s = detail::finite_spec(src, 4, 100.0);
    s.point = GPoint::random_direction;
    s.delta = src.log_real(0.05, 0.5) * std::sqrt(s.z_max);
    s.entropy = src.entropy();
    s.mc_seed = src.entropy();
    Instance inst = build_goel(s);
    inst.params["n"] = static_cast<double>(src.integer(std::max(8, 2 * s.d + 2), 64));
    inst.params["tokens"] = static_cast<double>(src.integer(2, 16));
    inst.params["m"] = static_cast<double>(src.integer(1, 8));
    return inst;
  }

  // R_si = lambda/8 ||(|Q|/|P|) P^T P - (|P|/|Q|) Q^T Q||_F^2 (goel.model.md), and the size of one evaluation's rounding,
  // 2 (d + 4) eps (a |P|^2 + b |Q|^2) for the matrix inside the norm (derivation, "Allowance").
  template <class T>
  struct Regulariser {
    T value, inside, inside_rounding;
  };
  template <class T>
  static Regulariser<T> scale_invariant(const Factors<T>& f, const T& lambda) {
    const T p = f.P.norm(), q = f.Q.norm(), a = q / p, b = p / q;
    const Mat<T> E = a * (f.P.transpose() * f.P) - b * (f.Q.transpose() * f.Q);
    const T eps = epsilon<T>();
    const T d = T(static_cast<double>(f.P.cols()));
    return {T(lambda / T(8) * E.squaredNorm()), T(E.norm()), T(T(2) * (d + T(4)) * eps * (a * p * p + b * q * q))};
  }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant variant) {
    using std::abs;
    const int n = int_param(inst, "n", 8, 64), tokens = int_param(inst, "tokens", 2, 16), m = int_param(inst, "m", 1, 8);
    const FiniteProblem<T> f = finite_problem<T>(inst, n, data_seed(inst, n, 0));
    const PromptSet<T> data = lift_prompts<T>(draw_goel_prompts(inst, n, tokens, data_seed(inst, n, 0)));
    const ParamPair<T> start{f.g.A, f.g.B};
    TrainOptions o = later_options(f.moments, m);
    if (variant == Variant::negative_control) o.renormalise = false;
    o.eta = prompt_step_cap(data, f.moments, start, o, o.eta);
    const TrainRun<T> run = train_on_prompts(start, data, f.moments, f.g.task, o);

    Evaluation e;
    const T eps = epsilon<T>();
    const T lambda(o.lambda);
    if (run.diverged || static_cast<int>(run.record.objective.size()) != m + 1) {
      e.conditions.push_back(make_le<T>("the run stays finite for its m iterations", T(1), T(0), T(0)));
      return e;
    }
    const SymmetricRoots<T> hat = symmetric_roots(f.moments.Sigma_hat);
    const T kappa = T(hat.sqrt.norm() * hat.inv_sqrt.norm());  // >= kappa(Sigma_hat^{1/2}); squared below for Q's two factors
    const T d = T(static_cast<double>(f.g.d));

    // (a) balance of theta_m.
    const Factors<T> fm = to_factors(run.final.A, run.final.B, hat);
    const T pm = fm.P.norm(), qm = fm.Q.norm();
    e.conditions.push_back(make_le<T>("| |P_m| - |Q_m| | <= 64 (d + 2) kappa^2 eps (|P_m| + |Q_m|)", T(abs(T(pm - qm))),
                                      T(T(64) * (d + T(2)) * kappa * kappa * eps * (pm + qm)), T(0)));

    // (b) the recorded objective at t = 0 and t = m against L_{n,T} + R_si (the formula above).
    const auto objective_condition = [&](const ParamPair<T>& theta, const T& recorded, const std::string& when) {
      const Regulariser<T> r = scale_invariant(to_factors(theta.A, theta.B, hat), lambda);
      const T loss = prompt_loss(theta.A, theta.B, data);
      const T expected = loss + r.value;
      // Two evaluations of R_si (the model's, this one), each |dR| <= lambda/4 |E| dE + lambda/8 dE^2, and the sum's rounding.
      const T dR = lambda / T(4) * r.inside * r.inside_rounding + lambda / T(8) * r.inside_rounding * r.inside_rounding;
      const T allowance = T(2) * dR + T(4) * eps * (abs(loss) + r.value);
      e.conditions.push_back(make_le<T>("|recorded objective - (L_{n,T} + R_si)| at " + when + " <= rounding of R_si",
                                        T(abs(T(recorded - expected))), allowance, T(0)));
      return r.value / expected;
    };
    const T share0 = objective_condition(start, run.record.objective.front(), "t = 0");
    const T share_m = objective_condition(run.final, run.record.objective.back(), "t = m");
    const Factors<T> f0 = to_factors(start.A, start.B, hat);
    e.observations = {{"n", double(n)},
                      {"T", double(tokens)},
                      {"m", double(m)},
                      {"eta", o.eta},
                      {"|P_0| / |Q_0|", to_double(T(f0.P.norm() / f0.Q.norm()))},
                      {"|P_m| / |Q_m|", to_double(T(pm / qm))},
                      {"R_si / objective at t = 0", to_double(share0)},
                      {"R_si / objective at t = m", to_double(share_m)}};
    return e;
  }
};

}  // namespace thm::goel

THM_REGISTER_CLAIM(thm::goel::BalancedIterates)
