// Singular values and SVDs by refinement (numerics/refined_svd.hpp) against Eigen's MPFR Jacobi SVD, at 50, 100 and
// 150 digits; tolerance: the working precision's allowance singular_value_error_bound(m, n, ||A||_2).
#include "tests/support/mp50.hpp"
#include "numerics/eigen_types.hpp"
#include "numerics/numerical_failure.hpp"
#include "numerics/random.hpp"
#include "tests/support/orthogonal_matrix.hpp"
#include "numerics/random_matrix.hpp"
#include "numerics/refined_eigen.hpp"
#include "numerics/refined_svd.hpp"
#include "numerics/spectral.hpp"

#include <Eigen/Eigenvalues>
#include <doctest/doctest.h>

#include <algorithm>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

using namespace thm;

namespace {

using test::orthogonal;

// U diag(sigma) V^T formed at the working precision (sigma given at the working precision).
template <class T>
Mat<T> with_spectrum(Rng& rng, int rows, int cols, const Vec<T>& sigma) {
  Mat<T> d = Mat<T>::Zero(rows, cols);
  for (int k = 0; k < sigma.size(); ++k) d(k, k) = sigma(k);
  return orthogonal<T>(rng, rows) * d * orthogonal<T>(rng, cols).transpose();
}

template <class T>
T max_abs_diff(const Vec<T>& a, const Vec<T>& b) {
  using std::abs;
  T worst = 0;
  for (Eigen::Index k = 0; k < a.size(); ++k) worst = std::max(worst, T(abs(T(a(k) - b(k)))));
  return worst;
}

struct Outcome {
  double error = 0, tolerance = 0;
  double ratio = 0;  // error / tolerance, formed at the working precision (1e400 overflows a double)
  SvdPath path = SvdPath::refined;
  int iterations = 0;
};

// refined_singular_values against the MPFR Jacobi SVD; also checks the values are sorted and non-negative.
template <class T>
Outcome against_jacobi(const Mat<T>& m, int max_iterations = -1) {
  const RefinedSvd<T> r = refined_singular_values<T>(m, max_iterations);
  const Vec<T> ref = singular_values<T>(m, SvdMethod::jacobi);
  REQUIRE(r.values.size() == ref.size());
  for (Eigen::Index k = 0; k < r.values.size(); ++k) {
    CHECK(r.values(k) >= 0);
    if (k > 0) CHECK(r.values(k) <= r.values(k - 1));
  }
  Outcome o;
  const T norm = ref.size() ? T(ref(0)) : T(0);
  const T error = max_abs_diff<T>(r.values, ref), tolerance = singular_value_error_bound<T>(m.rows(), m.cols(), norm);
  o.error = to_double(error);
  o.tolerance = to_double(tolerance);
  o.ratio = tolerance > 0 ? to_double(T(error / tolerance)) : (error > 0 ? 1e300 : 0.0);
  o.path = r.path;
  o.iterations = r.iterations;
  return o;
}

std::string describe(int rows, int cols, const Outcome& o) {
  std::ostringstream s;
  s << rows << "x" << cols << ": error " << o.error << " (" << o.ratio << " of the allowance), path "
    << (o.path == SvdPath::refined ? "refined" : "mpfr_fallback") << ", " << o.iterations << " iterations";
  return s.str();
}

// The full decomposition: values as refined_singular_values', U and V orthogonal and A = U S V^T to a few
// allowances.
template <class T>
SvdPath check_full(const Mat<T>& m) {
  const RefinedSvd<T> r = refined_svd<T>(m, SvdVectors::full);
  const Eigen::Index rows = m.rows(), cols = m.cols();
  REQUIRE(r.U.rows() == rows);
  REQUIRE(r.U.cols() == rows);
  REQUIRE(r.V.rows() == cols);
  REQUIRE(r.V.cols() == cols);
  const Vec<T> ref = singular_values<T>(m, SvdMethod::jacobi);
  const T norm = ref.size() ? T(ref(0)) : T(1);
  const T tol = singular_value_error_bound<T>(rows, cols, norm);
  Mat<T> s = Mat<T>::Zero(rows, cols);
  for (Eigen::Index k = 0; k < r.values.size(); ++k) s(k, k) = r.values(k);
  const T residual = (r.U * s * r.V.transpose() - m).norm();
  const T orth_u = (r.U.transpose() * r.U - Mat<T>::Identity(rows, rows)).norm();
  const T orth_v = (r.V.transpose() * r.V - Mat<T>::Identity(cols, cols)).norm();
  INFO(rows << "x" << cols << " path " << int(r.path) << " residual " << to_double(residual) << " orthogonality "
            << to_double(orth_u) << ", " << to_double(orth_v) << ", allowance " << to_double(tol));
  CHECK(max_abs_diff<T>(r.values, ref) <= tol);
  CHECK(residual <= T(4) * tol);
  CHECK(orth_u <= T(4) * tol / norm);
  CHECK(orth_v <= T(4) * tol / norm);
  return r.path;
}

const std::vector<std::pair<int, int>> kShapes{{1, 1}, {2, 2}, {5, 5}, {8, 3}, {3, 8}, {12, 12}, {20, 16}, {16, 20}};

}  // namespace

