// Shared pieces of the [G] generators (theorems/goel/generators.hpp). Sigma is spectrum-first with a chosen
// condition number, Z* = M Sigma^{1/2} has a chosen rank and singular values, and the point theta sits at a chosen
// P-distance from S, along a random direction or along the directions where the one-point bounds are tightest.
#include "theorems/goel/generators.hpp"

#include "theorems/goel/constants.hpp"

#include <cmath>

namespace thm {

namespace detail {

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

namespace {

// Sigma with eigenvalues in [1/4, 4] and Sigma != I, so that the negative controls bite: condition
// number in [2, 16] for d >= 2; for d = 1, |log sigma^2| >= log(2)/2 (derivations, "Generator").
void draw_population_sigma(ChoiceSource& src, GSpec& s) {
  if (s.d >= 2) {
    s.sigma_kappa = src.log_real(2.0, 16.0);
    s.sigma_max = src.log_real(0.25 * s.sigma_kappa, 4.0);
  } else {
    s.sigma_kappa = 1.0;
    s.sigma_max = src.coin(0.5) ? src.log_real(0.25, std::sqrt(0.5)) : src.log_real(std::sqrt(2.0), 4.0);
  }
}

}  // namespace

GSpec population_spec(ChoiceSource& src) {
  GSpec s;
  s.d = sized_dimension(src, 1, 4);
  s.k = sized_dimension(src, 1, 4);
  s.rank = 1;
  draw_population_sigma(src, s);
  s.point = GPoint::random;
  s.param_scale = 1.0;
  return s;
}

}  // namespace detail

Instance generate_one_point_region(ChoiceSource& src) {
  GSpec s;
  s.d = sized_dimension(src, 1, detail::kDimCap - 1);
  s.k = s.d + static_cast<int>(src.integer(0, 3));
  s.rank = s.d;
  detail::draw_problem(src, s);
  // Random directions, and the two directions where the derived bounds are tightest (derivation,
  // "Measured looseness"): the complement of U (curvature sigma_r) and the antisymmetric one.
  const double u = src.real(0.0, 1.0);
  s.point = u < 0.6 ? GPoint::random_direction : (u < 0.8 && s.k > s.d ? GPoint::complement : GPoint::antisymmetric);
  // Anywhere in the region, down to 1e-3 rho, and often right at its edge.
  s.delta = detail::rho_of(s) * (src.coin(0.3) ? src.real(0.9, 0.999) : src.log_real(1e-3, 0.999));
  s.entropy = src.entropy();
  return build_goel(s);
}

}  // namespace thm
