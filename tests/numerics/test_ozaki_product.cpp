// The Ozaki-scheme product (numerics/ozaki_product.hpp) against an exact reference: every entry within
// u (|A| |B|)_ij + u |C_ij| (u = 2^-p, docs/derivations/ozaki-product.md), at 50, 100 and 150 digits, on Gaussian,
// badly scaled, wide-range, cancelling and integer inputs, transposed and rectangular; the error falls with the digits.
#include "tests/support/mp50.hpp"
#include "numerics/matmul.hpp"
#include "numerics/random.hpp"
#include "numerics/scalar.hpp"

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <limits>

using namespace thm;

namespace {

// The exact sum_k a_ik b_kj rounded to 4p + 64 bits: products are exact at 2p bits, 4p-bit sums lose nothing the
// test can see.
struct ExactProduct {
  template <class T>
  static double worst_ratio(const Mat<T>& a, const Mat<T>& b, const Mat<T>& c) {
    // max over entries of |C - AB| / (u (|A||B|) + u |C|); <= 1 is the stated bound.
    const long p = static_cast<long>(mpfr_get_prec(c(0, 0).backend().data()));
    mpfr_t exact, absum, term, diff, allow;
    for (mpfr_ptr x : {exact, absum, term, diff, allow}) mpfr_init2(x, 4 * p + 64);
    double worst = 0;
    for (Eigen::Index i = 0; i < c.rows(); ++i)
      for (Eigen::Index j = 0; j < c.cols(); ++j) {
        mpfr_set_zero(exact, 1);
        mpfr_set_zero(absum, 1);
        for (Eigen::Index k = 0; k < a.cols(); ++k) {
          mpfr_mul(term, a(i, k).backend().data(), b(k, j).backend().data(), MPFR_RNDN);
          mpfr_add(exact, exact, term, MPFR_RNDN);
          mpfr_abs(term, term, MPFR_RNDN);
          mpfr_add(absum, absum, term, MPFR_RNDN);
        }
        mpfr_sub(diff, c(i, j).backend().data(), exact, MPFR_RNDN);
        mpfr_abs(diff, diff, MPFR_RNDN);
        mpfr_abs(allow, c(i, j).backend().data(), MPFR_RNDN);
        mpfr_add(allow, allow, absum, MPFR_RNDN);
        mpfr_mul_2si(allow, allow, -p, MPFR_RNDN);
        if (mpfr_zero_p(diff)) continue;
        if (mpfr_zero_p(allow)) {
          worst = std::numeric_limits<double>::infinity();
          continue;
        }
        mpfr_div(diff, diff, allow, MPFR_RNDN);
        worst = std::max(worst, mpfr_get_d(diff, MPFR_RNDU));
      }
    for (mpfr_ptr x : {exact, absum, term, diff, allow}) mpfr_clear(x);
    return worst;
  }
};

template <class T>
Mat<T> gaussian(Rng& rng, Eigen::Index rows, Eigen::Index cols) {
  Mat<T> m(rows, cols);
  for (Eigen::Index j = 0; j < cols; ++j)
    for (Eigen::Index i = 0; i < rows; ++i) m(i, j) = T(rng.normal()) + T(rng.normal()) * epsilon<T>() * T(1e10);
  return m;
}

template <class T>
Mat<T> by_ozaki(const Mat<T>& a, const Mat<T>& b, Trans ta = Trans::none, Trans tb = Trans::none) {
  Mat<T> c;
  REQUIRE(product_ozaki(a, b, ta, tb, c));
  return c;
}

template <class T>
void check_gaussian_shapes() {
  Rng rng(20261201);
  for (const std::array<int, 3>& shape : {std::array<int, 3>{1, 1, 1}, {3, 1, 5}, {8, 48, 48}, {64, 64, 64}, {17, 300, 9}, {40, 7, 33}}) {
    const int m = shape[0], k = shape[1], n = shape[2];  // not structured bindings: clang 14 cannot capture them (CAPTURE)
    const Mat<T> a = gaussian<T>(rng, m, k), b = gaussian<T>(rng, k, n);
    CAPTURE(m);
    CAPTURE(k);
    CAPTURE(n);
    CHECK(ExactProduct::worst_ratio(a, b, by_ozaki(a, b)) <= 1.0);
    // Transposes read the same entries.
    const Mat<T> at = a.transpose(), bt = b.transpose();
    CHECK(by_ozaki(at, b, Trans::transpose) == by_ozaki(a, b));
    CHECK(by_ozaki(a, bt, Trans::none, Trans::transpose) == by_ozaki(a, b));
    CHECK(by_ozaki(at, bt, Trans::transpose, Trans::transpose) == by_ozaki(a, b));
  }
}

}  // namespace

