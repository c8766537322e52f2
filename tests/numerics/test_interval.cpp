// Interval certification (docs/derivations/interval_enclosure.md): the enclosures contain the exact
// singular values (diagonal matrices; a random 5x3 matrix against a 200-digit reference), sharpen
// by orders of magnitude with the digits, widen with the box and contain every sample point's
// values; the PD certificate proves only what is true; the interval softmax encloses the softmax.
// References are computed at more digits than the enclosure and compared inside their own
// precision scope (as strings in between), so no copy can round them to the lower precision.
#include "numerics/interval.hpp"
#include "numerics/random.hpp"
#include "numerics/random_matrix.hpp"
#include "numerics/softmax.hpp"
#include "numerics/spectral.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace thm;

namespace {

std::string show(const mpfi_dynamic& x) {
  return "[" + exact_decimal(lower(x)) + ", " + exact_decimal(upper(x)) + "]";
}

// Singular values of a double matrix at `digits`, as full-precision strings.
std::vector<std::string> reference_singular_values(const MatD& a, unsigned digits) {
  const IntervalPrecision guard(digits);
  const Vec<mpfr_dynamic> s = singular_values(lift<mpfr_dynamic>(a), SvdMethod::jacobi);
  std::vector<std::string> out;
  for (Eigen::Index k = 0; k < s.size(); ++k) out.push_back(exact_decimal(s(k)));
  return out;
}

// True if every enclosure contains the reference read back at `digits`.
bool contains_all(const std::vector<mpfi_dynamic>& enclosure, const std::vector<std::string>& reference,
                  unsigned digits) {
  const IntervalPrecision guard(digits);
  if (enclosure.size() != reference.size()) return false;
  for (std::size_t k = 0; k < enclosure.size(); ++k)
    if (!contains(enclosure[k], mpfr_dynamic(reference[k]))) return false;
  return true;
}

// The box mid +- rad (each end rounded outward to the interval precision).
IMat box(const MatD& mid, double rad) {
  IMat a(mid.rows(), mid.cols());
  for (Eigen::Index j = 0; j < mid.cols(); ++j)
    for (Eigen::Index i = 0; i < mid.rows(); ++i) a(i, j) = make_interval(mid(i, j) - rad, mid(i, j) + rad);
  return a;
}

// A point of the box mid +- rad: t in [-1, 1]; rounding is monotone, so fl(mid + fl(rad t)) stays
// between fl(mid - rad) and fl(mid + rad).
MatD sample(Rng& rng, const MatD& mid, double rad, bool corner) {
  MatD p(mid.rows(), mid.cols());
  for (Eigen::Index j = 0; j < mid.cols(); ++j)
    for (Eigen::Index i = 0; i < mid.rows(); ++i) {
      const double t = corner ? (rng.bernoulli(0.5) ? 1.0 : -1.0) : rng.uniform(-1.0, 1.0);
      p(i, j) = mid(i, j) + rad * t;
    }
  return p;
}

MatD random_5x3() {
  Rng rng(5003);
  return gaussian_matrix(rng, 5, 3);
}

}  // namespace

TEST_CASE("interval: IntervalPrecision sets and restores both thread precisions (never the global ones), endpoints round outward") {
  const unsigned fi = mpfi_dynamic::default_precision(), ti = mpfi_dynamic::thread_default_precision();
  const unsigned fr = mpfr_dynamic::default_precision(), tr = mpfr_dynamic::thread_default_precision();
  {
    const IntervalPrecision guard(77);
    CHECK(mpfi_dynamic::thread_default_precision() == 77);
    CHECK(mpfr_dynamic::thread_default_precision() == 77);
    CHECK(mpfi_dynamic::default_precision() == fi);  // other threads read the global default
    CHECK(mpfr_dynamic::default_precision() == fr);
  }
  CHECK(mpfi_dynamic::default_precision() == fi);
  CHECK(mpfi_dynamic::thread_default_precision() == ti);
  CHECK(mpfr_dynamic::default_precision() == fr);
  CHECK(mpfr_dynamic::thread_default_precision() == tr);
  CHECK_THROWS_AS(IntervalPrecision(0), std::invalid_argument);

  const IntervalPrecision guard(30);
  const mpfi_dynamic third = mpfi_dynamic(1) / mpfi_dynamic(3);
  INFO("1/3 in " << show(third));
  CHECK(width_double(third) > 0);
  CHECK(width_double(third) < 1e-28);
  CHECK(lower_double(third) < upper_double(third));
  CHECK(bmp::subset(third, make_interval(lower_double(third), upper_double(third))));
  CHECK(bmp::subset(third, make_interval(lower(third), upper(third))));
  CHECK(contains(third, midpoint(third)));
  CHECK_THROWS_AS(make_interval(1.0, 0.0), std::invalid_argument);
  // Disjoint intervals compare; overlapping ones would terminate the process (interval.hpp).
  CHECK(make_interval(0.0, 1.0) < make_interval(2.0, 3.0));
}

