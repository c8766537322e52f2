#include "numerics/models/qin/model_instance.hpp"

#include "numerics/random_matrix.hpp"
#include "numerics/token_embedding.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace thm {

namespace {

constexpr int kMaxDim = 512;

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("qin.model instance: " + what);
}

}  // namespace

Instance build_qin_model(const QModelSpec& s) {
  require(s.n >= 1 && s.n <= kMaxDim && s.N >= 1 && s.N <= kMaxDim && s.d >= 1 && s.d <= kMaxDim && s.m >= 1 &&
              s.m <= 4 * kMaxDim && s.d_y >= 1 && s.d_y <= kMaxDim && s.L >= 1 && s.L <= 16,
          "dimensions out of range (n, N, d, d_y in [1, 512], m in [1, 2048], L in [1, 16])");
  for (double v : {s.attn_scale, s.value_scale, s.ffn_scale, s.head_scale, s.y_scale, s.config.beta, s.config.ffn_residual, s.config.c})
    require(std::isfinite(v) && v >= 0, "scales, beta, gamma and c must be finite and >= 0");
  Rng rng(s.entropy & ((std::uint64_t{1} << 53) - 1));
  Instance inst;
  inst.family = kQinModelFamily;
  const double sd = 1.0 / std::sqrt(static_cast<double>(s.d)), sm = 1.0 / std::sqrt(static_cast<double>(s.m));
  for (int i = 0; i < s.n; ++i) {
    inst.matrices["X" + std::to_string(i)] = gaussian_matrix(rng, s.N, s.d);
    inst.matrices["Y" + std::to_string(i)] = gaussian_matrix(rng, s.N, s.d_y, s.y_scale);
  }
  for (int l = 0; l < s.L; ++l) {
    const std::string t = "[" + std::to_string(l) + "]";
    inst.matrices["W_Q" + t] = gaussian_matrix(rng, s.d, s.d, s.attn_scale * sd);
    inst.matrices["W_K" + t] = gaussian_matrix(rng, s.d, s.d, s.attn_scale * sd);
    inst.matrices["W_V" + t] = gaussian_matrix(rng, s.d, s.d, s.value_scale * sd);
    inst.matrices["W_1" + t] = gaussian_matrix(rng, s.d, s.m, s.ffn_scale * sd);
    inst.matrices["W_2" + t] = gaussian_matrix(rng, s.m, s.d, s.ffn_scale * sm);
  }
  inst.matrices["W_U"] = gaussian_matrix(rng, s.d, s.d_y, s.head_scale * sd);
  inst.params = {{"n", s.n},
                 {"N", s.N},
                 {"d", s.d},
                 {"m", s.m},
                 {"d_y", s.d_y},
                 {"L", s.L},
                 {"beta", s.config.beta},
                 {"ffn_residual", s.config.ffn_residual},
                 {"c", s.config.c},
                 {"activation", static_cast<double>(s.config.activation)},
                 {"attn_scale", s.attn_scale},
                 {"value_scale", s.value_scale},
                 {"ffn_scale", s.ffn_scale},
                 {"head_scale", s.head_scale},
                 {"y_scale", s.y_scale},
                 {"target_noise", s.target_noise},
                 {"entropy", static_cast<double>(s.entropy & ((std::uint64_t{1} << 53) - 1))}};
  require(std::isfinite(s.target_noise) && s.target_noise >= 0, "target_noise must be finite and >= 0");
  if (s.target_noise > 0) {
    const QModel<double> q = qin_model_double(inst);
    const TransformerTrace<double> tr = transformer_forward(q.params, q.config, q.X, q.Y);
    for (int i = 0; i < s.n; ++i)  // Yhat_i = R_i + Y_i
      inst.matrices["Y" + std::to_string(i)] = tr.residual[i] + q.Y[i] + gaussian_matrix(rng, s.N, s.d_y, s.target_noise);
  }
  return inst;
}

