// The project's exp (numerics/exp_fixed.hpp) against MPFR: its table recomputed, its error bound measured, its slow path
// and its array form the same as the scalar one.
#include "numerics/exp_fixed.hpp"
#include "numerics/random.hpp"

#include <doctest/doctest.h>
#include <mpfr.h>

#include <bit>
#include <cmath>
#include <limits>
#include <vector>

using namespace thm;

namespace {

struct Mpfr {
  mpfr_t v;
  explicit Mpfr(mpfr_prec_t p = 200) { mpfr_init2(v, p); }
  ~Mpfr() { mpfr_clear(v); }
  Mpfr(const Mpfr&) = delete;
  Mpfr& operator=(const Mpfr&) = delete;
};

// |exp_fixed(x) - e^x| in units of the last place of the double nearest e^x (e^x at 200 bits).
double ulp_error(double x) {
  Mpfr exact, diff;
  mpfr_set_d(exact.v, x, MPFR_RNDN);
  mpfr_exp(exact.v, exact.v, MPFR_RNDN);
  const double nearest = mpfr_get_d(exact.v, MPFR_RNDN);
  mpfr_set_d(diff.v, exp_fixed(x), MPFR_RNDN);
  mpfr_sub(diff.v, diff.v, exact.v, MPFR_RNDN);
  const double ulp = std::nextafter(nearest, std::numeric_limits<double>::infinity()) - nearest;
  return std::fabs(mpfr_get_d(diff.v, MPFR_RNDN)) / ulp;
}

}  // namespace

TEST_CASE("exp_fixed: the generated table is 2^(j/128) rounded and its rounding error, recomputed with MPFR") {
  Mpfr v, hi, tail;
  for (int j = 0; j < 128; ++j) {
    mpfr_set_ui(v.v, static_cast<unsigned long>(j), MPFR_RNDN);
    mpfr_div_ui(v.v, v.v, 128, MPFR_RNDN);
    mpfr_ui_pow(v.v, 2, v.v, MPFR_RNDN);
    const double h = mpfr_get_d(v.v, MPFR_RNDN);
    mpfr_set_d(hi.v, h, MPFR_RNDN);
    mpfr_div(tail.v, v.v, hi.v, MPFR_RNDN);
    mpfr_sub_ui(tail.v, tail.v, 1, MPFR_RNDN);
    CHECK(detail::exp_table[j].tail == mpfr_get_d(tail.v, MPFR_RNDN));
    CHECK(detail::exp_table[j].sbits == std::bit_cast<std::uint64_t>(h) - (static_cast<std::uint64_t>(j) << 45));
  }
  Mpfr ln2;
  mpfr_const_log2(ln2.v, MPFR_RNDN);
  mpfr_ui_div(v.v, 128, ln2.v, MPFR_RNDN);
  CHECK(detail::exp_inv_ln2_n == mpfr_get_d(v.v, MPFR_RNDN));
  // The high part has at most 36 significant bits (k times it is exact for |k| < 2^17), and high + low is ln2/128.
  const double h = -detail::exp_neg_ln2_hi_n;
  CHECK((std::bit_cast<std::uint64_t>(h) & ((std::uint64_t{1} << 17) - 1)) == 0);
  mpfr_div_ui(v.v, ln2.v, 128, MPFR_RNDN);
  mpfr_sub_d(v.v, v.v, h, MPFR_RNDN);
  CHECK(-detail::exp_neg_ln2_lo_n == mpfr_get_d(v.v, MPFR_RNDN));
}

TEST_CASE("exp_fixed: within 0.52 ulp of e^x on the fast path, as the header's error analysis says") {
  Rng rng(20261207);
  double worst = 0;
  int correctly_rounded = 0;
  const int n = 20000;
  for (int i = 0; i < n; ++i) {
    // Softmax's arguments (-40, 0], the whole fast path (-512, 512), and small ones down to 2^-54.
    for (double x : {rng.uniform(-40.0, 0.0), rng.uniform(-512.0, 512.0), std::ldexp(rng.uniform(-1.0, 1.0), -rng.uniform_int(1, 53))}) {
      const double e = ulp_error(x);
      worst = std::max(worst, e);
      correctly_rounded += e <= 0.5;
    }
  }
  CHECK(worst < 0.52);
  CHECK(worst > 0.5);  // not correctly rounded: a faithful exp, so the bound above is what a test can hold it to
  CHECK(correctly_rounded > 3 * n * 99 / 100);
}

TEST_CASE("exp_fixed: outside the fast path it is the C library's exp, and the array form gives the scalar's bits") {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> xs{0.0, -0.0, 0x1p-55, -0x1p-60, 512.0, -512.0, 709.5, 710.0, -745.0, -746.0, -1000.0, inf, -inf, nan,
                               -0.5, 1.0, 0x1.fffffffffffffp+8, -0x1.fffffffffffffp+8, -30.25, 1e-10};
  std::vector<double> ys(xs.size());
  exp_fixed(xs.data(), ys.data(), static_cast<std::ptrdiff_t>(xs.size()));
  for (std::size_t i = 0; i < xs.size(); ++i) {
    INFO("x = " << xs[i]);
    const double one = exp_fixed(xs[i]);
    CHECK(std::bit_cast<std::uint64_t>(ys[i]) == std::bit_cast<std::uint64_t>(one));
    if (!exp_fixed_fast_path(xs[i])) {
      if (std::isnan(xs[i]))
        CHECK(std::isnan(one));
      else
        CHECK(one == std::exp(xs[i]));
    } else {
      CHECK(ulp_error(xs[i]) < 0.52);
    }
  }
  CHECK(exp_fixed(0.0) == 1.0);
  CHECK(exp_fixed(-inf) == 0.0);
  CHECK(exp_fixed(710.0) == inf);
}