TEST_CASE("interval: diagonal and closed-form matrices' singular values are enclosed tightly") {
  const IntervalPrecision guard(30);
  MatD d = MatD::Zero(3, 3);
  d(0, 0) = 1e-3;
  d(1, 1) = -2;
  d(2, 2) = 3;
  MatD tall = MatD::Zero(4, 2);
  tall(0, 0) = 0.5;
  tall(1, 1) = -7;
  const std::vector<std::pair<MatD, std::vector<double>>> cases = {
      {d, {3, 2, 1e-3}}, {tall, {7, 0.5}}, {MatD(tall.transpose()), {7, 0.5}}};
  for (const auto& test_case : cases) {
    const auto& m = test_case.first;  // not a structured binding: clang 14 cannot capture one in INFO
    const auto& expected = test_case.second;
    const SingularValueEnclosure e = enclose_singular_values(to_interval(m));
    REQUIRE(e.sigma.size() == expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) {
      INFO(m.rows() << "x" << m.cols() << " sigma_" << k + 1 << " = " << expected[k] << " in " << show(e.sigma[k]));
      CHECK(contains(e.sigma[k], expected[k]));
      CHECK(width_double(e.sigma[k]) < 1e-25);
    }
  }
  // Not diagonal, singular values known in closed form: A^T A = [[25, 20], [20, 25]], so sqrt(45), sqrt(5).
  MatD known(2, 2);
  known << 3, 0, 4, 5;
  std::vector<std::string> roots;
  {
    const IntervalPrecision wide(200);
    roots = {exact_decimal(mpfr_dynamic(sqrt(mpfr_dynamic(45)))), exact_decimal(mpfr_dynamic(sqrt(mpfr_dynamic(5))))};
  }
  const SingularValueEnclosure k = enclose_singular_values(to_interval(known));
  INFO("[[3, 0], [4, 5]]: " << show(k.sigma[0]) << ", " << show(k.sigma[1]));
  CHECK(contains_all(k.sigma, roots, 200));
  CHECK(width_double(k.sigma[1]) < 1e-25);

  CHECK(enclose_singular_values(IMat(0, 3)).sigma.empty());
  IMat unbounded = to_interval(known);
  unbounded(0, 1) = make_interval(-INFINITY, 0.0);
  CHECK_THROWS_AS(enclose_singular_values(unbounded), std::invalid_argument);
  CHECK_FALSE(certify_positive_definite(unbounded));
  CHECK_THROWS_AS(interval_softmax_rows(unbounded), std::invalid_argument);
  CHECK(contains(enclose_spectral_norm(IMat(0, 0)), 0.0));
}

TEST_CASE("interval: a random 5x3 matrix's singular values lie in their enclosures (200-digit reference)") {
  const MatD a = random_5x3();
  const std::vector<std::string> reference = reference_singular_values(a, 200);
  for (unsigned digits : {20u, 30u, 60u}) {
    SingularValueEnclosure e;
    mpfi_dynamic norm;
    {
      const IntervalPrecision guard(digits);
      e = enclose_singular_values(to_interval(a));
      norm = enclose_spectral_norm(to_interval(a));
    }
    INFO(digits << " digits: sigma_min in " << show(e.sigma.back()) << ", reference " << reference.back());
    CHECK(contains_all(e.sigma, reference, 200));
    CHECK(contains_all({norm}, {reference.front()}, 200));
    CHECK(e.residual < 1e-10);
    CHECK(e.orthogonality_u < 1e-10);
    CHECK(e.orthogonality_v < 1e-10);
  }
  // The transpose has the same singular values (a 3x5 input exercises the wide shape).
  const IntervalPrecision guard(30);
  CHECK(contains_all(enclose_singular_values(to_interval(MatD(a.transpose()))).sigma, reference, 200));
}