TEST_CASE("refined_svd: Gaussian matrices match the MPFR Jacobi SVD at mp50 and mp100, on the refined path") {
  const DigitsGuard at100(mp100_digits);  // the mp100 rung: mpfr_dynamic at 100 digits
  Rng rng(31);
  for (const auto& shape : kShapes) {
    const int r = shape.first, c = shape.second;
    const MatD g = gaussian_matrix(rng, r, c);
    const Outcome o50 = at_mp50([&] { return against_jacobi<mp50>(lift<mp50>(g)); });
    const Outcome o100 = against_jacobi<mpfr_dynamic>(lift<mpfr_dynamic>(g));
    INFO("mp50 " << describe(r, c, o50) << "; mp100 " << describe(r, c, o100));
    CHECK(o50.ratio <= 1);
    CHECK(o100.ratio <= 1);
    CHECK(o50.path == SvdPath::refined);
    CHECK(o100.path == SvdPath::refined);
  }
}

TEST_CASE("refined_svd: mpfr_dynamic at 150 digits matches the MPFR Jacobi SVD") {
  const DigitsGuard digits(150);
  Rng rng(32);
  for (const auto& shape : {std::pair{6, 6}, {9, 4}, {4, 9}}) {
    const int r = shape.first, c = shape.second;
    const Outcome o = against_jacobi<mpfr_dynamic>(lift<mpfr_dynamic>(gaussian_matrix(rng, r, c)));
    INFO(describe(r, c, o));
    CHECK(o.ratio <= 1);
    CHECK(o.tolerance < 1e-145);
    CHECK(o.path == SvdPath::refined);
  }
}

TEST_CASE("refined_svd: ill-conditioned matrices (kappa 1e10, 1e14) at mp50 and mp100") {
  const DigitsGuard at100(mp100_digits);  // the mp100 rung: mpfr_dynamic at 100 digits
  Rng rng(33);
  for (double kappa : {1e10, 1e14})
    for (const auto& shape : {std::pair{10, 10}, {12, 7}, {7, 12}, {24, 24}}) {
      const int r = shape.first, c = shape.second;
      const MatD m = spectrum_first_matrix(rng, r, c, geometric_spectrum(std::min(r, c), 2.0, kappa));
      const Outcome o50 = at_mp50([&] { return against_jacobi<mp50>(lift<mp50>(m)); });
      const Outcome o100 = against_jacobi<mpfr_dynamic>(lift<mpfr_dynamic>(m));
      INFO("kappa " << kappa << " mp50 " << describe(r, c, o50) << "; mp100 " << describe(r, c, o100));
      CHECK(o50.ratio <= 1);
      CHECK(o100.ratio <= 1);
    }
}