QSequences series_windows(const MatD& series, int n, int N) {
  require(series.cols() >= 1 && series.cols() <= kMaxDim, "the series needs 1 to 512 columns");
  require(series.allFinite(), "the series has a NaN or infinite value");
  require(n >= 1 && n <= kMaxDim && N >= 1 && N <= kMaxDim, "n and N must be in [1, 512]");
  require(series.rows() >= static_cast<Eigen::Index>(n) * N + 1,
          "the series has " + std::to_string(series.rows()) + " rows; n windows of N tokens need n N + 1 = " +
              std::to_string(static_cast<long long>(n) * N + 1));
  MatD z = series;
  for (Eigen::Index c = 0; c < z.cols(); ++c) {
    const double mean = z.col(c).mean();
    const double sd = std::sqrt((z.col(c).array() - mean).square().mean());
    z.col(c) = (z.col(c).array() - mean) / (sd > 0 ? sd : 1.0);
  }
  QSequences w;
  for (int i = 0; i < n; ++i) {
    w.X.push_back(z.middleRows(static_cast<Eigen::Index>(i) * N, N));
    w.Y.push_back(z.middleRows(static_cast<Eigen::Index>(i) * N + 1, N));
  }
  return w;
}

Instance build_qin_model_from_series(const MatD& series, QModelSpec s) {
  const QSequences w = series_windows(series, s.n, s.N);
  s.d = static_cast<int>(series.cols());
  s.d_y = s.d;
  s.target_noise = 0;
  Instance inst = build_qin_model(s);  // weights from the spec's entropy; data replaced below
  replace_qin_data(inst, w);
  inst.params["from_series"] = 1;
  return inst;
}

void replace_qin_data(Instance& inst, const QSequences& w) {
  require(inst.family == kQinModelFamily, "expected an instance of family '" + std::string(kQinModelFamily) + "', got '" + inst.family + "'");
  require(!w.X.empty() && w.X.size() == w.Y.size(), "no sequences");
  const double d = inst.param("d"), d_y = inst.param("d_y");
  require(static_cast<double>(w.X[0].cols()) == d && static_cast<double>(w.Y[0].cols()) == d_y,
          fmt::format("the data has {} columns; the model reads d = {:g} and writes d_y = {:g}", w.X[0].cols(), d, d_y));
  for (int i = 0; i < static_cast<int>(inst.param("n")); ++i) {
    inst.matrices.erase("X" + std::to_string(i));
    inst.matrices.erase("Y" + std::to_string(i));
  }
  for (std::size_t i = 0; i < w.X.size(); ++i) {
    inst.matrices["X" + std::to_string(i)] = w.X[i];
    inst.matrices["Y" + std::to_string(i)] = w.Y[i];
  }
  inst.params["n"] = static_cast<double>(w.X.size());
  inst.params["N"] = static_cast<double>(w.X[0].rows());
}

Instance build_qin_model_from_text(const LabelledText& text, QModelSpec s, std::uint64_t embedding_seed) {
  require(text.classes.size() == 2, "the corpus needs exactly two classes");
  require(s.n >= 1 && s.n <= kMaxDim && s.N >= 1 && s.N <= kMaxDim && s.d >= 1 && s.d <= kMaxDim,
          "dimensions out of range (n, N, d in [1, 512])");
  // Alternately a document of the first class and one of the second, each the next in file order with >= N tokens.
  std::vector<const LabelledText::Document*> chosen;
  std::size_t next[2] = {0, 0};
  for (int i = 0; i < s.n; ++i) {
    const int k = i % 2;
    std::size_t& j = next[k];
    while (j < text.documents.size() && (text.documents[j].label != k || text.documents[j].tokens.size() < static_cast<std::size_t>(s.N))) ++j;
    if (j == text.documents.size()) {
      const int need = (s.n + 1 - k) / 2;
      require(false, fmt::format("class '{}' has fewer than {} documents of at least N = {} tokens (n = {} needs {})",
                                 text.classes[static_cast<std::size_t>(k)].substr(0, 40), need, s.N, s.n, need));
    }
    chosen.push_back(&text.documents[j++]);
  }
  QSequences data;
  for (const LabelledText::Document* doc : chosen) {
    MatD X(s.N, s.d);
    for (int t = 0; t < s.N; ++t) X.row(t) = embed_token(doc->tokens[static_cast<std::size_t>(t)], s.d, embedding_seed);
    data.X.push_back(std::move(X));
    data.Y.push_back(MatD::Constant(s.N, 1, doc->label == 0 ? 1.0 : -1.0));
  }
  s.d_y = 1;
  s.target_noise = 0;
  Instance inst = build_qin_model(s);  // weights from the spec's entropy; data replaced below
  replace_qin_data(inst, data);
  inst.params["from_text"] = 1;
  return inst;
}