TEST_CASE("interval: enclosures stay rigorous under assume_uniform_precision (as explore leaves mpfr_dynamic)") {
  const MatD a = random_5x3();
  const std::vector<std::string> reference = reference_singular_values(a, 200);
  const auto real_options = mpfr_dynamic::thread_default_variable_precision_options();
  const auto interval_options = mpfi_dynamic::thread_default_variable_precision_options();
  std::vector<mpfi_dynamic> sigma;
  {
    const IntervalPrecision guard(30);
    mpfr_dynamic::thread_default_variable_precision_options(bmp::variable_precision_options::assume_uniform_precision);
    mpfi_dynamic::thread_default_variable_precision_options(bmp::variable_precision_options::assume_uniform_precision);
    sigma = enclose_singular_values(to_interval(a)).sigma;
    CHECK(certify_positive_definite(to_interval(MatD(MatD::Identity(3, 3)))));
    mpfr_dynamic::thread_default_variable_precision_options(real_options);
    mpfi_dynamic::thread_default_variable_precision_options(interval_options);
  }
  CHECK(contains_all(sigma, reference, 200));
}

TEST_CASE("interval: the enclosure of sigma_min sharpens by orders of magnitude at 30, 60, 120 digits") {
  const MatD a = random_5x3();
  std::vector<double> w;
  for (unsigned digits : {30u, 60u, 120u}) {
    const IntervalPrecision guard(digits);
    const SingularValueEnclosure e = enclose_singular_values(to_interval(a));
    w.push_back(width_double(e.sigma.back()));
    MESSAGE("5x3 sigma_min enclosure at " << digits << " digits: width " << w.back() << ", "
                                          << show(e.sigma.back()));
  }
  CHECK(w[0] > 0);
  CHECK(w[0] < 1e-25);
  CHECK(w[1] < 1e-25 * w[0]);
  CHECK(w[2] < 1e-50 * w[1]);
}

TEST_CASE("interval: nearly singular and singular matrices give sigma_min enclosures at or near 0") {
  const IntervalPrecision guard(30);
  // Diagonal: the approximate SVD is exact (r = e = 0), so even 1e-40 is enclosed tightly.
  MatD diag = MatD::Zero(2, 2);
  diag(0, 0) = 1;
  diag(1, 1) = 1e-40;
  const SingularValueEnclosure d = enclose_singular_values(to_interval(diag));
  INFO("diag(1, 1e-40): sigma_2 in " << show(d.sigma[1]));
  CHECK(contains(d.sigma[1], 1e-40));
  CHECK(upper_double(d.sigma[1]) < 1e-39);

  // [[1, 1], [1, 1 + 1e-40]]: sigma_2 = 1e-40 / sigma_1 (about 5e-41). 1 + 1e-40 is not representable
  // at 30 digits, so its interval also holds 1 and the box holds a singular matrix: the lower end
  // must be 0.
  IMat near = to_interval(MatD(MatD::Ones(2, 2)));
  near(1, 1) = mpfi_dynamic(1) + mpfi_dynamic("1e-40");
  const SingularValueEnclosure e = enclose_singular_values(near);
  INFO("[[1, 1], [1, 1 + 1e-40]]: sigma_2 in " << show(e.sigma[1]));
  CHECK(lower_double(e.sigma[1]) == 0);
  CHECK(contains(e.sigma[1], 5e-41));
  CHECK(upper_double(e.sigma[1]) < 1e-25);
  CHECK(contains(e.sigma[0], 2.0));

  // Exactly singular: integer columns with c3 = c1 + c2.
  MatD s(4, 3);
  s << 1, 2, 3, 4, -1, 3, 0, 5, 5, 2, 2, 4;
  const SingularValueEnclosure f = enclose_singular_values(to_interval(s));
  INFO("rank 2 (4x3): sigma_3 in " << show(f.sigma[2]));
  CHECK(contains(f.sigma[2], 0.0));
  CHECK(upper_double(f.sigma[2]) < 1e-25);
  CHECK(lower_double(f.sigma[1]) > 1);
}

TEST_CASE("interval: a wide box gives a correspondingly wide enclosure containing every sample's values") {
  const IntervalPrecision guard(30);
  Rng rng(4003);
  const MatD mid = gaussian_matrix(rng, 4, 3);
  const double rad = 1e-3;
  const SingularValueEnclosure e = enclose_singular_values(box(mid, rad));
  // r >= ||rad 1 1^T||_F = sqrt(12) rad, and r is that up to the midpoint's residual (1e-29); the
  // factor terms are 1e-29 too, so every width is 2 sqrt(12) rad to many digits.
  const double expected = 2 * std::sqrt(12.0) * rad;
  for (std::size_t k = 0; k < e.sigma.size(); ++k) {
    INFO("sigma_" << k + 1 << " in " << show(e.sigma[k]));
    REQUIRE(lower_double(e.sigma[k]) > 0);  // no clamping at 0, so the width is exactly 2 r
    CHECK(width_double(e.sigma[k]) > 0.999 * expected);
    CHECK(width_double(e.sigma[k]) < 1.001 * expected);
  }
  for (int t = 0; t < 40; ++t) {
    const MatD p = sample(rng, mid, rad, t % 4 == 0);
    const Vec<mpfr_dynamic> s = singular_values(lift<mpfr_dynamic>(p), SvdMethod::jacobi);
    for (Eigen::Index k = 0; k < s.size(); ++k) {
      INFO("sample " << t << ": sigma_" << k + 1 << " = " << exact_decimal(s(k)) << " in " << show(e.sigma[k]));
      CHECK(contains(e.sigma[k], s(k)));
    }
  }
}

