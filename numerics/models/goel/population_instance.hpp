// Instances of [G]'s population problem: Sigma (spectrum-first, chosen condition number), M (stored as
// factors M_left M_right^T, so that its rank is exact at every precision) with a chosen rank and
// singular values of Z* = M Sigma^{1/2}, a regularisation weight, and a point (A, B):
// random, or at a chosen P-distance from the manifold S of global minima along a chosen direction.
// Everything is built in double with fixed-order loops from the spec's entropy, and lifted exactly.
#pragma once

#include "numerics/models/goel/factor_manifold.hpp"
#include "numerics/instance.hpp"
#include "numerics/instance_schema.hpp"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace thm {

inline constexpr const char* kGoelFamily = "goel.population";

// How the point theta = (A, B) is chosen.
enum class GPoint {
  random,          // A, B Gaussian with entries N(0, param_scale^2)
  on_manifold,     // theta = (P* O, Q* O) for a random orthogonal O
  random_direction,  // theta = theta_S + delta * Delta, Delta a random unit direction in (P, Q)
  complement,      // Delta_P = n (O^T e_r)^T with n orthogonal to U: the curvature sigma_r direction (k > d)
  antisymmetric,   // Delta = (U_r e_r e_r^T O, -V_r e_r e_r^T O) / sqrt2: the curvature 2 lambda sigma_r direction
  quartic,         // rank r < d: Delta = (n_k, n_d) e_{r+1}^T O / sqrt2, n_k perp U_r, n_d perp V_r (docs/spec/claims.md)
};

struct GSpec {
  int k = 2, d = 2, rank = 2;
  double sigma_max = 1.0, sigma_kappa = 1.0;  // eigenvalues of Sigma: geometric, sigma_max down to sigma_max / kappa
  double z_max = 1.0, z_kappa = 1.0;          // singular values of Z*: geometric over the rank
  double lambda = 1.0;                        // regularisation weight
  double noise_sd = 0.0;                      // s
  GPoint point = GPoint::random;
  double param_scale = 1.0;  // GPoint::random: entries of A (and of B unless b_scale > 0)
  double b_scale = 0.0;
  double delta = 0.0;        // distance along Delta for the directional points
  // Extra data of some claims: a query q with B rescaled so that w^T Sigma w = logit_var (w = B^T q);
  // gauges: G (kappa(G) = gauge_kappa), an orthogonal O_gauge, a skew K, and three random orthogonals.
  bool query = false;
  double logit_var = 0.25;
  bool gauges = false;
  double gauge_kappa = 1.0;
  // Finite-data claims: the generator's Sigma^{1/2} in double is stored ("Sigma_sqrt"), so that training
  // data x = Sigma^{1/2} z drawn from a seed are the same doubles everywhere (draw_goel_data).
  bool data = false;
  std::uint64_t entropy = 0;  // seed of the matrix entries (53 bits kept, so it survives a double)
  std::uint64_t mc_seed = 0;  // seed of the Monte-Carlo draws and of the training data (53 bits)
};

// Validates (one-line std::invalid_argument on absurd sizes or scales) and builds the instance.
Instance build_goel(const GSpec& spec);

// What a claim's instances hold: k <= max_k, d <= max_d, rank, point, lambda > 0, noise_sd >= 0, mc_seed; Sigma (d x d),
// M (k x d) or its factors M_left (k x rank), M_right (d x rank), A (k x d), B (d x d); and, as GSpec's flags say,
// q (d x 1), Sigma_sqrt (d x d), the gauges G, O_gauge, K, O_random0..2 (d x d). Each matrix name is followed
// by each of `suffixes` (the kappa(Sigma) variants of the rate instances).
struct GSchema {
  int max_k, max_d;
  bool query = false, gauges = false, data = false;
  std::vector<std::string> suffixes = {""};
};
InstanceSchema goel_population_schema(const GSchema& spec);

// The instance at working precision; throws InstanceError when it is not of this family or malformed.
template <class T>
struct GProblem {
  RegressionTask<T> task;
  Mat<T> A, B;
  T lambda;
  int k = 0, d = 0, rank = 0;
  GPoint point = GPoint::random;
};
template <class T>
GProblem<T> lift_goel(const Instance& inst);

// An integer parameter in [lo, hi], or an InstanceError naming it.
inline int int_param(const Instance& inst, const char* name, int lo, int hi) {
  const double v = inst.param(name);
  if (v != std::floor(v) || v < lo || v > hi)
    throw InstanceError(std::string("parameter '") + name + "' must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return static_cast<int>(v);
}

// The instance's seed of Monte-Carlo draws and training data.
inline std::uint64_t mc_seed_of(const Instance& inst) {
  const double s = inst.param("mc_seed");
  if (s < 0 || s != std::floor(s) || s > 9007199254740992.0) throw InstanceError("parameter 'mc_seed' must be an integer in [0, 2^53]");
  return static_cast<std::uint64_t>(s);
}

// Training data of a finite-data claim: n tokens X = Z Sigma^{1/2} (rows), labels Y = X M^T + s Xi, with
// Z, Xi standard normal from Rng(seed), fixed-order products in double (the same bits everywhere).
struct GData {
  MatD X, Y;
};
GData draw_goel_data(const Instance& inst, int n, std::uint64_t seed);
// The task M the labels are drawn with: the stored M, or M_left M_right^T as a fixed-order product in double.
MatD data_task(const Instance& inst);

#define THM_GOEL_INSTANCE_EXTERN(T) extern template GProblem<T> lift_goel(const Instance&);
THM_GOEL_INSTANCE_EXTERN(double)
THM_GOEL_INSTANCE_EXTERN(mpfr_dynamic)
#undef THM_GOEL_INSTANCE_EXTERN

}  // namespace thm
