// The doctest/RapidCheck adapter itself: properties run cases, failures fail, and a property that
// ran zero cases is a failure (docs/spec/pitfalls.md: a reproduce string for an unknown id runs nothing).
#include "properties/doctest_rapidcheck.hpp"
#include "properties/rc_choices.hpp"

using namespace thm;

TEST_CASE("adapter: a true property runs cases and passes") {
  const auto r = testing::check_property("adapter.true", [] {
    const int x = *rc::gen::inRange(0, 100);
    RC_ASSERT(x >= 0);
  });
  CHECK(r.ok);
  CHECK(r.cases > 0);
}

TEST_CASE("adapter: a false property fails with a reproducible message") {
  const auto r = testing::check_property("adapter.false", [] {
    const int x = *rc::gen::inRange(0, 100);
    RC_ASSERT(x < 50);
  });
  CHECK_FALSE(r.ok);
  CHECK(r.message.find("Falsifiable") != std::string::npos);
}

TEST_CASE("adapter: a property whose cases are all discarded is not a pass") {
  const auto r = testing::check_property("adapter.all_discarded", [] {
    const int x = *rc::gen::inRange(0, 100);
    RC_PRE(x > 1000);
  });
  CHECK_FALSE(r.ok);
}

TEST_CASE("adapter: RcChoices respects ranges") {
  const auto r = testing::check_property("adapter.rc_choices", [] {
    RcChoices src;
    const auto k = src.integer(2, 12);
    RC_ASSERT(k >= 2);
    RC_ASSERT(k <= 12);
    const double x = src.log_real(1e-6, 1e4);
    RC_ASSERT(x >= 1e-6 * (1 - 1e-15));
    RC_ASSERT(x <= 1e4 * (1 + 1e-15));
    const double y = src.real(-1.0, 1.0);
    RC_ASSERT(y >= -1.0);
    RC_ASSERT(y <= 1.0);
  });
  CHECK(r.ok);
}