TEST_CASE("refined_svd: clustered singular values (1e-20 relative pairs, exactly repeated) are correct on either path") {
  Rng rng(34);
  // Pairs sigma, sigma (1 + 1e-20), formed at the working precision.
  Vec<mp50> pairs(8);
  for (int k = 0; k < 8; k += 2) {
    pairs(k) = mp50(4 - k / 2);
    pairs(k + 1) = pairs(k) * (mp50(1) + mp50("1e-20"));
  }
  std::sort(pairs.data(), pairs.data() + pairs.size(), [](const mp50& a, const mp50& b) { return a > b; });
  const Outcome p = against_jacobi<mp50>(with_spectrum<mp50>(rng, 8, 8, pairs));
  INFO("pairs: " << describe(8, 8, p));
  CHECK(p.ratio <= 1);
  // Exactly repeated: an orthogonal matrix (every singular value 1), and 3 I (+) 1 I.
  const Outcome q = against_jacobi<mp50>(orthogonal<mp50>(rng, 10));
  INFO("orthogonal: " << describe(10, 10, q));
  CHECK(q.ratio <= 1);
  const DigitsGuard at100(mp100_digits);  // the mp100 rung: mpfr_dynamic at 100 digits
  Vec<mpfr_dynamic> repeated = Vec<mpfr_dynamic>::Ones(9);
  repeated.head(4).setConstant(mpfr_dynamic(3));
  const Outcome e = against_jacobi<mpfr_dynamic>(with_spectrum<mpfr_dynamic>(rng, 11, 9, repeated));
  INFO("3 I (+) I: " << describe(11, 9, e));
  CHECK(e.ratio <= 1);
}

TEST_CASE("refined_svd: tiny and zero singular values (sigma_min = 1e-30 at mp50, rank-deficient)") {
  Rng rng(35);
  Vec<mp50> sigma(6);
  sigma << mp50(2), mp50(1), mp50("0.5"), mp50("0.25"), mp50("1e-3"), mp50("1e-30");
  const Outcome tiny = against_jacobi<mp50>(with_spectrum<mp50>(rng, 6, 6, sigma));
  INFO("1e-30: " << describe(6, 6, tiny));
  CHECK(tiny.ratio <= 1);
  CHECK(tiny.path == SvdPath::refined);
  // 1e-20 and 1e-30: both below double's resolution (1e-16 ||A||), a cluster for the double SVD that the refinement
  // does not split (docs/derivations/refined_svd.md, "Clusters"): correct, on either path.
  sigma(4) = mp50("1e-20");
  const Outcome two = against_jacobi<mp50>(with_spectrum<mp50>(rng, 6, 6, sigma));
  INFO("1e-20 and 1e-30: " << describe(6, 6, two));
  CHECK(two.ratio <= 1);
  // Rank 3 of 7 x 5: two exact zeros (to the rounding of forming the product).
  Vec<mp50> rank3(5);
  rank3 << mp50(3), mp50(2), mp50(1), mp50(0), mp50(0);
  const Outcome deficient = against_jacobi<mp50>(with_spectrum<mp50>(rng, 7, 5, rank3));
  INFO("rank 3: " << describe(7, 5, deficient));
  CHECK(deficient.ratio <= 1);
  // Rank one, wide.
  const MatD x = gaussian_matrix(rng, 4, 1), y = gaussian_matrix(rng, 1, 9);
  const DigitsGuard at100(mp100_digits);  // the mp100 rung: mpfr_dynamic at 100 digits
  const Outcome one = against_jacobi<mpfr_dynamic>(lift<mpfr_dynamic>(x) * lift<mpfr_dynamic>(y));
  INFO("rank one: " << describe(4, 9, one));
  CHECK(one.ratio <= 1);
}

