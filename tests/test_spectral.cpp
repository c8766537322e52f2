// Singular values against a known spectrum, constructed at the working precision from exact
// Householder factors: 1e-12 relative in double, 1e-40 at mp50.
#include "numerics/eigen_types.hpp"
#include "numerics/random.hpp"
#include "tests/orthogonal_matrix.hpp"
#include "numerics/random_matrix.hpp"
#include "numerics/matmul.hpp"
#include "numerics/softmax.hpp"
#include "numerics/spectral.hpp"

#include <doctest/doctest.h>

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
  for (const auto& shape : {std::pair{5, 5}, {8, 3}, {3, 8}, {12, 12}})
    for (SvdMethod m : {SvdMethod::jacobi, SvdMethod::bdc}) {
      const int r = shape.first, c = shape.second;
      const double err = worst_relative_error<mp50>(rng, r, c, 1e3, m);
      INFO(r << "x" << c << " method " << int(m) << ": " << err);
      CHECK(err < 1e-40);
    }
}

TEST_CASE("spectral: the error tightens from double to mp50 to mp100") {
  Rng a(19), b(19), c(19);
  const double e64 = worst_relative_error<double>(a, 10, 7, 1e4, SvdMethod::jacobi);
  const double e50 = worst_relative_error<mp50>(b, 10, 7, 1e4, SvdMethod::jacobi);
  const double e100 = worst_relative_error<mp100>(c, 10, 7, 1e4, SvdMethod::jacobi);
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

// The claims evaluate the mp100 rung with mpfr_dynamic at 100 digits (theorems/register_claim.hpp, DigitsGuard). MPFR rounds
// correctly at a given precision, so the kernels must give the fixed type's bits: refined SVD, Ozaki product
// (16 x 16 x 16, above its threshold), softmax; and decimal_digits reads the runtime precision.
TEST_CASE("spectral: mpfr_dynamic at 100 digits gives the fixed 100-digit type's bits (SVD, product, softmax)") {
  Rng rng(29);
  const MatD a = gaussian_matrix(rng, 16, 16), b = gaussian_matrix(rng, 16, 16);
  const auto digits = [](const auto& m) {
    std::vector<std::string> out;
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      for (Eigen::Index i = 0; i < m.rows(); ++i) out.push_back(exact_decimal(m(i, j)));
    return out;
  };
  const Mat<mp100> a100 = lift<mp100>(a), b100 = lift<mp100>(b);
  const Vec<mp100> s100 = singular_values(a100);
  const Mat<mp100> p100 = product(a100, b100), q100 = softmax_rows(a100);
  CHECK(decimal_digits<mp100>() == 100);
  const DigitsGuard guard(100);
  CHECK(decimal_digits<mpfr_dynamic>() == 100);
  const Mat<mpfr_dynamic> ad = lift<mpfr_dynamic>(a), bd = lift<mpfr_dynamic>(b);
  CHECK(ad(0, 0).precision() == 100);
  CHECK(digits(singular_values(ad)) == digits(s100));
  CHECK(digits(product(ad, bd)) == digits(p100));
  CHECK(digits(softmax_rows(ad)) == digits(q100));
}
