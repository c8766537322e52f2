// goel.precond.equivalence (derived; docs/derivations/goel.precond.equivalence.md)
//
// Algorithm 1's preconditioner is GD in the whitened coordinates (docs/derivations/goel.finite_data.md).
//
//   One iteration of Algorithm 1 (train: the preconditioned step on L_n + R in (A, B)), mapped to (P, Q), equals one GD
//   step on the same objective written in (P, Q), i.e. on whitened tokens X Sigma_hat^{-1/2}, to a rounding bound.
//   Negative control: the step without the preconditioner.
#include "numerics/models/goel/algorithm1.hpp"
#include "numerics/spectral.hpp"
#include "theorems/goel/algorithm.hpp"
#include "theorems/goel/noise.hpp"
#include "numerics/models/goel/attention_regression_interval.hpp"
#include "theorems/certify.hpp"
#include "theorems/register_claim.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace thm::goel {

struct PrecondEquivalence {
  static ClaimInfo info() {
    return {
        .id = "goel.precond.equivalence",
        .source = "G",
        .provenance = Provenance::derived,
        .kind = ClaimKind::identity,
        .statement = "one iteration of Algorithm 1 (train: the preconditioned step on L_n + R in (A, B)) equals one GD step in "
                     "(P, Q) = on whitened tokens X Sigma_hat^{-1/2}, to a rounding bound",
        .negative_control = "Algorithm 1's iteration without the preconditioner",
        .reading = reading_id(FiniteReading::one_sequence),
        .default_cases = 50,
        .resolving_factor = 1199,  // thmcheck power --claims goel.precond.equivalence --seeds 1..20
    };
  }

