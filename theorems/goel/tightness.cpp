// The tightness search of the one-point conditions (theorems/goel/tightness.hpp).
#include "theorems/goel/tightness.hpp"

#include "theorems/goel/generators.hpp"
#include "theorems/goel/constants.hpp"
#include "numerics/models/goel/population_instance.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace thm {

namespace {

enum class Target { convexity, smoothness };

struct Probe {
  GProblem<double> g;
  FactorManifold<double> S;
  OnePointConstants<double> c;
};

Factors<double> unit_direction(Rng& rng, int k, int d) {
  Factors<double> f{MatD(k, d), MatD(d, d)};
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < d; ++j) f.P(i, j) = rng.normal();
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j) f.Q(i, j) = rng.normal();
  const double n = std::sqrt(squared_norm(f));
  f.P /= n;
  f.Q /= n;
  return f;
}

// The directions where the bounds are tightest (derivation, "Measured looseness"), at the base point
// (P*, Q*): the complement of U along the smallest singular value (needs k > d), and the antisymmetric one.
Factors<double> special_direction(const Probe& pr, bool complement, Rng& rng) {
  const int k = pr.g.k, d = pr.g.d;
  Factors<double> f{MatD::Zero(k, d), MatD::Zero(d, d)};
  const VecD u = pr.S.star.P.col(d - 1).normalized(), v = pr.S.star.Q.col(d - 1).normalized();
  if (complement) {
    VecD n(k);
    for (int i = 0; i < k; ++i) n(i) = rng.normal();
    for (int j = 0; j < d; ++j) {
      const VecD uj = pr.S.star.P.col(j).normalized();
      n -= uj.dot(n) * uj;
    }
    f.P.col(d - 1) = n.normalized();
  } else {
    f.P.col(d - 1) = u / std::sqrt(2.0);
    f.Q.col(d - 1) = -v / std::sqrt(2.0);
  }
  return f;
}

// The searched ratio at theta = (P*, Q*) + delta dir, as a quantity to minimise; +infinity outside
// the region (dist > rho) or on S.
double objective(const Probe& pr, const Factors<double>& dir, double delta, Target t) {
  const Factors<double> theta{pr.S.star.P + delta * dir.P, pr.S.star.Q + delta * dir.Q};
  const Projection<double> p = project_onto_manifold(pr.S, theta);
  if (!(p.distance > 0) || p.distance > pr.c.rho) return INFINITY;
  const Factors<double> g = factor_gradient(theta, pr.g.task.Z, Regularizer::balancing, pr.g.lambda);
  const double d2 = p.distance * p.distance;
  return t == Target::convexity ? inner(g, theta - p.point) / d2 : -squared_norm(g) / d2;
}

std::vector<Tightness> search(std::uint64_t seed, Target t) {
  const char* id = t == Target::convexity ? "goel.geometry.one_point_strong_convexity" : "goel.geometry.one_point_smoothness";
  std::vector<Tightness> out;
  for (int i = 0; i < kTightnessInstances; ++i) {
    Rng gen = Rng::derive(seed, std::string("tightness:") + id, static_cast<std::uint64_t>(i));
    RngChoices choices(gen, 100);
    const Instance inst = generate_one_point_region(choices);
    Probe pr{lift_goel<double>(inst), {}, {}};
    pr.S = factor_manifold(pr.g.task.Z, pr.g.d);
    pr.c = one_point_constants(pr.S.sigma(0), pr.S.sigma(pr.g.d - 1), pr.g.lambda);
    Rng rng = Rng::derive(seed, std::string("tightness-search:") + id, static_cast<std::uint64_t>(i));
    double best = INFINITY;
    int evaluations = 0;
    for (int s = 0; s < kTightnessStarts; ++s) {
      // Restarts: the two special directions first, then random ones.
      Factors<double> dir = s == 0 && pr.g.k > pr.g.d ? special_direction(pr, true, rng)
                            : s <= 1                  ? special_direction(pr, false, rng)
                                                      : unit_direction(rng, pr.g.k, pr.g.d);
      double delta = pr.c.rho * rng.log_uniform(1e-2, 1.0);
      double value = objective(pr, dir, delta, t);
      ++evaluations;
      double step = 0.3;
      for (int k = 0; k < kTightnessSteps; ++k) {
        const Factors<double> g = unit_direction(rng, pr.g.k, pr.g.d);
        Factors<double> cand{dir.P + step * g.P, dir.Q + step * g.Q};
        const double n = std::sqrt(squared_norm(cand));
        cand.P /= n;
        cand.Q /= n;
        const double cand_delta = std::clamp(delta * std::exp(step * rng.normal()), 1e-4 * pr.c.rho, pr.c.rho);
        const double v = objective(pr, cand, cand_delta, t);
        ++evaluations;
        if (v < value) {
          dir = cand;
          delta = cand_delta;
          value = v;
          step = std::min(1.0, step * 1.5);
        } else {
          step = std::max(1e-3, step * 0.7);
        }
      }
      best = std::min(best, value);
    }
    Tightness r;
    r.evaluations = evaluations;
    r.instance = inst.describe();
    if (t == Target::convexity) {
      r.quantity = "min over dist_P <= rho of <grad Qobj, theta - proj_S theta> / dist_P^2";
      r.constant = "alpha";
      r.derived = pr.c.alpha;
      r.best = best;
    } else {
      r.quantity = "max over dist_P <= rho of ||grad Qobj||^2 / dist_P^2";
      r.constant = "beta_s";
      r.derived = pr.c.beta_s;
      r.best = -best;
    }
    r.ratio = r.best / r.derived;
    out.push_back(r);
  }
  return out;
}

}  // namespace

std::vector<Tightness> one_point_convexity_tightness(std::uint64_t seed) { return search(seed, Target::convexity); }
std::vector<Tightness> one_point_smoothness_tightness(std::uint64_t seed) { return search(seed, Target::smoothness); }

}  // namespace thm
