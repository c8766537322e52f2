// [G] finite-data objective, second reading (docs/derivations/goel.finite_data_prompts.md): n prompts, each of `tokens`
// context tokens x_{p,1..T} and a query q_p with label y_p = M q_p + xi_p; the query attends over its own prompt's
// context only:
//   L_{n,T}(A, B) = 1/(2n) sum_p || A sum_j softmax_j(q_p^T B x_{p,j}) x_{p,j} - y_p ||^2.
// In matrix form, with W = Qry B (n x d; row p is q_p^T B): logits K(p, j) = x_{p,j} . W_p, S = softmax_rows(K) (n x T),
// H(p, :) = S(p, :) X_p, R = H A^T - Y, L = ||R||_F^2 / (2n). Reverse mode: G_A = R^T H / n; GH = R A / n;
// a(p, j) = x_{p,j} . GH_p; G_K(p, j) = S(p, j) (a(p, j) - S(p, :) . a(p, :)); V(p, :) = G_K(p, :) X_p; G_B = Qry^T V.
// Beside it, Algorithm 1 on this objective (the trainer of algorithm1.hpp reads L_n of the first reading only): the
// spectral start and the preconditioner from the queries' moments, the step algorithm1_step.
#pragma once

#include "numerics/fault.hpp"
#include "numerics/models/goel/algorithm1_loop.hpp"
#include "numerics/models/goel/finite_attention.hpp"
#include "numerics/models/goel/population_instance.hpp"
#include "numerics/random.hpp"
#include "numerics/random_matrix.hpp"
#include "numerics/softmax.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace thm {

// n prompts of T context tokens: X stacks the contexts ((n T) x d, prompt p in rows p T .. p T + T - 1), Qry the
// queries (n x d), Y their labels (n x k).
template <class T>
struct PromptSet {
  Mat<T> X, Qry, Y;
  int tokens = 0;
  int prompts() const { return static_cast<int>(Qry.rows()); }
};

// L_{n,T} and its gradient in (A, B) (header comment); `loss` receives L_{n,T} from the same forward pass.
template <class T>
ParamPair<T> prompt_gradient(const Mat<T>& A, const Mat<T>& B, const PromptSet<T>& data, T* loss = nullptr) {
  const Eigen::Index n = data.Qry.rows(), tk = data.tokens, d = data.Qry.cols();
  if (tk < 1 || data.X.rows() != n * tk || data.X.cols() != d || B.rows() != d || B.cols() != d || A.cols() != d || data.Y.rows() != n ||
      A.rows() != data.Y.cols())
    throw std::domain_error("prompt_gradient: shapes of A (k x d), B (d x d), X (nT x d), Qry (n x d), Y (n x k) do not match");
  // Fault points (numerics/fault.hpp): the last context token dropped, or replaced by the query, in both passes.
  const Eigen::Index keys = THM_FAULT(prompt_last_token_dropped) && tk > 1 ? tk - 1 : tk;
  Mat<T> with_query;
  if (THM_FAULT(prompt_query_in_context)) {
    with_query = data.X;
    for (Eigen::Index p = 0; p < n; ++p) with_query.row(p * tk + tk - 1) = data.Qry.row(p);
  }
  const Mat<T>& X = with_query.size() ? with_query : data.X;
  const Mat<T> W = data.Qry * B;
  // Prompt p's logits and weights are column p of K^T and S^T (keys x n): contiguous, where a row of the column-major
  // n x keys matrices strides over all n prompts.
  Mat<T> Kt(keys, n);
  for (Eigen::Index p = 0; p < n; ++p) Kt.col(p).noalias() = X.middleRows(p * tk, keys) * W.row(p).transpose();
  const Mat<T> St = softmax_rows(Mat<T>(Kt.transpose())).transpose();
  Mat<T> H(n, d);
  for (Eigen::Index p = 0; p < n; ++p) H.row(p).noalias() = St.col(p).transpose() * X.middleRows(p * tk, keys);
  const Mat<T> R = H * A.transpose() - data.Y;
  const T count = T(static_cast<long>(n));
  if (loss) *loss = R.squaredNorm() / (T(2) * count);
  ParamPair<T> g;
  g.A = R.transpose() * H / count;
  const Mat<T> GH = R * A / count;
  Mat<T> V(n, d);
  for (Eigen::Index p = 0; p < n; ++p) {
    const auto Xp = X.middleRows(p * tk, keys);
    const Vec<T> a = Xp * GH.row(p).transpose();
    const T mean = St.col(p).dot(a);
    Vec<T> gk(keys);
    for (Eigen::Index j = 0; j < keys; ++j) gk(j) = St(j, p) * (a(j) - mean);
    V.row(p) = (Xp.transpose() * gk).transpose();
  }
  g.B = data.Qry.transpose() * V;
  return g;
}

