// lift_goel (instantiated at double and mpfr_dynamic in numerics/models/goel/population_instance.cpp).
#pragma once

#include "numerics/models/goel/population_instance.hpp"

#include <cmath>
#include <string>

namespace thm {

template <class T>
GProblem<T> lift_goel(const Instance& inst) {
  if (inst.family != kGoelFamily) throw InstanceError("expected a " + std::string(kGoelFamily) + " instance, got '" + inst.family + "'");
  inst.require_finite();
  const auto dim = [&](const char* name, int lo, int hi) { return int_param(inst, name, lo, hi); };
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
