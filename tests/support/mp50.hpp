// The mp50 rung's arithmetic in the tests: mpfr_dynamic at mp50_digits, as the claims evaluate it (numerics/scalar.hpp
// has no fixed 50-digit type). The test runner sets that precision on its thread at the start of every test case
// (main.cpp); a test that wants another takes a DigitsGuard.
#pragma once

#include "numerics/scalar.hpp"

namespace thm {
using mp50 = mpfr_dynamic;

// f() computed at the mp50 rung's precision whatever guard the caller holds (a test that compares rungs holds one at
// mp100_digits around both).
template <class F>
auto at_mp50(F&& f) {
  const DigitsGuard digits(mp50_digits);
  return f();
}
}  // namespace thm
