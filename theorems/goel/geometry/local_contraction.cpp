// goel.geometry.local_contraction (reconstruction; docs/derivations/goel.geometry.local_contraction.md)
//
// Local linear convergence of GD on (P, Q) (= preconditioned GD on (A, B)) from the one-point region.
//
//   eta = alpha / beta_s, theta_0 in the region: dist_{t+1}^2 <= mu dist_t^2, mu = 1 - 2 eta alpha + eta^2 beta_s,
//   at each of kContractionSteps steps.
//   Negative control: alpha scaled by control_factor in mu (the knob of thmcheck power), a contraction that could
//   hold were the one-point constants that much better (derivation).
#include "numerics/models/goel/factor_manifold.hpp"
#include "theorems/goel/generators.hpp"
#include "theorems/goel/one_point.hpp"
#include "theorems/goel/one_point_interval.hpp"
#include "theorems/register_claim.hpp"

#include <cmath>
#include <cstdio>
#include <string>

namespace thm::goel {

inline constexpr int kContractionSteps = 20;  // GD steps checked

struct LocalContraction {
  static ClaimInfo info() {
    return {
        .id = "goel.geometry.local_contraction",
        .source = "G",
        .provenance = Provenance::reconstruction,
        .kind = ClaimKind::trajectory,
        .statement = "GD in (P, Q) (= preconditioned GD in (A, B)) with eta = alpha / beta_s from theta_0 in the region: "
                     "dist_{t+1}^2 <= (1 - 2 eta alpha + eta^2 beta_s) dist_t^2 for 20 steps",
        .negative_control = "alpha multiplied by control_factor in mu = 1 - 2 eta alpha + eta^2 beta_s (eta fixed)",
        .uses = {"goel.geometry.one_point_strong_convexity", "goel.geometry.one_point_smoothness"},
        .default_cases = 60,
        .power_knob = "alpha in mu = 1 - 2 eta alpha + eta^2 beta_s (the step eta fixed)",
        .control_factor = 4,
        .resolving_factor = 2.566,
    };
  }

  // Full rank, inside rho (theorems/goel/generators.hpp).
  // The instances it reads (numerics/instance_schema.hpp): what the generator below draws.
  static InstanceSchema schema() {
    return one_point_region_schema();
  }
  static Instance generate(ChoiceSource& src) { return generate_one_point_region(src); }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant) {
    using std::abs;
    using std::sqrt;
    const detail::OnePointSetting<T> s = detail::one_point_setting<T>(inst, Variant::claim);
    const std::string why = detail::one_point_discard(s);
    if (!why.empty()) return Evaluation::discarded(why);
    const T eta = s.c.eta;
    const T mu = s.c.mu;
    const T ce = detail::chain_eps<T>(s.g.k + s.g.d);
    Evaluation e;
    Factors<T> theta = s.theta;
    Projection<T> pr = s.proj;
    e.add_point("dist_P^2", "t", 0, to_double(T(pr.distance * pr.distance)));
    for (int t = 0; t < kContractionSteps; ++t) {
      const Factors<T> grad = factor_gradient(theta, s.g.task.Z, Regularizer::balancing, s.g.lambda);
      const T e_step = eta * detail::gradient_noise(s.g, theta) + ce * sqrt(squared_norm(theta));
      theta.P -= eta * grad.P;
      theta.Q -= eta * grad.Q;
      const Projection<T> next = project_onto_manifold(s.S, theta);
      const T d0 = pr.distance, d1 = next.distance;
      const T e_w = ce * s.sigma_1 / sqrt(s.sigma_r) + (t == 0 ? s.e_w : T(0));
      const T noise = T(2) * d1 * (e_w + e_step) + T(2) * mu * d0 * e_w + ce * (d1 * d1 + mu * d0 * d0);
      // Strength (thmcheck power): the largest k with dist_{t+1}^2 <= (1 - 2 eta k alpha + eta^2 beta_s) dist_t^2.
      const T two_eta_alpha_d0 = T(2) * eta * s.c.alpha * d0 * d0;
      const T k = (T(T(1) + eta * eta * s.c.beta_s) * d0 * d0 - d1 * d1) / two_eta_alpha_d0;
      e.conditions.push_back(with_strength(make_le<T>("step " + std::to_string(t) + ": dist_{t+1}^2 <= mu dist_t^2", T(d1 * d1),
                                                      T(mu * d0 * d0), noise),
                                           to_double(k), to_double(T(noise / two_eta_alpha_d0 / abs(k)))));
      e.add_point("dist_P^2", "t", double(t + 1), to_double(T(d1 * d1)));
      pr = next;
    }
    e.observations.emplace_back("mu", to_double(mu));
    e.observations.emplace_back("eta", to_double(eta));
    const std::vector<double>& dist2 = e.series.front().y;  // dist_P^2 at t = 0..kContractionSteps
    const double first = dist2.front(), last = dist2[kContractionSteps];
    e.observations.emplace_back("observed per-step contraction of dist^2", std::pow(last / first, 1.0 / kContractionSteps));
    detail::one_point_observations(e, s);
    return e;
  }