QModel<double> qin_model_double(const Instance& inst) {
  if (inst.family != kQinModelFamily)
    throw InstanceError("expected an instance of family '" + std::string(kQinModelFamily) + "', got '" + inst.family + "'");
  inst.require_finite();
  auto integer = [&](const char* name, double lo, double hi) {
    const double v = inst.param(name);
    if (v < lo || v > hi || v != std::floor(v)) throw InstanceError(std::string("parameter ") + name + " out of range");
    return static_cast<int>(v);
  };
  const int n = integer("n", 1, kMaxDim), L = integer("L", 1, 16);
  const int act = integer("activation", 0, 3);
  QModel<double> q;
  q.config.beta = inst.param("beta");
  q.config.ffn_residual = inst.param("ffn_residual");
  q.config.c = inst.param("c");
  q.config.activation = static_cast<Activation>(act);
  for (int i = 0; i < n; ++i) {
    q.X.push_back(inst.matrix("X" + std::to_string(i)));
    q.Y.push_back(inst.matrix("Y" + std::to_string(i)));
  }
  for (int l = 0; l < L; ++l) {
    const std::string t = "[" + std::to_string(l) + "]";
    q.params.blocks.push_back({inst.matrix("W_Q" + t), inst.matrix("W_K" + t), inst.matrix("W_V" + t), inst.matrix("W_1" + t),
                               inst.matrix("W_2" + t)});
  }
  q.params.W_U = inst.matrix("W_U");
  try {
    transformer_loss(q.params, q.config, q.X, q.Y);  // validates every shape
  } catch (const std::invalid_argument& e) {
    throw InstanceError(std::string("qin.model instance: ") + e.what());
  }
  return q;
}

InstanceSchema qin_model_schema(const QModelLimits& limits) {
  InstanceSchema schema(kQinModelFamily);
  schema.integer("n", 1, limits.n).integer("N", 1, limits.N).integer("d", 1, limits.d).integer("m", 1, limits.m);
  schema.integer("d_y", 1, limits.d_y).integer("L", 1, limits.L).integer("activation", 0, 3);
  schema.real("beta").real("ffn_residual").real("c");
  schema.matrices([](const Instance& inst) {
    const auto count = [&](const char* name) { return static_cast<Eigen::Index>(inst.param(name)); };
    const Eigen::Index n = count("n"), N = count("N"), d = count("d"), m = count("m"), d_y = count("d_y"), L = count("L");
    std::vector<MatrixShape> out;
    for (Eigen::Index i = 0; i < n; ++i) {
      out.push_back({"X" + std::to_string(i), N, d});
      out.push_back({"Y" + std::to_string(i), N, d_y});
    }
    for (Eigen::Index l = 0; l < L; ++l) {
      const std::string t = "[" + std::to_string(l) + "]";
      for (const char* w : {"W_Q", "W_K", "W_V"}) out.push_back({w + t, d, d});
      out.push_back({"W_1" + t, d, m});
      out.push_back({"W_2" + t, m, d});
    }
    out.push_back({"W_U", d, d_y});
    return out;
  });
  return schema;
}

}  // namespace thm