TEST_CASE("ozaki.plan: exact level sums and enough digits") {
  for (long p : {53L, 168L, 336L, 500L, 1000L})
    for (long k : {1L, 8L, 64L, 1000L, 100000L}) {
      const ozaki::Plan pl = ozaki::plan(p, k);
      CAPTURE(p);
      CAPTURE(k);
      REQUIRE(pl.slices > 0);
      CHECK(pl.slices * pl.beta >= p + 20);
      CHECK(static_cast<double>(pl.slices) * k * std::ldexp(1.0, 2 * pl.beta) < std::ldexp(1.0, 53));
    }
  CHECK(ozaki::plan(168, 0).slices == 0);
  CHECK(ozaki::plan(168, 1L << 40).slices == 0);  // no beta >= 8 keeps the level sums exact
}

TEST_CASE("ozaki.gaussian: every entry within u |A||B| + u |C|, at 50, 100 and 150 digits") {
  check_gaussian_shapes<mp50>();
  const DigitsGuard at100(mp100_digits);  // the mp100 rung: mpfr_dynamic at 100 digits
  check_gaussian_shapes<mpfr_dynamic>();
  const DigitsGuard digits(150);
  check_gaussian_shapes<mpfr_dynamic>();
}

TEST_CASE("ozaki.scaling: rows and columns 2^+-300 apart, entries over 60 decades, zeros") {
  Rng rng(7);
  const int m = 24, k = 40, n = 20;
  Mat<mp50> a = gaussian<mp50>(rng, m, k), b = gaussian<mp50>(rng, k, n);
  for (int i = 0; i < m; ++i) a.row(i) *= mp50(std::ldexp(1.0, 25 * i - 300));
  for (int j = 0; j < n; ++j) b.col(j) *= mp50(std::ldexp(1.0, 300 - 30 * j));
  for (int i = 0; i < m; ++i)
    for (int kk = 0; kk < k; ++kk) a(i, kk) *= pow(mp50(10), rng.uniform_int(-30, 30));
  a.row(3).setZero();
  b.col(5).setZero();
  // Row 0 and column 0 meet only in their small entries: C(0, 0) = 2e-60 against 2^(mu_0 + nu_0) ~ 1.
  a.row(0).setZero();
  a(0, 0) = mp50(1);
  a(0, 1) = mp50("1e-60");
  b.col(0).setZero();
  b(0, 0) = mp50("1e-60");
  b(1, 0) = mp50(1);
  b.row(11).setZero();
  ozaki::thread_stats() = {};
  const Mat<mp50> c = by_ozaki(a, b);
  CHECK(ExactProduct::worst_ratio(a, b, c) <= 1.0);
  CHECK(abs(c(0, 0) / mp50("2e-60") - 1) < 1e-48);
  CHECK(c.row(3).isZero(0));
  CHECK(c.col(5).isZero(0));
  // Entries whose large terms do not meet are recomputed by MPFR (the magnitude test).
  CHECK(ozaki::thread_stats().fallback_entries > 0);
  CHECK(ozaki::thread_stats().entries > 0);
}

TEST_CASE("ozaki.cancellation: products that vanish to the last digit") {
  const DigitsGuard at100(mp100_digits);  // the mp100 rung: mpfr_dynamic at 100 digits
  // B's columns orthogonal to A's rows up to rounding at mp100: C is of order u |A||B|, every digit of it noise
  // relative to |C| but not relative to |A||B|; the bound is the componentwise one.
  Rng rng(11);
  const int m = 12, k = 30;
  const Mat<mpfr_dynamic> a = gaussian<mpfr_dynamic>(rng, m, k);
  Mat<mpfr_dynamic> b = gaussian<mpfr_dynamic>(rng, k, 6);
  // Project b's columns onto the orthogonal complement of a's row space (Gram-Schmidt at mp100, twice).
  Mat<mpfr_dynamic> q = a.transpose();
  for (int j = 0; j < m; ++j) {
    for (int r = 0; r < 2; ++r)
      for (int i = 0; i < j; ++i) q.col(j) -= q.col(i).dot(q.col(j)) * q.col(i);
    q.col(j) /= q.col(j).norm();
  }
  for (int r = 0; r < 2; ++r) b -= q * (q.transpose() * b);
  const Mat<mpfr_dynamic> c = by_ozaki(a, b);
  CHECK(ExactProduct::worst_ratio(a, b, c) <= 1.0);
  CHECK(to_double(c.cwiseAbs().maxCoeff()) < 1e-90);
}

