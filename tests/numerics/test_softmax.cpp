// Stable row softmax: rows sum to one, stay finite for logits up to 1e4, and sharpen with precision.
#include "tests/support/mp50.hpp"
#include "numerics/eigen_types.hpp"
#include "numerics/random_matrix.hpp"
#include "numerics/softmax.hpp"
#include "properties/doctest_rapidcheck.hpp"
#include "properties/rc_choices.hpp"

#include <cmath>

using namespace thm;

namespace {

template <class T>
T max_row_sum_error(const Mat<T>& s) {
  T worst = 0;
  for (Eigen::Index j = 0; j < s.rows(); ++j) {
    using std::abs;
    worst = std::max<T>(worst, T(abs(T(s.row(j).sum() - T(1)))));
  }
  return worst;
}

MatD logits(ChoiceSource& src) {
  const int rows = static_cast<int>(src.integer(1, 16)), cols = static_cast<int>(src.integer(1, 16));
  const double scale = src.log_real(1e-8, 1e4);
  Rng rng(src.entropy());
  MatD k = gaussian_matrix(rng, rows, cols);
  k *= scale / std::max(k.cwiseAbs().maxCoeff(), 1e-300);  // max |K| = scale, up to 1e4
  return k;
}

template <class T>
void check_softmax(const MatD& k) {
  const Mat<T> s = softmax_rows(lift<T>(k));
  RC_ASSERT(s.allFinite());
  RC_ASSERT((s.array() >= T(0)).all());
  const double tol = 4.0 * (k.cols() + 4) * to_double(epsilon<T>());
  RC_ASSERT(to_double(max_row_sum_error(s)) <= tol);
}

}  // namespace

THM_PROPERTY("softmax: rows sum to one and stay finite for |logits| up to 1e4 (double)", ()) {
  RcChoices src;
  check_softmax<double>(logits(src));
}

THM_PROPERTY("softmax: rows sum to one and stay finite for |logits| up to 1e4 (mp50)", ()) {
  RcChoices src;
  check_softmax<mp50>(logits(src));
}

TEST_CASE("softmax: extreme logits give one-hot or uniform rows exactly") {
  MatD k(3, 3);
  k << 1e4, -1e4, 0, -1e4, -1e4, -1e4, 7e3, 7e3, -1e4;
  const MatD s = softmax_rows(k);
  CHECK(s(0, 0) == 1.0);
  CHECK(s(0, 1) == 0.0);
  CHECK(s(1, 0) == doctest::Approx(1.0 / 3));
  CHECK(s(2, 0) == 0.5);
  CHECK(s(2, 1) == 0.5);
  CHECK(s.allFinite());
}

TEST_CASE("softmax: the row-sum error sharpens from double to mp50 to mp100") {
  const DigitsGuard at100(mp100_digits);  // the mp100 rung: mpfr_dynamic at 100 digits
  Rng rng(3);
  const MatD k = gaussian_matrix(rng, 9, 9, 20.0);
  const double e64 = max_row_sum_error<double>(softmax_rows<double>(k));
  const double e50 = at_mp50([&] { return to_double(max_row_sum_error<mp50>(softmax_rows<mp50>(lift<mp50>(k)))); });
  const double e100 = to_double(max_row_sum_error<mpfr_dynamic>(softmax_rows<mpfr_dynamic>(lift<mpfr_dynamic>(k))));
  INFO("double " << e64 << ", mp50 " << e50 << ", mp100 " << e100);
  CHECK(e64 < 1e-14);
  CHECK(e50 < 1e-45);
  CHECK(e100 < 1e-95);
  CHECK(e100 <= e50);
  CHECK(e50 <= std::max(e64, 1e-300));
}
