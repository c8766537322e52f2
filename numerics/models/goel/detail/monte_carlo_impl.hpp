#pragma once

#include "numerics/models/goel/monte_carlo.hpp"

namespace thm {

namespace detail {

// rows x cols standard normals, filled row by row (a fixed order: the same bits everywhere).
template <class T>
Mat<T> standard_normals(Rng& rng, int rows, int cols) {
  Mat<T> z(rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) z(i, j) = T(rng.normal());
  return z;
}

}  // namespace detail

template <class T>
std::vector<double> attention_error_samples(const Mat<T>& A, const Vec<T>& w, const Vec<T>& target, const Mat<T>& sqrt_sigma,
                                            int tokens, int draws, Rng& rng) {
  std::vector<double> out;
  out.reserve(draws);
  const int d = static_cast<int>(sqrt_sigma.rows());
  for (int s = 0; s < draws; ++s) {
    const Mat<T> X = detail::standard_normals<T>(rng, tokens, d) * sqrt_sigma;  // rows x_j ~ N(0, Sigma)
    out.push_back(to_double(T((A * (attention_average(w, X) - target)).squaredNorm())));
  }
  return out;
}

template <class T>
std::vector<double> population_loss_samples(const Mat<T>& A, const Mat<T>& B, const RegressionTask<T>& task, int tokens,
                                            int draws, Rng& rng) {
  std::vector<double> out;
  out.reserve(draws);
  const int d = static_cast<int>(task.Sigma.rows()), k = static_cast<int>(task.M.rows());
  for (int s = 0; s < draws; ++s) {
    const Vec<T> q = task.roots.sqrt * detail::standard_normals<T>(rng, d, 1);
    const Vec<T> xi = task.noise_sd * detail::standard_normals<T>(rng, k, 1);
    const Mat<T> X = detail::standard_normals<T>(rng, tokens, d) * task.roots.sqrt;
    const Vec<T> w = B.transpose() * q;
    out.push_back(to_double(T((A * attention_average(w, X) - task.M * q - xi).squaredNorm() / T(2))));
  }
  return out;
}

template <class T>
std::vector<double> richardson_loss_samples(const Mat<T>& A, const Mat<T>& B, const RegressionTask<T>& task, int short_tokens,
                                            int long_tokens, int draws, Rng& rng) {
  std::vector<double> out;
  out.reserve(draws);
  const int d = static_cast<int>(task.Sigma.rows()), k = static_cast<int>(task.M.rows());
  const T t1(short_tokens), t2(long_tokens);
  for (int s = 0; s < draws; ++s) {
    const Vec<T> q = task.roots.sqrt * detail::standard_normals<T>(rng, d, 1);
    const Vec<T> xi = task.noise_sd * detail::standard_normals<T>(rng, k, 1);
    const Mat<T> X = detail::standard_normals<T>(rng, long_tokens, d) * task.roots.sqrt;
    const Vec<T> w = B.transpose() * q, y = task.M * q + xi;
    const T l1 = (A * attention_average(w, Mat<T>(X.topRows(short_tokens))) - y).squaredNorm() / T(2);
    const T l2 = (A * attention_average(w, X) - y).squaredNorm() / T(2);
    out.push_back(to_double(T((t2 * l2 - t1 * l1) / (t2 - t1))));
  }
  return out;
}

}  // namespace thm
