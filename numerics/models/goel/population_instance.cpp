#include "numerics/models/goel/population_instance.hpp"

#include "numerics/fault.hpp"
#include "numerics/models/goel/detail/population_instance_impl.hpp"
#include "numerics/random_matrix.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace thm {

namespace {

constexpr int kMaxDim = 64;  // the MP tiers run SVDs and eigensolvers at 50-100 digits: refuse, don't hang

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("goel.population instance: " + what);
}

bool positive_finite(double x) { return std::isfinite(x) && x > 0; }

// U diag(v) W^T by fixed-order loops (U: m x p, W: n x p).
MatD scaled_product(const MatD& U, const std::vector<double>& v, const MatD& W) {
  MatD Uv = U;
  for (Eigen::Index j = 0; j < Uv.cols(); ++j) Uv.col(j) *= v[j];
  return fixed_order_product(Uv, W.transpose());
}

// Exactly symmetric: the upper triangle mirrored.
MatD symmetrised(MatD m) {
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < i; ++j) m(i, j) = m(j, i);
  return m;
}

MatD unit_gaussian(Rng& rng, int rows, int cols) {
  MatD g = gaussian_matrix(rng, rows, cols);
  double s = 0;
  for (Eigen::Index i = 0; i < g.size(); ++i) s += g.data()[i] * g.data()[i];
  return g / std::sqrt(s);
}

}  // namespace

