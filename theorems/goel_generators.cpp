// Generators of the [G] claims. Sigma is spectrum-first with a chosen condition number, Z* = M Sigma^{1/2}
// has a chosen rank and singular values, and the point theta sits at a chosen P-distance from S, along a
// random direction or along the directions where the one-point bounds are tightest.
#include "theorems/goel_constants.hpp"
#include "theorems/goel_geometry.hpp"
#include "theorems/goel_instance.hpp"
#include "theorems/goel_population.hpp"

#include <cmath>

namespace thm {

namespace {

constexpr int kDimCap = 6;

// Sigma, Z* and lambda (the population problem), with d already set.
void draw_problem(ChoiceSource& src, GSpec& s) {
  s.sigma_max = src.log_real(0.5, 4.0);
  s.sigma_kappa = src.log_real(1.0, 100.0);
  s.z_max = src.log_real(0.1, 10.0);
  s.z_kappa = src.log_real(1.0, 30.0);
  s.lambda = src.log_real(0.1, 10.0);
  s.noise_sd = src.real(0.0, 1.0);
}

double rho_of(const GSpec& s) {
  const double sigma_r = s.rank == 1 ? s.z_max : s.z_max / s.z_kappa;
  return one_point_constants<double>(s.z_max, sigma_r, s.lambda).rho;
}

}  // namespace

Instance generate_global_minima(ChoiceSource& src) {
  GSpec s;
  s.d = sized_dimension(src, 1, kDimCap);
  s.k = sized_dimension(src, 1, kDimCap);
  s.rank = static_cast<int>(src.integer(1, std::min(s.k, s.d)));
  draw_problem(src, s);
  s.point = GPoint::random_direction;
  s.delta = src.log_real(0.01, 1.0) * std::sqrt(s.z_max);
  s.gauges = true;
  s.gauge_kappa = src.log_real(1.0, 10.0);
  s.entropy = src.entropy();
  return build_goel(s);
}

Instance generate_one_point_region(ChoiceSource& src) {
  GSpec s;
  s.d = sized_dimension(src, 1, kDimCap - 1);
  s.k = s.d + static_cast<int>(src.integer(0, 3));
  s.rank = s.d;
  draw_problem(src, s);
  // Random directions, and the two directions where the derived bounds are tightest (derivation,
  // "Measured looseness"): the complement of U (curvature sigma_r) and the antisymmetric one.
  const double u = src.real(0.0, 1.0);
  s.point = u < 0.6 ? GPoint::random_direction : (u < 0.8 && s.k > s.d ? GPoint::complement : GPoint::antisymmetric);
  // Anywhere in the region, down to 1e-3 rho, and often right at its edge.
  s.delta = rho_of(s) * (src.coin(0.3) ? src.real(0.9, 0.999) : src.log_real(1e-3, 0.999));
  s.entropy = src.entropy();
  return build_goel(s);
}

Instance generate_one_point_strong_convexity(ChoiceSource& src) {
  // One case in four (for d >= 2): Z* of rank r < d, theta displaced along the quartic direction
  // (claims.md): outside the claim's hypothesis, so discarded by the claim and caught by its control.
  if (!src.coin(0.25)) return generate_one_point_region(src);
  GSpec s;
  s.d = sized_dimension(src, 2, kDimCap - 1);
  s.k = s.d + static_cast<int>(src.integer(0, 2));
  s.rank = static_cast<int>(src.integer(1, s.d - 1));
  draw_problem(src, s);
  s.point = GPoint::quartic;
  s.delta = rho_of(s) * src.log_real(1e-3, 0.999);
  s.entropy = src.entropy();
  return build_goel(s);
}

}  // namespace thm

namespace thm {

namespace {

// Sigma with eigenvalues in [1/4, 4] and condition number in [2, 16] (so Sigma != I: the controls bite).
void draw_population_sigma(ChoiceSource& src, GSpec& s) {
  s.sigma_kappa = src.log_real(2.0, 16.0);
  s.sigma_max = src.log_real(0.25 * s.sigma_kappa, 4.0);
}

}  // namespace

Instance generate_tilting_identity(ChoiceSource& src) {
  GSpec s;
  s.d = sized_dimension(src, 1, 4);
  s.k = sized_dimension(src, 1, 4);
  s.rank = 1;
  draw_population_sigma(src, s);
  s.point = GPoint::random;
  s.param_scale = 1.0 / std::sqrt(double(s.d));
  s.query = true;
  s.logit_var = src.log_real(0.05, kTiltingLogitVarMax);
  s.entropy = src.entropy();
  s.mc_seed = src.entropy();
  return build_goel(s);
}

Instance generate_matrix_factorization(ChoiceSource& src) {
  GSpec s;
  s.d = sized_dimension(src, 1, 4);
  s.k = sized_dimension(src, 1, 4);
  s.rank = std::min(s.k, s.d);
  draw_population_sigma(src, s);
  s.z_max = src.log_real(0.3, 3.0);
  s.z_kappa = src.log_real(1.0, 10.0);
  s.noise_sd = src.real(0.0, 0.5);
  s.point = GPoint::random;
  s.param_scale = 1.0 / std::sqrt(double(s.d));
  // Logits q^T B x have variance about tr(Sigma B Sigma B^T) ~ 1/4: moderate softmax weights.
  s.b_scale = 0.5 / (s.sigma_max * s.d);
  s.entropy = src.entropy();
  s.mc_seed = src.entropy();
  return build_goel(s);
}

Instance generate_invariances(ChoiceSource& src) {
  GSpec s;
  s.d = sized_dimension(src, 1, kDimCap);
  s.k = sized_dimension(src, 1, kDimCap);
  s.rank = std::min(s.k, s.d);
  draw_problem(src, s);
  s.point = GPoint::random;
  s.param_scale = src.log_real(0.1, 3.0);
  s.gauges = true;
  s.gauge_kappa = src.log_real(1.0, 10.0);
  s.entropy = src.entropy();
  return build_goel(s);
}

}  // namespace thm
