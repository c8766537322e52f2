// The Algorithm-1 claims' population problem and the generators the cli experiments share
// (theorems/goel/algorithm.hpp).
#include "theorems/goel/algorithm.hpp"

#include "numerics/models/goel/population_instance.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace thm {

namespace detail {

GSpec finite_spec(ChoiceSource& src, int d_cap, double kappa_max, int d_min, double kappa_min) {
  GSpec s;
  s.d = sized_dimension(src, d_min, d_cap);
  s.k = s.d + static_cast<int>(src.integer(0, 1));
  s.rank = s.d;
  s.sigma_max = src.log_real(0.5, 2.0);
  s.sigma_kappa = src.log_real(kappa_min, kappa_max);
  s.z_max = src.log_real(0.3, 1.0);
  s.z_kappa = src.log_real(1.0, 3.0);
  s.lambda = kAlgorithmLambda;
  s.noise_sd = src.real(0.05, 0.3);
  s.data = true;
  return s;
}

Instance random_point_finite_instance(ChoiceSource& src, int n_max) {
  GSpec s = finite_spec(src, 4, 100.0);
  s.point = GPoint::random;
  s.param_scale = 0.5 / std::sqrt(double(s.d));
  s.entropy = src.entropy();
  s.mc_seed = src.entropy();
  Instance inst = build_goel(s);
  inst.params["n"] = static_cast<double>(src.integer(std::max(8, 2 * s.d + 2), n_max));
  return inst;
}

Instance spectral_start_instance(ChoiceSource& src) {
  GSpec s = finite_spec(src, 4, 100.0);
  s.k = sized_dimension(src, 1, 4);
  s.rank = std::min(s.k, s.d);
  s.entropy = src.entropy();
  s.mc_seed = src.entropy();
  Instance inst = build_goel(s);
  inst.params["n"] = static_cast<double>(src.integer(std::max(8, 2 * s.d + 2), 64));
  return inst;
}

}  // namespace detail


Instance generate_geometric_in_m(ChoiceSource& src) {
  // The same Z*, eigenvectors of Sigma and data seed for kappa(Sigma) in {1, 10, 100}: three builds from
  // one entropy (the generator draws Sigma's eigenvectors first), stored with suffixes _k1, _k10, _k100.
  GSpec s = detail::finite_spec(src, 3, 1.0, 2);  // d >= 2: for d = 1, kappa(Sigma) = 1 always
  s.sigma_max = 2.0;
  s.entropy = src.entropy();
  s.mc_seed = src.entropy();
  Instance inst;
  for (double kappa : kRateKappas) {
    s.sigma_kappa = kappa;
    const Instance v = build_goel(s);
    if (inst.family.empty()) {
      inst.family = v.family;
      inst.params = v.params;
    }
    for (const auto& [name, m] : v.matrices) inst.matrices[name + "_k" + std::to_string(static_cast<int>(kappa))] = m;
  }
  inst.params.erase("sigma_kappa");
  return inst;
}

namespace {
// The population problem of every risk claim: finite_spec with sigma_1(Z*) in [0.1, 0.24] (sigma_1(Z*) < 1/4, their
// hypothesis); the grid and draws are each generator's.
Instance risk_population(ChoiceSource& src) {
  GSpec s = detail::finite_spec(src, 3, 10.0);
  s.z_max = src.log_real(0.1, 0.24);
  s.entropy = src.entropy();
  s.mc_seed = src.entropy();
  return build_goel(s);
}
}  // namespace

Instance generate_excess_bound(ChoiceSource& src) {
  Instance inst = risk_population(src);
  inst.params["n_min"] = 32;
  const bool full = src.budget() == StudyBudget::full;
  inst.params["n_max"] = full ? kRiskNMaxFull : 256;
  inst.params["seeds"] = kRiskSeeds;
  inst.params["seeds_large"] = full ? kRiskSeedsLargeFull : kRiskSeedsLarge;
  if (full) {
    inst.params["draws_scale"] = kRiskDrawsScaleFull;
    inst.params["seeds_top"] = kRiskSeedsTopFull;
  }
  inst.params["n_large"] = kRiskLargeN;
  inst.params["iterations"] = kRiskIterations;
  return inst;
}

Instance generate_excess_bound_limit(ChoiceSource& src) {
  // The population problems of generate_excess_bound, on the attention limit's grid.
  Instance inst = risk_population(src);
  inst.params["n_min"] = kLimitRiskNMin;
  inst.params["n_max"] = kLimitRiskNMax;
  inst.params["seeds"] = src.budget() == StudyBudget::full ? kLimitRiskDrawsFull : kLimitRiskDraws;
  inst.params["iterations"] = kRiskIterations;
  return inst;
}

Instance generate_baseline(ChoiceSource& src) {
  // kappa(Sigma) in [10, 100] and d >= 2: the regime the preconditioner is for.
  GSpec s = detail::finite_spec(src, 3, 100.0, 2, 10.0);
  s.point = GPoint::random;  // the random start of GD and SGD
  s.param_scale = 0.5 / std::sqrt(double(s.d));
  s.entropy = src.entropy();
  s.mc_seed = src.entropy();
  Instance inst = build_goel(s);
  inst.params["n"] = kBaselineTokens;
  return inst;
}

}  // namespace thm