Instance build_goel(const GSpec& s) {
  require(s.d >= 1 && s.d <= kMaxDim && s.k >= 1 && s.k <= kMaxDim, "k and d must be in [1, 64]");
  require(s.rank >= 1 && s.rank <= std::min(s.k, s.d), "rank must be in [1, min(k, d)]");
  require(positive_finite(s.sigma_max) && std::isfinite(s.sigma_kappa) && s.sigma_kappa >= 1 && s.sigma_kappa <= 1e8,
          "need sigma_max > 0 and 1 <= sigma_kappa <= 1e8");
  require(positive_finite(s.z_max) && std::isfinite(s.z_kappa) && s.z_kappa >= 1 && s.z_kappa <= 1e8,
          "need z_max > 0 and 1 <= z_kappa <= 1e8");
  require(positive_finite(s.lambda) && std::isfinite(s.noise_sd) && s.noise_sd >= 0, "need lambda > 0 and s >= 0");
  require(std::isfinite(s.delta) && s.delta >= 0 && positive_finite(s.param_scale) && std::isfinite(s.b_scale) && s.b_scale >= 0,
          "need delta >= 0, param_scale > 0 and b_scale >= 0");
  require(positive_finite(s.logit_var) && positive_finite(s.gauge_kappa) && s.gauge_kappa >= 1, "need logit_var > 0, gauge_kappa >= 1");
  require(s.point != GPoint::complement || s.k > s.rank, "the complement direction needs k > rank");
  require(s.point != GPoint::quartic || (s.rank < s.d && s.k > s.rank), "the quartic direction needs rank < d and rank < k");

  const std::uint64_t entropy = s.entropy & ((std::uint64_t{1} << 53) - 1);
  const std::uint64_t mc_seed = s.mc_seed & ((std::uint64_t{1} << 53) - 1);
  Rng rng(entropy);
  const int k = s.k, d = s.d, r = s.rank;

  // Sigma = W diag(l) W^T; its roots from the same W (the generator's own double copies).
  const MatD W = random_orthogonal(rng, d);
  const std::vector<double> l = geometric_spectrum(d, s.sigma_max, s.sigma_kappa);
  std::vector<double> root(d), inv_root(d);
  for (int i = 0; i < d; ++i) {
    root[i] = std::sqrt(l[i]);
    inv_root[i] = 1.0 / root[i];
  }
  const MatD Sigma = symmetrised(scaled_product(W, l, W));
  const MatD Sigma_inv_sqrt = symmetrised(scaled_product(W, inv_root, W));
  const MatD Sigma_sqrt = symmetrised(scaled_product(W, root, W));

  // Z* = U_r D V_r^T, M = Z* Sigma^{-1/2}, stored as its factors M = M_left M_right^T, M_left = U_r D,
  // M_right = Sigma^{-1/2} V_r: M has rank exactly r at every precision (a double M would have rank r
  // only to 1e-16, and its trailing singular values would show at 50 digits).
  const MatD Uk = random_orthogonal(rng, k), Vd = random_orthogonal(rng, d);
  const std::vector<double> z = geometric_spectrum(r, s.z_max, s.z_kappa);
  MatD M_left = Uk.leftCols(r);
  for (int i = 0; i < r; ++i) M_left.col(i) *= z[i];
  const MatD M_right = fixed_order_product(Sigma_inv_sqrt, Vd.leftCols(r));

  Instance inst;
  inst.family = kGoelFamily;
  inst.params = {{"k", k},
                 {"d", d},
                 {"rank", r},
                 {"sigma_max", s.sigma_max},
                 {"sigma_kappa", s.sigma_kappa},
                 {"z_max", s.z_max},
                 {"z_kappa", s.z_kappa},
                 {"lambda", s.lambda},
                 {"noise_sd", s.noise_sd},
                 {"point", static_cast<double>(static_cast<int>(s.point))},
                 {"delta", s.delta},
                 {"param_scale", s.param_scale},
                 {"b_scale", s.b_scale},
                 {"entropy", static_cast<double>(entropy)},
                 {"mc_seed", static_cast<double>(mc_seed)}};
  inst.matrices["Sigma"] = Sigma;
  inst.matrices["M_left"] = M_left;
  inst.matrices["M_right"] = M_right;

  MatD A, B;
  if (s.point == GPoint::random) {
    A = gaussian_matrix(rng, k, d, s.param_scale);
    B = gaussian_matrix(rng, d, d, s.b_scale > 0 ? s.b_scale : s.param_scale);
  } else {
    // theta_S = (P* O, Q* O), P* = U_r D^{1/2} E_r^T, Q* = V_r D^{1/2} E_r^T.
    const MatD O = random_orthogonal(rng, d);
    MatD Pstar = MatD::Zero(k, d), Qstar = MatD::Zero(d, d);
    for (int i = 0; i < r; ++i) {
      Pstar.col(i) = Uk.col(i) * std::sqrt(z[i]);
      Qstar.col(i) = Vd.col(i) * std::sqrt(z[i]);
    }
    MatD P = fixed_order_product(Pstar, O), Q = fixed_order_product(Qstar, O);
    MatD DP = MatD::Zero(k, d), DQ = MatD::Zero(d, d);
    const double h = 1.0 / std::sqrt(2.0);
    switch (s.point) {
      case GPoint::random_direction: {
        const MatD g = unit_gaussian(rng, k + d, d);
        DP = g.topRows(k);
        DQ = g.bottomRows(d);
        break;
      }
      case GPoint::complement: DP = Uk.col(r) * O.row(r - 1); break;
      case GPoint::antisymmetric:
        DP = h * Uk.col(r - 1) * O.row(r - 1);
        DQ = -h * Vd.col(r - 1) * O.row(r - 1);
        break;
      case GPoint::quartic:
        DP = h * Uk.col(r) * O.row(r);
        DQ = h * Vd.col(r) * O.row(r);
        break;
      default: break;
    }
    P += s.delta * DP;
    Q += s.delta * DQ;
    A = fixed_order_product(P, Sigma_inv_sqrt);
    B = fixed_order_product(fixed_order_product(Sigma_inv_sqrt, Q), Sigma_inv_sqrt);
  }
  if (s.query) {
    // q ~ N(0, Sigma); B rescaled so that w^T Sigma w = logit_var for w = B^T q.
    const MatD q = fixed_order_product(Sigma_sqrt, gaussian_matrix(rng, d, 1));
    const MatD w = fixed_order_product(B.transpose(), q);
    const double v = fixed_order_product(w.transpose(), fixed_order_product(Sigma, w))(0, 0);
    require(v > 0, "w^T Sigma w = 0: the query is orthogonal to B");
    B *= std::sqrt(s.logit_var / v);
    inst.matrices["q"] = q;
    inst.params["logit_var"] = s.logit_var;
  }
  if (s.data) inst.matrices["Sigma_sqrt"] = Sigma_sqrt;
  if (s.gauges) {
    // G = U diag(geometric, kappa) V^T; K skew with unit Frobenius norm.
    const std::vector<double> g = geometric_spectrum(d, 1.0, s.gauge_kappa);
    inst.matrices["G"] = scaled_product(random_orthogonal(rng, d), g, random_orthogonal(rng, d));
    inst.matrices["O_gauge"] = random_orthogonal(rng, d);
    const MatD n = unit_gaussian(rng, d, d);
    inst.matrices["K"] = (n - n.transpose()) / 2.0;
    for (int i = 0; i < 3; ++i) inst.matrices["O_random" + std::to_string(i)] = random_orthogonal(rng, d);
    inst.params["gauge_kappa"] = s.gauge_kappa;
  }
  inst.matrices["A"] = A;
  inst.matrices["B"] = B;
  return inst;
}

