// [G] finite-data objective, third reading (docs/derivations/goel.finite_data_limit_attention.md): n prompts whose attention
// output is its T -> infinity limit. For Gaussian context tokens the softmax average over the context converges to
// Sigma B^T q (the tilting identity, goel.population.tilting_identity, (S1)-(S2)), so the prediction for query q_p is
// A Sigma B^T q_p and the training loss on the n queries and labels is
//   L_n^inf(A, B) = 1/(2n) sum_p ||A Sigma B^T q_p - y_p||^2 = 1/2 ||(A Sigma B^T - M_hat) Sigma_hat^{1/2}||_F^2 + r_n,
// with Sigma_hat = Qry^T Qry / n, M_hat the least-squares fit and r_n = 1/(2n) ||Y - Qry M_hat^T||_F^2 its residual (the
// cross term vanishes by the normal equations). It isolates the statistical error of n training prompts from the
// finite-T attention noise. With G = (A Sigma B^T - M_hat) Sigma_hat (k x d): G_A = G B Sigma, G_B = G^T A Sigma.
// After the moments, a step costs O(k d^2), whatever n.
#pragma once

#include "numerics/fault.hpp"
#include "numerics/models/goel/algorithm1_loop.hpp"
#include "numerics/models/goel/finite_attention.hpp"

#include <stdexcept>

namespace thm {

// What L_n^inf reads: the token covariance Sigma of the model and the queries' moments.
template <class T>
struct LimitAttentionData {
  Mat<T> Sigma, Sigma_hat, M_hat;
  T residual = 0;  // r_n
};

// From the queries Qry (n x d), labels Y (n x k) and their moments (empirical_moments(Qry, Y)).
template <class T>
LimitAttentionData<T> limit_attention_data(const Mat<T>& Sigma, const Mat<T>& Qry, const Mat<T>& Y, const EmpiricalMoments<T>& m) {
  if (Qry.rows() != Y.rows() || Qry.cols() != Sigma.rows() || Sigma.rows() != Sigma.cols() || m.M_hat.rows() != Y.cols() ||
      m.M_hat.cols() != Qry.cols())
    throw std::domain_error("limit_attention_data: shapes of Sigma (d x d), Qry (n x d), Y (n x k), M_hat (k x d) do not match");
  LimitAttentionData<T> out{Sigma, m.Sigma_hat, m.M_hat, T(0)};
  out.residual = (Y - Qry * m.M_hat.transpose()).squaredNorm() / (T(2) * T(static_cast<long>(Qry.rows())));
  return out;
}

// L_n^inf and its gradient in (A, B) (header comment); `loss` receives L_n^inf.
template <class T>
ParamPair<T> limit_attention_gradient(const Mat<T>& A, const Mat<T>& B, const LimitAttentionData<T>& data, T* loss = nullptr) {
  const Eigen::Index d = data.Sigma.rows();
  if (A.cols() != d || B.rows() != d || B.cols() != d || A.rows() != data.M_hat.rows())
    throw std::domain_error("limit_attention_gradient: shapes of A (k x d), B (d x d) do not match the data");
  const Mat<T> E = A * data.Sigma * B.transpose() - data.M_hat;  // A Sigma B^T - M_hat
  const Mat<T> G = E * data.Sigma_hat;
  if (loss) *loss = (E.cwiseProduct(G)).sum() / T(2) + data.residual;  // 1/2 tr(E Sigma_hat E^T) + r_n
  if (THM_FAULT(limit_gradient_b_transposed)) return {Mat<T>(G * B * data.Sigma), Mat<T>(A.transpose() * G * data.Sigma)};
  return {Mat<T>(G * B * data.Sigma), Mat<T>(G.transpose() * A * data.Sigma)};
}

// Algorithm 1 on L_n^inf + R(P_hat, Q_hat) (train_algorithm1), and the Hessian that caps its step.
template <class T>
TrainRun<T> train_on_limit_attention(const ParamPair<T>& init, const LimitAttentionData<T>& data, const EmpiricalMoments<T>& moments,
                                     const RegressionTask<T>& population, const TrainOptions& o) {
  return train_algorithm1(init, [&](const Mat<T>& A, const Mat<T>& B, T* loss) { return limit_attention_gradient(A, B, data, loss); },
                          moments, population, o);
}
template <class T>
MatD limit_attention_hat_hessian(const LimitAttentionData<T>& data, const EmpiricalMoments<T>& moments, const ParamPair<T>& at,
                                 const TrainOptions& o) {
  return algorithm1_hat_hessian([&](const Mat<T>& A, const Mat<T>& B, T* loss) { return limit_attention_gradient(A, B, data, loss); },
                                moments, at, o);
}

}  // namespace thm