  // The double run's iterates theta_t (exact points, from its computed theta_0) against the exact S: each
  // dist_{t+1}^2 <= mu dist_t^2 with mu = 1 - 2 eta k alpha + eta^2 beta_s exact (eta = alpha / beta_s; k = 1, or
  // control_factor for the control); the note bounds each computed step's distance from the exact GD step.
  static Certification certify(const Instance& inst, int digits, Variant variant) {
    using I = mpfi_dynamic;
    const detail::OnePointSetting<double> sd = detail::one_point_setting<double>(inst, Variant::claim);
    if (const std::string why = detail::one_point_discard(sd); !why.empty()) return certified_discard("the double run's hypotheses: " + why);
    std::vector<Factors<double>> path{sd.theta};
    for (int t = 0; t < kContractionSteps; ++t) {
      const Factors<double> grad = factor_gradient(path.back(), sd.g.task.Z, Regularizer::balancing, sd.g.lambda);
      path.push_back({path.back().P - sd.c.eta * grad.P, path.back().Q - sd.c.eta * grad.Q});
    }
    const IntervalPrecision guard(static_cast<unsigned>(digits));
    std::optional<Certification> refusal;
    const detail::IntervalOnePoint s = detail::interval_one_point(inst, refusal);
    if (refusal) return *refusal;
    const double k = variant == Variant::claim ? 1.0 : info().control_factor;
    const I mu = I(1) - I(2) * s.eta * I(k) * s.alpha + s.eta * s.eta * s.beta_s;
    const auto point = [](const Factors<double>& f) { return Factors<I>{to_interval(f.P), to_interval(f.Q)}; };
    detail::IntervalProjection prev = detail::interval_projection(s.S, point(path.front()));
    if (const auto outside = detail::region_refusal(prev, s.rho)) return *outside;
    std::vector<CertifiedCondition> conds;
    mpfr_dynamic step_error(0);
    for (int t = 0; t < kContractionSteps; ++t) {
      const Factors<I> theta = point(path[static_cast<std::size_t>(t)]), next = point(path[static_cast<std::size_t>(t + 1)]);
      const Factors<I> grad = factor_gradient(theta, s.g.task.Z, Regularizer::balancing, s.g.lambda);
      const Factors<I> exact{theta.P - s.eta * grad.P, theta.Q - s.eta * grad.Q};
      step_error = std::max(step_error, upper(I(sqrt(detail::factor_squared_norm(next - exact)))));
      const detail::IntervalProjection p = detail::interval_projection(s.S, next);
      conds.push_back(certify_le((k == 1.0 ? "" : "[alpha x " + exact_decimal(k) + "] ") + std::string("step ") + std::to_string(t) +
                                     ": dist_{t+1}^2 <= mu dist_t^2",
                                 I(p.distance * p.distance), I(mu * prev.distance * prev.distance)));
      prev = p;
    }
    char note[160];
    std::snprintf(note, sizeof note, "MPFI at the computed iterates; each computed step within %.2e of the exact GD step (eta = alpha/beta_s)",
                  upper_double(I(step_error)));
    return combine(std::move(conds), note);
  }
};

}  // namespace thm::goel

THM_REGISTER_CLAIM(thm::goel::LocalContraction)