MatD data_task(const Instance& inst) {
  return inst.matrices.count("M") ? inst.matrix("M") : fixed_order_product(inst.matrix("M_left"), inst.matrix("M_right").transpose());
}

GData draw_goel_data(const Instance& inst, int n, std::uint64_t seed) {
  const MatD& S = inst.matrix("Sigma_sqrt");
  const int d = static_cast<int>(S.rows());
  if (S.cols() != d || n < 1 || n > 1 << 16) throw InstanceError("draw_goel_data: bad Sigma_sqrt or n");
  const MatD M = data_task(inst);
  Rng rng(seed & ((std::uint64_t{1} << 53) - 1));
  GData g;
  g.X = fixed_order_product(gaussian_matrix(rng, n, d), S);
  const double sd = inst.param("noise_sd");
  const MatD xi = gaussian_matrix(rng, n, static_cast<int>(M.rows()), THM_FAULT(label_noise_sd_squared) ? sd * sd : sd);
  g.Y = fixed_order_product(g.X, M.transpose()) + xi;
  return g;
}

}  // namespace thm

// lift_goel at double and mpfr_dynamic (declared extern in numerics/models/goel/population_instance.hpp).
namespace thm {
template GProblem<double> lift_goel<double>(const Instance&);
template GProblem<mpfr_dynamic> lift_goel<mpfr_dynamic>(const Instance&);
InstanceSchema goel_population_schema(const GSchema& spec) {
  InstanceSchema schema(kGoelFamily);
  schema.integer("k", 1, spec.max_k).integer("d", 1, spec.max_d).integer("rank", 1, std::min(spec.max_k, spec.max_d));
  schema.integer("point", 0, static_cast<int>(GPoint::quartic)).integer("mc_seed", 0, std::int64_t{1} << 53);
  schema.real("lambda", std::numeric_limits<double>::min()).real("noise_sd", 0.0);
  schema.matrices([spec](const Instance& inst) {
    const auto k = static_cast<Eigen::Index>(inst.param("k")), d = static_cast<Eigen::Index>(inst.param("d")),
               r = static_cast<Eigen::Index>(inst.param("rank"));
    if (r > std::min(k, d)) throw InstanceError("parameter 'rank' = " + std::to_string(r) + " exceeds min(k, d) = " + std::to_string(std::min(k, d)));
    std::vector<MatrixShape> out;
    for (const std::string& x : spec.suffixes) {
      out.push_back({"Sigma" + x, d, d});
      if (inst.matrices.count("M" + x)) {
        out.push_back({"M" + x, k, d});
      } else {
        out.push_back({"M_left" + x, k, r});
        out.push_back({"M_right" + x, d, r});
      }
      out.push_back({"A" + x, k, d});
      out.push_back({"B" + x, d, d});
      if (spec.query) out.push_back({"q" + x, d, 1});
      if (spec.data) out.push_back({"Sigma_sqrt" + x, d, d});
      if (spec.gauges)
        for (const char* g : {"G", "O_gauge", "K", "O_random0", "O_random1", "O_random2"}) out.push_back({g + x, d, d});
    }
    return out;
  });
  return schema;
}

}  // namespace thm
