// goel.geometry.one_point_smoothness (reconstruction; docs/derivations/goel.geometry.one_point_smoothness.md)
//
// One-point smoothness of the population objective in (P, Q) near S, in the region of the strong-convexity claim.
//
//   same region: ||grad Qobj||_{P^{-1}}^2 <= beta_s dist_P^2, beta_s = 2 (1 + lambda)^2 (sqrt(sigma_1) + rho)^2
//   (sqrt(2 sigma_1) + rho/2)^2.
//   Negative control: beta_s divided by control_factor (the knob of thmcheck power; derivation).
#include "numerics/models/goel/factor_manifold.hpp"
#include "theorems/goel/generators.hpp"
#include "theorems/goel/one_point.hpp"
#include "theorems/goel/tightness.hpp"
#include "theorems/goel/one_point_interval.hpp"
#include "theorems/register_claim.hpp"

#include <cmath>
#include <string>

namespace thm::goel {

struct OnePointSmoothness {
  static ClaimInfo info() {
    return {
        .id = "goel.geometry.one_point_smoothness",
        .source = "G",
        .provenance = Provenance::reconstruction,
        .kind = ClaimKind::inequality,
        .statement = "same region: ||grad Qobj||_{P^-1}^2 <= beta_s dist_P^2, beta_s = 2 (1 + lambda)^2 (sqrt(sigma_1) + "
                     "rho)^2 (sqrt(2 sigma_1) + rho/2)^2",
        .negative_control = "beta_s divided by control_factor",
        .uses = {"goel.manifold.global_minima"},
        .default_cases = 200,
        .power_knob = "beta_s divided by k",
        .control_factor = 2,
        .resolving_factor = 1.557,
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
    using std::sqrt;
    const detail::OnePointSetting<T> s = detail::one_point_setting<T>(inst, Variant::claim);
    const std::string why = detail::one_point_discard(s);
    if (!why.empty()) return Evaluation::discarded(why);
    const Factors<T> grad = factor_gradient(s.theta, s.g.task.Z, Regularizer::balancing, s.g.lambda);
    const T dist = s.proj.distance, g2 = squared_norm(grad), gn = sqrt(g2);
    const T beta = s.c.beta_s;
    const T e_g = detail::gradient_noise(s.g, s.theta), ce = detail::chain_eps<T>(s.g.k + s.g.d);
    const T noise = T(2) * gn * e_g + e_g * e_g + ce * g2 + beta * (T(2) * dist * s.e_w + s.e_w * s.e_w);
    Evaluation e;
    e.conditions.push_back(make_le<T>("||grad Qobj||_{P^-1}^2 <= beta_s dist_P^2", g2, T(beta * dist * dist), noise));
    e.observations.emplace_back("||grad||^2 / dist_P^2", to_double(T(g2 / (dist * dist))));
    e.observations.emplace_back("(||grad||^2 / dist_P^2) / beta_s", to_double(T(g2 / (s.c.beta_s * dist * dist))));
    detail::one_point_observations(e, s);
    return e;
  }

  // The hill-climbing search for the largest ||grad||^2 / dist^2 in the region (theorems/goel/tightness.hpp).
  static std::vector<Tightness> tightness(std::uint64_t seed) { return one_point_smoothness_tightness(seed); }

  // As goel.geometry.one_point_strong_convexity's certificate; the control divides beta_s by control_factor.
  static Certification certify(const Instance& inst, int digits, Variant variant) {
    const IntervalPrecision guard(static_cast<unsigned>(digits));
    std::optional<Certification> refusal;
    const detail::IntervalOnePoint s = detail::interval_one_point(inst, refusal);
    if (refusal) return *refusal;
    const detail::IntervalProjection p = detail::interval_projection(s.S, s.theta);
    if (const auto outside = detail::region_refusal(p, s.rho)) return *outside;
    const Factors<mpfi_dynamic> grad = factor_gradient(s.theta, s.g.task.Z, Regularizer::balancing, s.g.lambda);
    const mpfi_dynamic beta = variant == Variant::claim ? s.beta_s : mpfi_dynamic(s.beta_s / mpfi_dynamic(info().control_factor));
    return combine({certify_le(variant == Variant::claim ? "||grad Qobj||_{P^-1}^2 <= beta_s dist_P^2"
                                                         : "||grad Qobj||_{P^-1}^2 <= (beta_s / " + exact_decimal(info().control_factor) + ") dist_P^2",
                               detail::factor_squared_norm(grad), mpfi_dynamic(beta * p.distance * p.distance))},
                   "MPFI: Z*, S = its balanced factorisations (nested SPD roots), the Procrustes gauge enclosed");
  }
};

}  // namespace thm::goel

THM_REGISTER_CLAIM(thm::goel::OnePointSmoothness)
