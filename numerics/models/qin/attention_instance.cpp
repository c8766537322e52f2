#include "numerics/models/qin/attention_instance.hpp"

#include "numerics/random_matrix.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace thm {

namespace {

constexpr int kMaxDim = 512;  // beyond this the MP tiers would take hours: refuse, don't hang

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("qin.attention instance: " + what);
}

double max_abs_logit(const std::vector<MatD>& X, const MatD& W_Q, const MatD& W_K, double c) {
  double m = 0.0;
  for (const MatD& x : X) {
    const MatD xq = fixed_order_product(x, W_Q), xk = fixed_order_product(x, W_K);
    const MatD k = fixed_order_product(xq, xk.transpose());
    for (Eigen::Index i = 0; i < k.size(); ++i) m = std::max(m, std::fabs(c * k.data()[i]));
  }
  return m;
}

}  // namespace

Instance build_qin_attention(const QAttentionSpec& s) {
  require(s.n >= 1 && s.n <= kMaxDim, "n must be in [1, 512]");
  require(s.N >= 1 && s.N <= kMaxDim && s.d >= 1 && s.d <= kMaxDim, "N and d must be in [1, 512]");
  require(std::isfinite(s.beta) && std::isfinite(s.c) && s.c >= 0, "beta and c must be finite, c >= 0");
  require(s.x_sigma_max > 0 && std::isfinite(s.x_sigma_max) && s.x_kappa >= 1 && std::isfinite(s.x_kappa),
          "need x_sigma_max > 0 and x_kappa >= 1, finite");
  require(s.logit_max >= 0 && std::isfinite(s.logit_max), "logit_max must be finite and >= 0");
  require(s.wv_norm >= 0 && std::isfinite(s.wv_norm) && s.wv_kappa >= 1 && std::isfinite(s.wv_kappa),
          "need wv_norm >= 0 and wv_kappa >= 1, finite");
  require(std::isfinite(s.tau), "tau must be finite");
  require(s.wv_gain >= 0 && std::isfinite(s.wv_gain), "wv_gain must be finite and >= 0");

  const std::uint64_t entropy = s.entropy & ((std::uint64_t{1} << 53) - 1);
  Rng rng(entropy);
  const double c = s.c > 0 ? s.c : 1.0 / std::sqrt(static_cast<double>(s.d));
  const int p = std::min(s.N, s.d);

  std::vector<MatD> X;
  if (s.stacked_spectrum) {
    const int rows = s.n * s.N;
    const MatD xs = spectrum_first_matrix(rng, rows, s.d, geometric_spectrum(std::min(rows, s.d), s.x_sigma_max, s.x_kappa));
    for (int i = 0; i < s.n; ++i) X.push_back(xs.middleRows(i * s.N, s.N));
  } else {
    for (int i = 0; i < s.n; ++i)
      X.push_back(spectrum_first_matrix(rng, s.N, s.d, geometric_spectrum(p, s.x_sigma_max, s.x_kappa)));
  }
  require(!(s.row_constant_logits && s.sign_pattern_logits), "row-constant and sign-pattern logits exclude each other");
  require(!s.sign_pattern_logits || s.d >= 2, "sign-pattern logits need d >= 2");
  if (s.row_constant_logits)
    for (MatD& x : X) x.col(0).setConstant(s.tau);
  if (s.sign_pattern_logits)
    for (MatD& x : X) {
      x.col(0).setConstant(s.tau);
      for (Eigen::Index k = 0; k < x.rows(); ++k) x(k, 1) = (k % 2 == 0 ? 1.0 : -1.0);
      if (x.rows() % 2 == 1) x(x.rows() - 1, 1) = 0.0;  // sum 0
    }
  MatD W_Q = gaussian_matrix(rng, s.d, s.d);
  MatD W_K;
  if (s.row_constant_logits) {
    W_K = MatD::Zero(s.d, s.d);
    W_K.row(0) = gaussian_matrix(rng, 1, s.d);  // W_K = e_0 u^T
  } else if (s.sign_pattern_logits) {
    // X W_Q = tau 1 u^T and X W_K = b v^T: K_jk = c tau (u . v) b_k, the same in every row j.
    const MatD u = gaussian_matrix(rng, 1, s.d);
    W_Q = MatD::Zero(s.d, s.d);
    W_Q.row(0) = u;
    W_K = MatD::Zero(s.d, s.d);
    W_K.row(1) = gaussian_matrix(rng, 1, s.d);
  } else {
    W_K = gaussian_matrix(rng, s.d, s.d);
  }
  const double m = max_abs_logit(X, W_Q, W_K, c);
  if (s.logit_max == 0.0 || m == 0.0) {
    W_K.setZero();
  } else {
    const double f = std::sqrt(s.logit_max / m);
    W_Q *= f;
    W_K *= f;
  }
  const MatD W_V = s.wv_gain > 0 ? gaussian_matrix(rng, s.d, s.d, s.wv_gain / std::sqrt(static_cast<double>(s.d)))
                   : s.wv_norm == 0.0  ? MatD::Zero(s.d, s.d)
                                       : spectrum_first_matrix(rng, s.d, s.d, geometric_spectrum(s.d, s.wv_norm, s.wv_kappa));

  Instance inst;
  inst.family = kQinAttentionFamily;
  inst.params = {{"n", s.n},
                 {"N", s.N},
                 {"d", s.d},
                 {"beta", s.beta},
                 {"c", c},
                 {"x_sigma_max", s.x_sigma_max},
                 {"x_kappa", s.x_kappa},
                 {"logit_max", s.logit_max},
                 {"stacked_spectrum", s.stacked_spectrum ? 1.0 : 0.0},
                 {"row_constant_logits", s.row_constant_logits ? 1.0 : 0.0},
                 {"sign_pattern_logits", s.sign_pattern_logits ? 1.0 : 0.0},
                 {"tau", s.tau},
                 {"wv_norm", s.wv_norm},
                 {"wv_kappa", s.wv_kappa},
                 {"wv_gain", s.wv_gain},
                 {"entropy", static_cast<double>(entropy)}};
  for (int i = 0; i < s.n; ++i) inst.matrices["X" + std::to_string(i)] = X[i];
  inst.matrices["W_Q"] = W_Q;
  inst.matrices["W_K"] = W_K;
  inst.matrices["W_V"] = W_V;
  return inst;
}