TEST_CASE("refined_svd: 1x1, empty and zero matrices") {
  Mat<mp50> one(1, 1);
  one(0, 0) = mp50(-3);
  const RefinedSvd<mp50> r = refined_svd<mp50>(one);
  CHECK(r.values.size() == 1);
  CHECK(abs(mp50(r.values(0) - 3)) <= singular_value_error_bound<mp50>(1, 1, mp50(3)));
  CHECK(abs(mp50(r.U(0, 0) * r.values(0) * r.V(0, 0) + 3)) <= singular_value_error_bound<mp50>(1, 1, mp50(3)));
  for (const auto& shape : {std::pair{0, 0}, {0, 3}, {4, 0}}) {
    const RefinedSvd<mp50> e = refined_svd<mp50>(Mat<mp50>(shape.first, shape.second));
    CHECK(e.values.size() == 0);
    CHECK(e.U.rows() == shape.first);
    CHECK(e.V.rows() == shape.second);
    CHECK(singular_values<mp50>(Mat<mp50>(shape.first, shape.second)).size() == 0);
  }
  const DigitsGuard at100(mp100_digits);  // the mp100 rung: mpfr_dynamic at 100 digits
  const RefinedSvd<mpfr_dynamic> z = refined_svd<mpfr_dynamic>(Mat<mpfr_dynamic>::Zero(3, 5));
  CHECK(z.values.size() == 3);
  CHECK(z.values.isZero(0));
  CHECK(z.U.isIdentity(0));
  CHECK(z.V.isIdentity(0));
}

TEST_CASE("refined_svd: the error shrinks from 50 to 100 digits") {
  Rng rng(36);
  const MatD m = spectrum_first_matrix(rng, 14, 10, geometric_spectrum(10, 1.0, 1e6));
  const DigitsGuard digits(160);  // the reference: Jacobi at 160 digits
  const Vec<mpfr_dynamic> truth = singular_values<mpfr_dynamic>(lift<mpfr_dynamic>(m), SvdMethod::jacobi);
  const auto error = [&](const auto& values) {
    double worst = 0;
    for (Eigen::Index k = 0; k < truth.size(); ++k) {
      const mpfr_dynamic v(values(k));
      worst = std::max(worst, to_double(mpfr_dynamic(abs(mpfr_dynamic(v - truth(k))))));
    }
    return worst;
  };
  const RefinedSvd<mp50> r50 = at_mp50([&] { return refined_singular_values<mp50>(lift<mp50>(m)); });
  const double bound50 = at_mp50([] { return to_double(singular_value_error_bound<mp50>(14, 10, mp50(1))); });
  double e100 = 0, bound100 = 0, accepted100 = 0;
  {  // the mp100 rung: mpfr_dynamic at 100 digits, compared with the reference back at 160
    const DigitsGuard at100(mp100_digits);
    const RefinedSvd<mpfr_dynamic> r100 = refined_singular_values<mpfr_dynamic>(lift<mpfr_dynamic>(m));
    bound100 = to_double(singular_value_error_bound<mpfr_dynamic>(14, 10, mpfr_dynamic(1)));
    accepted100 = to_double(r100.error_bound);
    const DigitsGuard back(160);
    e100 = error(r100.values);
  }
  const double e50 = error(r50.values);
  INFO("max error at 50 digits " << e50 << ", at 100 digits " << e100);
  CHECK(e50 <= bound50);
  CHECK(e100 <= bound100);
  CHECK(e100 < 1e-40 * e50);
  // The accepted bound holds and is at most the allowance.
  CHECK(e50 <= to_double(r50.error_bound));
  CHECK(e100 <= accepted100);
}

TEST_CASE("refined_svd: full decompositions (U, Sigma, V) are orthogonal and reproduce A") {
  Rng rng(37);
  for (const auto& shape : kShapes) {
    const MatD g = gaussian_matrix(rng, shape.first, shape.second);
    CHECK(check_full<mp50>(lift<mp50>(g)) == SvdPath::refined);
    const DigitsGuard at100(mp100_digits);  // the mp100 rung: mpfr_dynamic at 100 digits
    CHECK(check_full<mpfr_dynamic>(lift<mpfr_dynamic>(g)) == SvdPath::refined);
  }
  // kappa 1e12, and exactly repeated singular values (either path).
  check_full<mp50>(lift<mp50>(spectrum_first_matrix(rng, 9, 6, geometric_spectrum(6, 1.0, 1e12))));
  check_full<mp50>(orthogonal<mp50>(rng, 7));
  Vec<mp50> rank2(4);
  rank2 << mp50(2), mp50(1), mp50(0), mp50(0);
  check_full<mp50>(with_spectrum<mp50>(rng, 4, 6, rank2));
}

