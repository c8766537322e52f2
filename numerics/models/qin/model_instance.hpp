// Instances of the full [Q] model: data (X_i, Y_i) and initial weights of L blocks and the head,
// built in double from a QModelSpec and lifted exactly to every precision.
#pragma once

#include "numerics/instance.hpp"
#include "numerics/instance_schema.hpp"
#include "numerics/labelled_text.hpp"
#include "numerics/models/qin/transformer.hpp"

#include <cstdint>
#include <vector>

namespace thm {

inline constexpr const char* kQinModelFamily = "qin.model";

struct QModelSpec {
  int n = 2, N = 3, d = 4, m = 8, d_y = 2, L = 1;
  TransformerConfig config;
  // Initial weights: entries N(0, scale^2 / fan_in) per block kind.
  double attn_scale = 1.0;   // W_Q, W_K
  double value_scale = 1.0;  // W_V
  double ffn_scale = 1.0;    // W_1, W_2
  double head_scale = 1.0;   // W_U
  double y_scale = 1.0;      // targets Y_i entries N(0, y_scale^2) ...
  // ... or, when target_noise > 0, targets near the initial outputs: Y_i = Yhat_i(theta_0) + target_noise G_i
  // (so that L_0 is small: how the linear-rate generators meet their hypotheses by construction).
  double target_noise = 0.0;
  std::uint64_t entropy = 0;
};

Instance build_qin_model(const QModelSpec& spec);

// The same model on a measured time series (rows = time steps, columns = features): columns are
// standardised, X_i is the window of N consecutive rows starting at row i N, and Y_i the same window
// one step later (next-step forecasting), so d = d_y = number of columns. spec.d and spec.d_y are
// overwritten; needs n N + 1 rows (std::invalid_argument otherwise).
Instance build_qin_model_from_series(const MatD& series, QModelSpec spec);

// The data of a qin.model instance: its sequences X_i (N x d) and targets Y_i (N x d_y).
struct QSequences {
  std::vector<MatD> X, Y;
};
// The sequences of a series as build_qin_model_from_series cuts them: columns standardised (mean 0, population
// standard deviation 1), X_i = rows i N .. i N + N - 1, Y_i = the same rows one step later, i < n.
QSequences series_windows(const MatD& series, int n, int N);

// `inst`'s data replaced by `w` (parameters n and N follow), its weights kept: how `thmcheck assess --data` judges a
// user's weights on a series. std::invalid_argument, naming both, when the series' columns are not the model's d and d_y.
void replace_qin_data(Instance& inst, const QSequences& w);

// The same model on a two-class text corpus: each token embedded in R^d by the seeded map of
// numerics/token_embedding.hpp (d = spec.d, seed `embedding_seed`); X_i holds the first N tokens of the i-th document
// chosen, Y_i (N x 1) its label at every position, +1 for the corpus's first class and -1 for its second. The documents
// chosen: in file order, among those with at least N tokens, alternately of the first and the second class (ceil(n/2)
// and floor(n/2) of them). spec.d_y is overwritten (1); std::invalid_argument when a class has too few documents.
Instance build_qin_model_from_text(const LabelledText& text, QModelSpec spec, std::uint64_t embedding_seed);

template <class T>
struct QModel {
  TransformerParams<T> params;
  TransformerConfig config;
  std::vector<Mat<T>> X, Y;
};

// The largest model a claim reads.
struct QModelLimits {
  int n, N, d, m, d_y, L;
};
// Its instances: n, N, d, m, d_y, L, activation, beta, ffn_residual, c; X_i (N x d), Y_i (N x d_y), per block l
// W_Q[l], W_K[l], W_V[l] (d x d), W_1[l] (d x m), W_2[l] (m x d), and W_U (d x d_y).
InstanceSchema qin_model_schema(const QModelLimits& limits);

// Shapes and finiteness checked; throws InstanceError on a malformed instance.
QModel<double> qin_model_double(const Instance& inst);

// Exact lift of a model held in double to scalar T.
template <class T>
QModel<T> lift_model(const QModel<double>& m) {
  QModel<T> q;
  q.config = m.config;
  for (const auto& b : m.params.blocks)
    q.params.blocks.push_back({lift<T>(b.W_Q), lift<T>(b.W_K), lift<T>(b.W_V), lift<T>(b.W_1), lift<T>(b.W_2)});
  q.params.W_U = lift<T>(m.params.W_U);
  for (const MatD& x : m.X) q.X.push_back(lift<T>(x));
  for (const MatD& y : m.Y) q.Y.push_back(lift<T>(y));
  return q;
}

template <class T>
QModel<T> lift_qin_model(const Instance& inst) {
  return lift_model<T>(qin_model_double(inst));
}

}  // namespace thm