QAttentionShape qin_attention_shape(const Instance& inst) {
  if (inst.family != kQinAttentionFamily)
    throw InstanceError("expected an instance of family '" + std::string(kQinAttentionFamily) + "', got '" + inst.family + "'");
  inst.require_finite();
  const double n = inst.param("n");
  if (n < 1 || n > kMaxDim || n != std::floor(n)) throw InstanceError("instance parameter n must be an integer in [1, 512]");
  QAttentionShape s{static_cast<int>(n), 0, 0};
  const MatD& x0 = inst.matrix("X0");
  s.N = static_cast<int>(x0.rows());
  s.d = static_cast<int>(x0.cols());
  if (s.N < 1 || s.d < 1 || s.N > kMaxDim || s.d > kMaxDim) throw InstanceError("X0 must be N x d with 1 <= N, d <= 512");
  for (int i = 0; i < s.n; ++i) {
    const MatD& x = inst.matrix("X" + std::to_string(i));
    if (x.rows() != s.N || x.cols() != s.d) throw InstanceError("X" + std::to_string(i) + " is not " + std::to_string(s.N) + " x " + std::to_string(s.d));
  }
  for (const char* name : {"W_Q", "W_K", "W_V"}) {
    const MatD& w = inst.matrix(name);
    if (w.rows() != s.d || w.cols() != s.d) throw InstanceError(std::string(name) + " must be d x d with d = " + std::to_string(s.d));
  }
  inst.param("beta");
  inst.param("c");
  return s;
}

InstanceSchema qin_attention_schema(int max_n, int max_dim) {
  InstanceSchema schema(kQinAttentionFamily);
  schema.integer("n", 1, max_n).integer("N", 1, max_dim).integer("d", 1, max_dim).real("beta").real("c");
  schema.matrices([](const Instance& inst) {
    const auto n = static_cast<int>(inst.param("n"));
    const auto N = static_cast<Eigen::Index>(inst.param("N")), d = static_cast<Eigen::Index>(inst.param("d"));
    std::vector<MatrixShape> out;
    for (int i = 0; i < n; ++i) out.push_back({"X" + std::to_string(i), N, d});
    for (const char* w : {"W_Q", "W_K", "W_V"}) out.push_back({w, d, d});
    return out;
  });
  return schema;
}

}  // namespace thm
