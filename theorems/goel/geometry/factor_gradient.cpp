// goel.geometry.factor_gradient (derived; docs/derivations/goel.geometry.factor_gradient.md)
//
// The geometry claims (one-point strong convexity, smoothness, local contraction) and Algorithm 1's population
// reading evaluate grad Qobj in closed form:
//   Qobj(P, Q) = 1/2 ||P Q^T - Z*||_F^2 + R(P, Q),  grad_P = E Q + grad_P R,  grad_Q = E^T P + grad_Q R,  E = P Q^T - Z*,
// R the balancing regulariser lambda/8 ||P^T P - Q^T Q||^2 or its scale-invariant variant. This claim checks the
// closed form against the objective itself:
//   for each factor F in {P, Q} and a random unit direction V_F: <grad_F Qobj, V_F> = d/ds Qobj(theta + s V_F) at 0,
//   the derivative from values alone (numerics/directional_derivative.hpp), within its truncation and rounding.
// Negative control: the regulariser's gradient dropped (grad of 1/2 ||P Q^T - Z*||^2 alone, against the derivative
// of the regularised objective): it holds where R is stationary (a balanced point).
#include "numerics/directional_derivative.hpp"
#include "numerics/models/goel/attention_regression.hpp"
#include "numerics/random_matrix.hpp"
#include "theorems/goel/generators.hpp"
#include "theorems/goel/noise.hpp"
#include "theorems/register_claim.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

namespace thm::goel {

struct FactorGradient {
  static ClaimInfo info() {
    return {
        .id = "goel.geometry.factor_gradient",
        .source = "G",
        .provenance = Provenance::derived,
        .kind = ClaimKind::identity,
        .statement = "Qobj(P, Q) = 1/2 ||P Q^T - Z*||^2 + R (balancing or scale-invariant): for F in {P, Q} and a random unit "
                     "direction V_F, <grad_F Qobj, V_F> = d/ds Qobj(theta + s V_F) at 0 (Richardson central differences), "
                     "within their truncation and rounding",
        .negative_control = "the regulariser's gradient dropped from grad Qobj",
        .default_cases = 100,
        .resolving_factor = 348.5,  // thmcheck power --claims goel.geometry.factor_gradient --seeds 1..20
    };
  }

  static InstanceSchema schema() { return population_schema({6, 5}).integer("regularizer", 1, 2); }
  static Instance generate(ChoiceSource& src) {
    GSpec s;
    s.d = sized_dimension(src, 1, 5);
    s.k = sized_dimension(src, 1, 6);
    s.rank = static_cast<int>(src.integer(1, std::min(s.k, s.d)));
    detail::draw_problem(src, s);
    s.point = GPoint::random;
    s.param_scale = src.log_real(0.2, 2.0);
    s.entropy = src.entropy();
    Instance inst = build_goel(s);
    inst.params["regularizer"] = static_cast<double>(src.integer(1, 2));  // Regularizer::balancing, scale_invariant
    return inst;
  }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant variant) {
    using std::abs;
    using std::sqrt;
    const GProblem<T> g = lift_goel<T>(inst);
    const Regularizer kind = inst.param("regularizer") == 1 ? Regularizer::balancing : Regularizer::scale_invariant;
    const Factors<T> theta = to_factors(g.A, g.B, g.task.roots);
    const Mat<T>& Z = g.task.Z;
    const Factors<T> grad = variant == Variant::claim ? factor_gradient(theta, Z, kind, g.lambda)
                                                      : factor_gradient(theta, Z, Regularizer::none, g.lambda);
    const T u = epsilon<T>();
    const T p = theta.P.norm(), q = theta.Q.norm();
    // Rounding of one value of Qobj near theta: the chain P Q^T - Z* squared, and the regulariser's quartic.
    const T ce = detail::chain_eps<T>(g.k + g.d);
    const T delta = ce * (T(1) + g.lambda) * (T(p * q + Z.norm()) * T(p * q + Z.norm()) + T(p * p + q * q) * T(p * p + q * q));
    const T grad_noise = detail::gradient_noise(g, theta);
    Rng rng(static_cast<std::uint64_t>(inst.param("entropy")) + 2);  // directions: a stream apart from the entries
    Evaluation e;
    for (int which = 0; which < 2; ++which) {
      const Mat<T>& F = which == 0 ? theta.P : theta.Q;
      MatD v = gaussian_matrix(rng, static_cast<int>(F.rows()), static_cast<int>(F.cols()));
      v /= v.norm();
      const Mat<T> V = lift<T>(v);
      const T h = sqrt(sqrt(u)) * std::max<T>(T(1), T(F.norm()));
      const auto along = [&](const T& s) {
        Factors<T> f = theta;
        (which == 0 ? f.P : f.Q) += s * V;
        return factor_objective(f, Z, kind, g.lambda);
      };
      const DirectionalDerivative<T> dd = directional_derivative<T>(along, h);
      const T inner = (which == 0 ? grad.P : grad.Q).cwiseProduct(V).sum();
      const T tol = dd.truncation + directional_rounding(delta, h) + grad_noise;
      const std::string name = which == 0 ? "P" : "Q";
      e.conditions.push_back(make_le<T>("|<grad_" + name + " Qobj, V> - dQobj/ds|", T(abs(T(inner - dd.value))), tol, T(0)));
      e.observations.emplace_back("<grad_" + name + " Qobj, V>", to_double(inner));
    }
    e.observations.emplace_back("lambda", to_double(g.lambda));
    e.observations.emplace_back("regulariser", inst.param("regularizer"));
    return e;
  }
};

}  // namespace thm::goel

THM_REGISTER_CLAIM(thm::goel::FactorGradient)
