// Random matrices for instances, built in double with scalar loops in a fixed order (no Eigen
// kernels, whose summation order depends on the SIMD width), so a seed gives the same bits anywhere.
#pragma once

#include "numerics/eigen_types.hpp"
#include "numerics/random.hpp"

#include <vector>

namespace thm {

// Entries i.i.d. N(0, scale^2).
MatD gaussian_matrix(Rng& rng, int rows, int cols, double scale = 1.0);

// An n x n orthogonal matrix: the product of n Householder reflections with Gaussian directions.
MatD random_orthogonal(Rng& rng, int n);

// rows x cols matrix U diag(sigma) V^T with U, V random orthogonal: its singular values are `sigma`
// (to rounding). sigma.size() must equal min(rows, cols).
MatD spectrum_first_matrix(Rng& rng, int rows, int cols, const std::vector<double>& sigma);

// p values geometrically spaced from sigma_max down to sigma_max / kappa (p >= 1).
std::vector<double> geometric_spectrum(int p, double sigma_max, double kappa);

// Plain triple-loop product in a fixed order (deterministic across platforms).
MatD fixed_order_product(const MatD& a, const MatD& b);

}  // namespace thm
