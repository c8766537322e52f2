#include "numerics/random_matrix.hpp"

#include <cmath>
#include <stdexcept>

namespace thm {

MatD gaussian_matrix(Rng& rng, int rows, int cols, double scale) {
  MatD m(rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) m(i, j) = scale * rng.normal();
  return m;
}

MatD random_orthogonal(Rng& rng, int n) {
  MatD q = MatD::Identity(n, n);
  std::vector<double> v(n);
  for (int k = 0; k < n; ++k) {
    double norm2 = 0.0;
    do {
      norm2 = 0.0;
      for (int i = 0; i < n; ++i) {
        v[i] = rng.normal();
        norm2 += v[i] * v[i];
      }
    } while (norm2 == 0.0);
    // q <- q (I - 2 v v^T / |v|^2)
    for (int i = 0; i < n; ++i) {
      double dot = 0.0;
      for (int j = 0; j < n; ++j) dot += q(i, j) * v[j];
      const double f = 2.0 * dot / norm2;
      for (int j = 0; j < n; ++j) q(i, j) -= f * v[j];
    }
  }
  return q;
}

MatD fixed_order_product(const MatD& a, const MatD& b) {
  if (a.cols() != b.rows()) throw std::invalid_argument("fixed_order_product: shape mismatch");
  MatD c(a.rows(), b.cols());
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index j = 0; j < b.cols(); ++j) {
      double s = 0.0;
      for (Eigen::Index k = 0; k < a.cols(); ++k) s += a(i, k) * b(k, j);
      c(i, j) = s;
    }
  return c;
}

MatD spectrum_first_matrix(Rng& rng, int rows, int cols, const std::vector<double>& sigma) {
  const int p = std::min(rows, cols);
  if (static_cast<int>(sigma.size()) != p)
    throw std::invalid_argument("spectrum_first_matrix: need min(rows, cols) singular values");
  const MatD u = random_orthogonal(rng, rows);
  const MatD v = random_orthogonal(rng, cols);
  MatD m = MatD::Zero(rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      double s = 0.0;
      for (int k = 0; k < p; ++k) s += u(i, k) * sigma[k] * v(j, k);
      m(i, j) = s;
    }
  return m;
}

std::vector<double> geometric_spectrum(int p, double sigma_max, double kappa) {
  std::vector<double> s(p);
  for (int k = 0; k < p; ++k) {
    const double t = p == 1 ? 0.0 : static_cast<double>(k) / (p - 1);
    s[k] = sigma_max * cr_exp(-t * cr_log(kappa));
  }
  if (p > 1) s[p - 1] = sigma_max / kappa;
  return s;
}

}  // namespace thm