TEST_CASE("refined_svd: without refinement steps the MPFR fallback answers, and is correct") {
  Rng rng(38);
  const MatD g = gaussian_matrix(rng, 7, 5);
  const Outcome o = against_jacobi<mp50>(lift<mp50>(g), 0);
  INFO(describe(7, 5, o));
  CHECK(o.path == SvdPath::mpfr_fallback);
  CHECK(o.ratio <= 1);
  const RefinedSvd<mp50> f = refined_svd<mp50>(lift<mp50>(g), SvdVectors::full, 0);
  CHECK(f.path == SvdPath::mpfr_fallback);
  CHECK(f.U.rows() == 7);
  CHECK(f.V.rows() == 5);
}

TEST_CASE("refined_svd: singular_values at MP takes the refined path, jacobi and bdc stay MPFR Jacobi") {
  Rng rng(39);
  const Mat<mp50> m = lift<mp50>(gaussian_matrix(rng, 9, 9));
  SvdPathCounts& counts = svd_path_counts();
  const SvdPathCounts before = counts;
  const Vec<mp50> automatic = singular_values<mp50>(m);
  CHECK(counts.refined == before.refined + 1);
  const Vec<mp50> jacobi = singular_values<mp50>(m, SvdMethod::jacobi);
  const Vec<mp50> bdc = singular_values<mp50>(m, SvdMethod::bdc);
  CHECK(counts.refined == before.refined + 1);
  CHECK(counts.mpfr_fallback == before.mpfr_fallback);
  CHECK(bdc == jacobi);  // no MPFR BDCSVD is compiled: bdc at an MPFR scalar is the Jacobi SVD (spectral.hpp)
  const mp50 tol = singular_value_error_bound<mp50>(9, 9, jacobi(0));
  CHECK(max_abs_diff<mp50>(automatic, jacobi) <= tol);
  CHECK(max_abs_diff<mp50>(automatic, bdc) <= tol);
  CHECK(abs(mp50(spectral_norm<mp50>(m) - jacobi(0))) <= tol);
}

TEST_CASE("refined_svd: non-finite input throws NumericalFailure") {
  for (const double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    Mat<mp50> m = Mat<mp50>::Ones(3, 4);
    m(1, 2) = mp50(bad);
    CHECK_THROWS_AS(refined_svd<mp50>(m), NumericalFailure);
    CHECK_THROWS_AS(refined_singular_values<mp50>(m), NumericalFailure);
    CHECK_THROWS_AS(singular_values<mp50>(m), NumericalFailure);
    const DigitsGuard at100(mp100_digits);  // the mp100 rung: mpfr_dynamic at 100 digits
    Mat<mpfr_dynamic> w = Mat<mpfr_dynamic>::Ones(4, 3);
    w(3, 0) = mpfr_dynamic(-bad);
    CHECK_THROWS_AS(refined_svd<mpfr_dynamic>(w), NumericalFailure);
  }
}

TEST_CASE("refined_svd: entries outside double's range are scaled, not overflowed") {
  Rng rng(40);
  const MatD g = gaussian_matrix(rng, 6, 4);
  for (const char* scale : {"1e400", "1e-400"}) {
    const Mat<mp50> m = lift<mp50>(g) * mp50(scale);
    const Outcome o = against_jacobi<mp50>(m);
    INFO(scale << ": " << describe(6, 4, o));
    CHECK(o.ratio <= 1);
    CHECK(o.path == SvdPath::refined);
  }
}