template <class T>
T prompt_loss(const Mat<T>& A, const Mat<T>& B, const PromptSet<T>& data) {
  T loss = 0;
  prompt_gradient(A, B, data, &loss);
  return loss;
}

// The prompts of a finite-data instance (population_instance.hpp): the queries and labels are exactly the tokens and labels
// draw_goel_data(inst, n, seed) gives the first reading (so both readings share the spectral start and the preconditioner),
// the contexts are n T further tokens X = G Sigma^{1/2} from Rng::derive(seed, "goel.prompts.context", tokens), fixed-order
// products in double (the same bits at every precision).
inline PromptSet<double> draw_goel_prompts(const Instance& inst, int n, int tokens, std::uint64_t seed) {
  if (tokens < 1 || tokens > 1 << 12) throw InstanceError("draw_goel_prompts: tokens per prompt must be in 1..4096");
  const GData q = draw_goel_data(inst, n, seed);
  const MatD& S = inst.matrix("Sigma_sqrt");
  const std::uint64_t seed53 = seed & ((std::uint64_t{1} << 53) - 1);
  Rng rng = THM_FAULT(context_from_query_stream) ? Rng(seed53) : Rng::derive(seed53, "goel.prompts.context", static_cast<std::uint64_t>(tokens));
  PromptSet<double> p;
  p.X = fixed_order_product(gaussian_matrix(rng, n * tokens, static_cast<int>(S.rows())), S);
  p.Qry = q.X;
  p.Y = q.Y;
  p.tokens = tokens;
  return p;
}

template <class T>
PromptSet<T> lift_prompts(const PromptSet<double>& p) {
  return {lift<T>(p.X), lift<T>(p.Qry), lift<T>(p.Y), p.tokens};
}

// Algorithm 1 on L_{n,T} + R(P_hat, Q_hat), hat coordinates from `moments` (the queries'): train_algorithm1 with this
// objective's gradient.
template <class T>
TrainRun<T> train_on_prompts(const ParamPair<T>& init, const PromptSet<T>& data, const EmpiricalMoments<T>& moments,
                             const RegressionTask<T>& population, const TrainOptions& o) {
  return train_algorithm1(init, [&](const Mat<T>& A, const Mat<T>& B, T* loss) { return prompt_gradient(A, B, data, loss); }, moments,
                          population, o);
}

// The Hessian of F~(P, Q) = L_{n,T}(P Sigma_hat^{-1/2}, Sigma_hat^{-1/2} Q Sigma_hat^{-1/2}) + R(P, Q) at `at`
// (algorithm1_hat_hessian; coordinates P then Q, column-major, as hat_hessian of the first reading).
template <class T>
MatD prompt_hat_hessian(const PromptSet<T>& data, const EmpiricalMoments<T>& moments, const ParamPair<T>& at, const TrainOptions& o) {
  return algorithm1_hat_hessian([&](const Mat<T>& A, const Mat<T>& B, T* loss) { return prompt_gradient(A, B, data, loss); }, moments, at, o);
}

// The step cap of the first reading's algorithm1_options (goel.finite_data.md, "Step size"): eta = min(eta_documented,
// 2^floor(log2(1 / lambda_max(H(theta_0))))), H the Hessian above at the start.
template <class T>
double prompt_step_cap(const PromptSet<T>& data, const EmpiricalMoments<T>& moments, const ParamPair<T>& start, const TrainOptions& o,
                       double eta_documented) {
  return hessian_step_cap(prompt_hat_hessian(data, moments, start, o), eta_documented);
}

// Algorithm 1 on n prompts from `start` at o.eta (capped there: prompt_step_cap), with the cap kept where the run ends
// (settled_run); `o.eta` is left at the step taken.
template <class T>
TrainRun<T> prompts_run(const ParamPair<T>& start, const PromptSet<T>& data, const EmpiricalMoments<T>& moments,
                        const RegressionTask<T>& population, TrainOptions& o) {
  return settled_run(
      o, [&](const TrainOptions& at) { return train_on_prompts(start, data, moments, population, at); },
      [&](const ParamPair<T>& at) { return prompt_hat_hessian(data, moments, at, o); });
}

}  // namespace thm
