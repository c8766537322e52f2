// Singular values against a known spectrum, constructed at the working precision from exact
// Householder factors: 1e-12 relative in double, 1e-40 at mp50.
#include "tests/support/mp50.hpp"
#include "numerics/eigen_types.hpp"
#include "numerics/random.hpp"
#include "tests/support/orthogonal_matrix.hpp"
#include "numerics/random_matrix.hpp"
#include "numerics/matmul.hpp"
#include "numerics/softmax.hpp"
#include "numerics/spectral.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace thm;

namespace {

using test::orthogonal;

template <class T>
double worst_relative_error(Rng& rng, int rows, int cols, double kappa, SvdMethod method) {
  const int p = std::min(rows, cols);
  const std::vector<double> sigma = geometric_spectrum(p, 3.0, kappa);
  Mat<T> d = Mat<T>::Zero(rows, cols);
  for (int k = 0; k < p; ++k) d(k, k) = T(sigma[k]);
  const Mat<T> m = orthogonal<T>(rng, rows) * d * orthogonal<T>(rng, cols).transpose();
  const Vec<T> s = singular_values(m, method);
  double worst = 0;
  for (int k = 0; k < p; ++k) {
    using std::abs;
    worst = std::max(worst, to_double(T(abs(T(s(k) - T(sigma[k]))) / T(sigma[k]))));
  }
  return worst;
}

}  // namespace

TEST_CASE("spectral: singular values match a known spectrum to 1e-12 relative in double") {
  Rng rng(17);
  for (const auto& shape : {std::pair{5, 5}, {8, 3}, {3, 8}, {12, 12}, {24, 20}})
    for (SvdMethod m : {SvdMethod::jacobi, SvdMethod::bdc}) {
      const int r = shape.first, c = shape.second;  // not a structured binding: clang 14 cannot capture one in INFO
      const double err = worst_relative_error<double>(rng, r, c, 1e3, m);
      INFO(r << "x" << c << " method " << int(m) << ": " << err);
      CHECK(err < 1e-12);
    }
}

TEST_CASE("spectral: singular values match a known spectrum to 1e-40 relative at mp50") {
  Rng rng(18);
  for (const auto& shape : {std::pair{5, 5}, {8, 3}, {3, 8}, {12, 12}, {24, 20}}) {  // Jacobi: MPFR has no BDC path
    const int r = shape.first, c = shape.second;
    const double err = worst_relative_error<mp50>(rng, r, c, 1e3, SvdMethod::jacobi);
    INFO(r << "x" << c << ": " << err);
    CHECK(err < 1e-40);
  }
}

TEST_CASE("spectral: the error sharpens from double to mp50 to mp100") {
  const DigitsGuard at100(mp100_digits);  // the mp100 rung: mpfr_dynamic at 100 digits
  Rng a(19), b(19), c(19);
  const double e64 = worst_relative_error<double>(a, 10, 7, 1e4, SvdMethod::jacobi);
  const double e50 = at_mp50([&] { return worst_relative_error<mp50>(b, 10, 7, 1e4, SvdMethod::jacobi); });
  const double e100 = worst_relative_error<mpfr_dynamic>(c, 10, 7, 1e4, SvdMethod::jacobi);
  INFO("double " << e64 << ", mp50 " << e50 << ", mp100 " << e100);
  CHECK(e50 < e64);
  CHECK(e100 < e50);
  CHECK(e100 < 1e-90);
}

TEST_CASE("spectral: condition number is infinite for an exactly singular matrix") {
  MatD m = MatD::Zero(3, 3);
  m(0, 0) = 2;
  m(1, 1) = 1;
  CHECK(std::isinf(condition_number<double>(singular_values<double>(m))));
  CHECK(spectral_norm<double>(m) == 2.0);
}

// The mp100 rung is mpfr_dynamic at 100 digits (numerics/scalar.hpp, mp100_digits; theorems/register_claim.hpp). Under
// the guard every result of the kernels carries exactly that precision (none leaks to the default or to an operand's):
// refined SVD, Ozaki product (16 x 16 x 16, above its threshold), softmax; and decimal_digits reads it.
TEST_CASE("spectral: mpfr_dynamic at 100 digits computes at exactly 100 digits (SVD, product, softmax)") {
  Rng rng(29);
  const MatD a = gaussian_matrix(rng, 16, 16), b = gaussian_matrix(rng, 16, 16);
  // Each entry at exactly `digits` digits, and within 1e-45 (relative to the largest) of the same kernel at mp50.
  const auto check = [](const auto& m, const auto& m50, unsigned digits) {
    double scale = 0, worst = 0;
    for (Eigen::Index e = 0; e < m.size(); ++e) scale = std::max(scale, std::fabs(to_double(m50.data()[e])));
    for (Eigen::Index e = 0; e < m.size(); ++e) {
      CHECK(m.data()[e].precision() == digits);
      worst = std::max(worst, std::fabs(to_double(m.data()[e]) - to_double(m50.data()[e])));
    }
    CHECK(worst <= 1e-45 * scale);
  };
  const Mat<mp50> a50 = lift<mp50>(a), b50 = lift<mp50>(b);  // the test case's precision: mp50 (main.cpp)
  const Vec<mp50> sv50 = singular_values(a50);
  const Mat<mp50> product50 = product(a50, b50), softmax50 = softmax_rows(a50);
  CHECK(decimal_digits<mp50>() == mp50_digits);
  CHECK(sv50(0).precision() == 50);
  CHECK(product50(0, 0).precision() == 50);
  CHECK(softmax50(0, 0).precision() == 50);
  const DigitsGuard outer(30);  // a different default around the rung: a leak would show as 30 digits
  const DigitsGuard guard(mp100_digits);
  CHECK(decimal_digits<mpfr_dynamic>() == 100);
  const Mat<mpfr_dynamic> ad = lift<mpfr_dynamic>(a), bd = lift<mpfr_dynamic>(b);
  CHECK(ad(0, 0).precision() == 100);
  check(singular_values(ad), sv50, 100);
  check(product(ad, bd), product50, 100);
  check(softmax_rows(ad), softmax50, 100);
}