TEST_CASE("interval: the PD certificate holds for SPD matrices and fails for indefinite and singular ones") {
  const IntervalPrecision guard(30);
  Rng rng(4004);
  const MatD b = gaussian_matrix(rng, 4, 4);
  MatD spd = fixed_order_product(MatD(b.transpose()), b);  // exactly symmetric: same products, same order
  spd += MatD::Identity(4, 4);
  CHECK(certify_positive_definite(to_interval(spd)));
  CHECK(certify_positive_definite(box(spd, 1e-3)));  // lambda_min >= 1, the box moves it by <= 4e-3

  MatD tiny = MatD::Identity(2, 2);
  tiny(1, 1) = 1e-20;  // PD with kappa 1e20: still provable at 30 digits
  CHECK(certify_positive_definite(to_interval(tiny)));

  MatD indefinite(2, 2);
  indefinite << 2, 3, 3, 2;  // eigenvalues 5, -1
  CHECK_FALSE(certify_positive_definite(to_interval(indefinite)));
  MatD swap(2, 2);
  swap << 0, 1, 1, 0;
  CHECK_FALSE(certify_positive_definite(to_interval(swap)));

  // The midpoint is PD (Cholesky succeeds) but the box holds indefinite matrices.
  IMat straddle = to_interval(MatD(MatD::Identity(2, 2)));
  straddle(1, 1) = make_interval(-0.1, 0.5);
  CHECK_FALSE(certify_positive_definite(straddle));

  MatD ones = MatD::Ones(2, 2);  // eigenvalues 2, 0
  CHECK_FALSE(certify_positive_definite(to_interval(ones)));
  MatD f(4, 2);
  f << 1, 2, -1, 3, 2, 0, 1, 1;
  const MatD rank2 = fixed_order_product(f, MatD(f.transpose()));  // 4x4 PSD of rank 2, exact integers
  CHECK_FALSE(certify_positive_definite(to_interval(rank2)));
  CHECK_THROWS_AS(certify_positive_definite(IMat(2, 3)), std::invalid_argument);
}

TEST_CASE("interval: the interval softmax encloses the softmax and each row's sum encloses 1") {
  Rng rng(4005);
  const MatD k = gaussian_matrix(rng, 3, 5, 3.0);
  std::vector<std::string> reference;  // softmax at 60 digits, far inside a 30-digit enclosure
  {
    const IntervalPrecision guard(60);
    const Mat<mpfr_dynamic> s = softmax_rows(lift<mpfr_dynamic>(k));
    for (Eigen::Index i = 0; i < s.size(); ++i) reference.push_back(exact_decimal(s(i)));
  }
  IMat s;
  {
    const IntervalPrecision guard(30);
    s = interval_softmax_rows(to_interval(k));
    for (Eigen::Index j = 0; j < s.rows(); ++j) {
      mpfi_dynamic total(0);
      for (Eigen::Index l = 0; l < s.cols(); ++l) {
        total += s(j, l);
        CHECK(width_double(s(j, l)) < 1e-25);
      }
      INFO("row " << j << " sums to " << show(total));
      CHECK(contains(total, 1.0));
    }
  }
  std::vector<mpfi_dynamic> entries(s.data(), s.data() + s.size());  // column-major, as reference
  CHECK(contains_all(entries, reference, 60));

  // A box of logits: the enclosure contains the softmax of every sample point.
  const IntervalPrecision guard(30);
  const double rad = 0.1;
  const IMat wide = interval_softmax_rows(box(k, rad));
  for (Eigen::Index j = 0; j < wide.rows(); ++j) {
    mpfi_dynamic total(0);
    for (Eigen::Index l = 0; l < wide.cols(); ++l) total += wide(j, l);
    CHECK(contains(total, 1.0));
  }
  for (int t = 0; t < 20; ++t) {
    const Mat<mpfr_dynamic> p = softmax_rows(lift<mpfr_dynamic>(sample(rng, k, rad, t % 4 == 0)));
    for (Eigen::Index i = 0; i < p.size(); ++i) {
      INFO("sample " << t << " entry " << i << ": " << exact_decimal(p(i)) << " in " << show(wide(i)));
      CHECK(contains(wide(i), p(i)));
    }
  }
}
