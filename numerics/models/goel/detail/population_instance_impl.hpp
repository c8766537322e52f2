// lift_goel (instantiated at double and mpfr_dynamic in numerics/models/goel/population_instance.cpp) and the integer parameters and
// Monte-Carlo seed of a [G] instance.
#pragma once

#include "numerics/models/goel/population_instance.hpp"

#include <cmath>
#include <string>

namespace thm {

namespace detail {

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

}  // namespace detail

template <class T>
GProblem<T> lift_goel(const Instance& inst) {
  if (inst.family != kGoelFamily) throw InstanceError("expected a " + std::string(kGoelFamily) + " instance, got '" + inst.family + "'");
  inst.require_finite();
  const auto dim = [&](const char* name, int lo, int hi) { return detail::int_param(inst, name, lo, hi); };
  GProblem<T> g;
  g.k = dim("k", 1, 64);
  g.d = dim("d", 1, 64);
  g.rank = dim("rank", 1, std::min(g.k, g.d));
  g.point = static_cast<GPoint>(dim("point", 0, static_cast<int>(GPoint::quartic)));
  const auto shaped = [&](const char* name, Eigen::Index rows, Eigen::Index cols) -> const MatD& {
    const MatD& m = inst.matrix(name);
    if (m.rows() != rows || m.cols() != cols)
      throw InstanceError(std::string("matrix '") + name + "' must be " + std::to_string(rows) + " x " + std::to_string(cols) +
                          ", got " + std::to_string(m.rows()) + " x " + std::to_string(m.cols()));
    return m;
  };
  const double lambda = inst.param("lambda"), s = inst.param("noise_sd");
  if (!(lambda > 0) || !(s >= 0)) throw InstanceError("need lambda > 0 and noise_sd >= 0");
  try {
    // M is stored either whole or as factors M_left M_right^T (exact rank at every precision).
    const Mat<T> M = inst.matrices.count("M") ? lift<T>(shaped("M", g.k, g.d))
                                              : Mat<T>(lift<T>(shaped("M_left", g.k, g.rank)) * lift<T>(shaped("M_right", g.d, g.rank)).transpose());
    g.task = make_regression_task<T>(lift<T>(shaped("Sigma", g.d, g.d)), M, T(s));
  } catch (const std::domain_error& e) {
    throw InstanceError(e.what());
  }
  g.A = lift<T>(shaped("A", g.k, g.d));
  g.B = lift<T>(shaped("B", g.d, g.d));
  g.lambda = T(lambda);
  return g;
}

}  // namespace thm
