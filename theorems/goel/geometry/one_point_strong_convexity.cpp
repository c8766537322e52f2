// goel.geometry.one_point_strong_convexity (reconstruction; docs/derivations/goel.geometry.one_point_strong_convexity.md)
//
// One-point strong convexity of the population objective f = 1/2 ||P Q^T - Z*||_F^2 + lambda/8 ||P^T P - Q^T Q||_F^2
// in (P, Q) near the manifold S of global minima (constants in theorems/goel/constants.hpp).
//
//   rank(Z*) = d, dist_P(theta, S) <= rho: <grad Qobj, theta - proj_S theta> >= alpha dist_P^2,
//   alpha = min(1, lambda) sigma_r / 2, rho = min(1, lambda) sigma_r / (3 sqrt2 (1 + lambda) sqrt(sigma_1)).
//   Negative control: the hypothesis rank(Z*) = d dropped (the generator adds rank-deficient instances
//   displaced along a quartic direction, where the inequality fails).
#include "numerics/models/goel/factor_manifold.hpp"
#include "theorems/goel/generators.hpp"
#include "theorems/goel/one_point.hpp"
#include "theorems/goel/tightness.hpp"
#include "theorems/goel/one_point_interval.hpp"
#include "theorems/register_claim.hpp"

#include <cmath>
#include <string>

namespace thm::goel {

struct OnePointStrongConvexity {
  static ClaimInfo info() {
    return {
        .id = "goel.geometry.one_point_strong_convexity",
        .source = "G",
        .provenance = Provenance::reconstruction,
        .kind = ClaimKind::inequality,
        .statement = "rank(Z*) = d, dist_P(theta, S) <= rho: <grad Qobj, theta - proj_S theta> >= alpha dist_P^2, alpha = "
                     "min(1, lambda) sigma_r / 2, rho = min(1, lambda) sigma_r / (3 sqrt2 (1 + lambda) sqrt(sigma_1))",
        .negative_control = "the hypothesis rank(Z*) = d dropped (rank-deficient Z*, quartic direction)",
        .uses = {"goel.manifold.global_minima"},
        .default_cases = 200,
        .resolving_factor = 2,  // thmcheck power --claims goel.geometry.one_point_strong_convexity --seeds 1..20
    };
  }

  // The one-point region's instances, and one case in four (for d >= 2) rank-deficient and quartic.
  // The instances it reads (numerics/instance_schema.hpp): what the generator below draws.
  static InstanceSchema schema() {
    return one_point_region_schema();
  }
  static Instance generate(ChoiceSource& src) {
    // One case in four (for d >= 2): Z* of rank r < d, theta displaced along the quartic direction
    // (docs/spec/claims.md): outside the claim's hypothesis, so discarded by the claim and caught by its control.
    if (!src.coin(0.25)) return generate_one_point_region(src);
    GSpec s;
    s.d = sized_dimension(src, 2, detail::kDimCap - 1);
    s.k = s.d + static_cast<int>(src.integer(0, 2));
    s.rank = static_cast<int>(src.integer(1, s.d - 1));
    detail::draw_problem(src, s);
    s.point = GPoint::quartic;
    s.delta = detail::rho_of(s) * src.log_real(1e-3, 0.999);
    s.entropy = src.entropy();
    return build_goel(s);
  }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant variant) {
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

  // The hill-climbing search for the smallest <grad, Delta> / dist^2 in the region (theorems/goel/tightness.hpp).
  static std::vector<Tightness> tightness(std::uint64_t seed) { return one_point_convexity_tightness(seed); }

  // S as the balanced factorisations of the exact Z* (theorems/goel/one_point_interval.hpp), the projection by the
  // enclosed Procrustes gauge, the region certified, then the margin enclosed. The control drops rank(Z*) = d: the
  // same at the instance's rank.
  static Certification certify(const Instance& inst, int digits, Variant variant) {
    const IntervalPrecision guard(static_cast<unsigned>(digits));
    std::optional<Certification> refusal;
    const detail::IntervalOnePoint s = detail::interval_one_point(inst, refusal, variant != Variant::claim);
    if (refusal) return *refusal;
    const detail::IntervalProjection p = detail::interval_projection(s.S, s.theta);
    if (const auto outside = detail::region_refusal(p, s.rho)) return *outside;
    const Factors<mpfi_dynamic> grad = factor_gradient(s.theta, s.g.task.Z, Regularizer::balancing, s.g.lambda);
    return combine({certify_le("<grad Qobj, theta - proj_S theta> >= alpha dist_P^2", mpfi_dynamic(s.alpha * p.distance * p.distance),
                               inner(grad, s.theta - p.point))},
                   "MPFI: Z*, S = its balanced factorisations (nested SPD roots), the Procrustes gauge enclosed");
  }
};

}  // namespace thm::goel

THM_REGISTER_CLAIM(thm::goel::OnePointStrongConvexity)