  // The instances it reads (numerics/instance_schema.hpp): what the generator below draws.
  static InstanceSchema schema() {
    return finite_schema(4).integer("n", 8, 40).real("eta", std::numeric_limits<double>::min(), 1.0);
  }
  static Instance generate(ChoiceSource& src) {
    Instance inst = detail::random_point_finite_instance(src, 40);
    inst.params["eta"] = src.log_real(1e-3, 0.3);
    return inst;
  }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant variant) {
    using std::abs;
    const int n = int_param(inst, "n", 2, 1 << 16);
    const FiniteProblem<T> f = finite_problem<T>(inst, n, data_seed(inst, n, 0));
    const SymmetricRoots<T> hat = symmetric_roots(f.moments.Sigma_hat);
    const T eta(inst.param("eta")), lambda = f.g.lambda;
    // One iteration of Algorithm 1 itself (train, the code every rate and risk claim runs), in (A, B); the control
    // runs it without the preconditioner.
    TrainOptions o;
    o.iterations = 1;
    o.eta = inst.param("eta");
    o.lambda = to_double(lambda);  // the instance's double, lifted exactly
    o.regularizer = Regularizer::balancing;
    o.precondition = variant == Variant::claim;
    o.mask_self = true;
    o.record_distance = false;
    const FactorManifold<T> S = factor_manifold(f.g.task.Z, f.g.rank);
    const ParamPair<T> stepped = train(ParamPair<T>{f.g.A, f.g.B}, f.X, f.Y, f.moments, f.g.task, S, o).final;
    const Factors<T> p0 = to_factors(f.g.A, f.g.B, hat);
    const Factors<T> lhs = to_factors(stepped.A, stepped.B, hat);
    // One GD step on the same objective in (P, Q): L_n on whitened tokens X Sigma_hat^{-1/2} plus R(P, Q).
    const Mat<T> Xw = f.X * hat.inv_sqrt;
    ParamPair<T> gw = finite_gradient(p0.P, p0.Q, Xw, f.Y, true);
    const Factors<T> grw = regularizer_gradient(p0, Regularizer::balancing, lambda);
    const Factors<T> rhs{p0.P - eta * (gw.A + grw.P), p0.Q - eta * (gw.B + grw.Q)};
    const Vec<T> ev = hat.eigenvalues;
    const T kappa = ev(ev.size() - 1) / ev(0);
    T logit = 0;
    const Mat<T> K = f.X * f.g.B * f.X.transpose();
    for (Eigen::Index i = 0; i < K.size(); ++i) logit = std::max<T>(logit, abs(K.data()[i]));
    using std::sqrt;
    const T tol = detail::chain_eps<T>(n + f.g.k + f.g.d) * kappa * (T(1) + logit) *
                  (sqrt(squared_norm(p0)) + eta * sqrt(gw.A.squaredNorm() + gw.B.squaredNorm() + squared_norm(grw)));
    Evaluation e;
    e.conditions.push_back(make_le<T>(variant == Variant::claim ? "||(P, Q)(preconditioned step in (A, B)) - GD step in (P, Q)|| <= rounding"
                                                                : "||(P, Q)(plain step in (A, B)) - GD step in (P, Q)|| <= rounding",
                                      T(sqrt(squared_norm(lhs - rhs))), tol, T(0)));
    e.observations = {{"n", double(n)}, {"kappa(Sigma_hat)", to_double(kappa)}, {"max |logit|", to_double(logit)}};
    return e;
  }

  // The same two computations on intervals, for the instance's exact data: Sigma_hat = X^T X / n and its roots
  // enclosed, Algorithm 1's step (algorithm1_step, the code train runs) from the gradients of L_n and R on intervals,
  // and the GD step in (P, Q) on the whitened tokens; their exact difference (0) certified against the allowance the
  // double evaluation states. The control (no preconditioner) differs by far more.
  static Certification certify(const Instance& inst, int digits, Variant variant) {
    using I = mpfi_dynamic;
    const Evaluation at_double = evaluate<double>(inst, variant);
    const int n = int_param(inst, "n", 2, 1 << 16);
    const FiniteProblem<double> f = finite_problem<double>(inst, n, data_seed(inst, n, 0));
    const IntervalPrecision guard(static_cast<unsigned>(digits));
    const IMat X = to_interval(f.X), Y = to_interval(f.Y), A = to_interval(f.g.A), B = to_interval(f.g.B);
    const I eta(inst.param("eta")), lambda(inst.param("lambda"));
    const IntervalRoots r = enclose_spd_roots(IMat(X.transpose() * X / I(n)));
    SymmetricRoots<I> hat;
    hat.sqrt = r.sqrt;
    hat.inv_sqrt = r.inv_sqrt;
    hat.inv = r.inv;
    ParamPair<I> g = finite_gradient(A, B, X, Y, true);
    const Factors<I> p0 = to_factors(A, B, hat);
    const ParamPair<I> gr = gradient_to_params(regularizer_gradient(p0, Regularizer::balancing, lambda), hat);
    g.A += gr.A;
    g.B += gr.B;
    ParamPair<I> stepped{A, B};
    algorithm1_step(stepped, g, hat.inv, hat.inv, eta, variant == Variant::claim);
    const Factors<I> lhs = to_factors(stepped.A, stepped.B, hat);
    const ParamPair<I> gw = finite_gradient(p0.P, p0.Q, IMat(X * hat.inv_sqrt), Y, true);
    const Factors<I> grw = regularizer_gradient(p0, Regularizer::balancing, lambda);
    const Factors<I> rhs{p0.P - eta * (gw.A + grw.P), p0.Q - eta * (gw.B + grw.Q)};
    const Factors<I> d = lhs - rhs;
    return combine(certify_within_allowance(at_double, {sqrt(I(squared_frobenius(d.P) + squared_frobenius(d.Q)))}),
                   "MPFI: Sigma_hat's roots enclosed, Algorithm 1's step and the whitened GD step on intervals");
  }
};

}  // namespace thm::goel

THM_REGISTER_CLAIM(thm::goel::PrecondEquivalence)