namespace {

// refined_symmetric_eigen against Eigen's MPFR SelfAdjointEigenSolver: values within the allowance; with vectors,
// X orthogonal and A = X diag(values) X^T to a few allowances. Returns the path.
template <class T>
SvdPath check_symmetric(const Mat<T>& a, bool vectors) {
  const RefinedEigen<T> r = refined_symmetric_eigen<T>(a, vectors);
  Eigen::SelfAdjointEigenSolver<Mat<T>> ref(a, Eigen::EigenvaluesOnly);
  REQUIRE(ref.info() == Eigen::Success);
  const Eigen::Index n = a.rows();
  const T norm = n ? T(ref.eigenvalues().cwiseAbs().maxCoeff()) : T(1);
  const T tol = singular_value_error_bound<T>(n, n, norm);
  const T error = max_abs_diff<T>(r.values, ref.eigenvalues());
  INFO(n << "x" << n << " vectors " << vectors << " path " << int(r.path) << " iterations " << r.iterations
         << " error " << to_double(error) << " allowance " << to_double(tol));
  CHECK(error <= tol);
  for (Eigen::Index k = 1; k < n; ++k) CHECK(r.values(k - 1) <= r.values(k));
  if (vectors) {
    REQUIRE(r.vectors.rows() == n);
    REQUIRE(r.vectors.cols() == n);
    CHECK(T((r.vectors * r.values.asDiagonal() * r.vectors.transpose() - a).norm()) <= T(4) * tol);
    CHECK(T((r.vectors.transpose() * r.vectors - Mat<T>::Identity(n, n)).norm()) <= T(4) * tol / norm);
  }
  return r.path;
}

template <class T>
Mat<T> symmetric_gaussian(Rng& rng, int n) {
  const Mat<T> g = lift<T>(gaussian_matrix(rng, n, n));
  return g + g.transpose();
}

}  // namespace

TEST_CASE("refined_svd: symmetric eigendecomposition by refinement matches SelfAdjointEigenSolver (mp50, mp100)") {
  Rng rng(41);
  for (int n : {1, 2, 6, 13}) {
    const MatD g = gaussian_matrix(rng, n, n);
    const MatD sym = g + g.transpose();
    for (bool vectors : {false, true}) {
      CHECK(check_symmetric<mp50>(lift<mp50>(sym), vectors) == SvdPath::refined);
      const DigitsGuard at100(mp100_digits);  // the mp100 rung: mpfr_dynamic at 100 digits
      CHECK(check_symmetric<mpfr_dynamic>(lift<mpfr_dynamic>(sym), vectors) == SvdPath::refined);
    }
  }
  // Positive definite with kappa 1e12 (as symmetric_roots meets), clustered and repeated eigenvalues (either path).
  const MatD q = random_orthogonal(rng, 9);
  const std::vector<double> l = geometric_spectrum(9, 1.0, 1e12);
  MatD spd = MatD::Zero(9, 9);
  for (int k = 0; k < 9; ++k) spd += l[k] * q.col(k) * q.col(k).transpose();
  spd = ((spd + spd.transpose()) / 2).eval();
  check_symmetric<mp50>(lift<mp50>(spd), true);
  {
    const DigitsGuard at100(mp100_digits);  // the mp100 rung: mpfr_dynamic at 100 digits
    check_symmetric<mpfr_dynamic>(lift<mpfr_dynamic>(spd), false);
  }
  Mat<mp50> repeated = Mat<mp50>::Identity(7, 7) * mp50(3);
  const Mat<mp50> o = orthogonal<mp50>(rng, 7);
  repeated(0, 0) = mp50(5);
  check_symmetric<mp50>(Mat<mp50>(o * repeated * o.transpose()), true);
  check_symmetric<mp50>(symmetric_gaussian<mp50>(rng, 5), true);
  {
    const DigitsGuard digits(150);
    CHECK(check_symmetric<mpfr_dynamic>(symmetric_gaussian<mpfr_dynamic>(rng, 6), true) == SvdPath::refined);
  }
  Mat<mp50> bad = Mat<mp50>::Ones(3, 3);
  bad(1, 1) = mp50(std::numeric_limits<double>::quiet_NaN());
  CHECK_THROWS_AS(refined_symmetric_eigen<mp50>(bad), NumericalFailure);
  CHECK(refined_symmetric_eigen<mp50>(Mat<mp50>(0, 0)).values.size() == 0);
}