TEST_CASE("ozaki.integers: small integer matrices multiply exactly") {
  Rng rng(3);
  Mat<mp50> a(30, 50), b(50, 20);
  for (Eigen::Index e = 0; e < a.size(); ++e) a.data()[e] = mp50(rng.uniform_int(-1000000, 1000000));
  for (Eigen::Index e = 0; e < b.size(); ++e) b.data()[e] = mp50(rng.uniform_int(-1000000, 1000000));
  CHECK(by_ozaki(a, b) == product_mpfr_loop(a, b));  // both exact: the sums stay below 2^60
}

TEST_CASE("ozaki.nonfinite: the scheme declines, product() propagates as the MPFR loop does") {
  Rng rng(5);
  Mat<mp50> a = gaussian<mp50>(rng, 20, 20), b = gaussian<mp50>(rng, 20, 20);
  a(4, 7) = std::numeric_limits<mp50>::quiet_NaN();
  b(2, 3) = std::numeric_limits<mp50>::infinity();
  Mat<mp50> c;
  CHECK_FALSE(product_ozaki(a, b, Trans::none, Trans::none, c));
  const Mat<mp50> p = product(a, b), r = product_mpfr_loop(a, b);
  for (Eigen::Index e = 0; e < p.size(); ++e) {
    CHECK(isnan(p.data()[e]) == isnan(r.data()[e]));
    if (!isnan(p.data()[e])) CHECK(p.data()[e] == r.data()[e]);
  }
}

TEST_CASE("ozaki.ladder: the error falls with the digits, as the MPFR loop's does") {
  // One instance at 50 and 100 digits: A = A0 / 3, B = B0 / 7 with A0, B0 double Gaussians, formed at each precision.
  // The worst relative error |C - AB| / (|A||B|) against the exact product (1000 digits) falls by at least 10^40, and
  // at each rung stays at or below the MPFR loop's.
  Rng rng(13);
  MatD ad(32, 64), bd(64, 32);
  for (Eigen::Index e = 0; e < ad.size(); ++e) ad.data()[e] = rng.normal();
  for (Eigen::Index e = 0; e < bd.size(); ++e) bd.data()[e] = rng.normal();
  double e50 = 0, e100 = 0, loop50 = 0, loop100 = 0, eps50 = 0, eps100 = 0;
  {  // the reference at 1000 digits
    const DigitsGuard reference(1000);
    const Mat<mpfr_dynamic> ar = lift<mpfr_dynamic>(ad) / mpfr_dynamic(3), br = lift<mpfr_dynamic>(bd) / mpfr_dynamic(7);
    const Mat<mpfr_dynamic> exact = product_mpfr_loop(ar, br);
    const Mat<mpfr_dynamic> absum =
        product_mpfr_loop(Mat<mpfr_dynamic>(ar.cwiseAbs()), Mat<mpfr_dynamic>(br.cwiseAbs()));
    const auto relative = [&](const auto& c) {
      double worst = 0;
      for (Eigen::Index e = 0; e < c.size(); ++e)
        worst = std::max(worst,
                         to_double(mpfr_dynamic(abs(mpfr_dynamic(c.data()[e]) - exact.data()[e]) / absum.data()[e])));
      return worst;
    };
    Mat<mp50> ozaki50, loop_50;
    at_mp50([&] {
      eps50 = to_double(epsilon<mp50>());
      const Mat<mp50> a50 = lift<mp50>(ad) / mp50(3), b50 = lift<mp50>(bd) / mp50(7);
      ozaki50 = by_ozaki(a50, b50);
      loop_50 = product_mpfr_loop(a50, b50);
    });
    e50 = relative(ozaki50);
    loop50 = relative(loop_50);
    Mat<mpfr_dynamic> ozaki100, loop;  // the mp100 rung: mpfr_dynamic at 100 digits
    {
      const DigitsGuard at100(mp100_digits);
      eps100 = to_double(epsilon<mpfr_dynamic>());
      const Mat<mpfr_dynamic> a100 = lift<mpfr_dynamic>(ad) / mpfr_dynamic(3), b100 = lift<mpfr_dynamic>(bd) / mpfr_dynamic(7);
      ozaki100 = by_ozaki(a100, b100);
      loop = product_mpfr_loop(a100, b100);
    }
    e100 = relative(ozaki100);
    loop100 = relative(loop);
  }
  MESSAGE("worst |C - AB| / |A||B|: mp50 ozaki ", e50, " loop ", loop50, "; mp100 ozaki ", e100, " loop ", loop100);
  CHECK(e50 > 0);
  CHECK(e50 <= 3 * eps50);  // input rounding (2 u) + the product's (u |A||B| + u |C|)
  CHECK(e100 <= 3 * eps100);
  CHECK(e100 < 1e-40 * e50);
  CHECK(e50 <= loop50);
  CHECK(e100 <= loop100);
}
