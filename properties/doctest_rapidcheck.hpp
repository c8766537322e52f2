// Our doctest adapter for RapidCheck (the Debian package ships only Catch/GTest ones).
//
// Each property gets a stable id ("<test case name>"), so RC_PARAMS="reproduce=..." replays the
// failing case instead of silently running nothing; and a property that ran zero cases (all
// discarded, or a reproduce string for another id) is a failure, never a pass (docs/spec/pitfalls.md).
#pragma once

#include <doctest/doctest.h>
#include <rapidcheck.h>

#include <sstream>
#include <string>

namespace thm::testing {

struct PropertyResult {
  bool ok = false;
  int cases = 0;  // successful cases run
  std::string message;
};

template <class Testable>
PropertyResult check_property(const std::string& id, Testable&& testable) {
  rc::detail::TestMetadata metadata;
  metadata.id = id;
  metadata.description = id;
  const auto result = rc::detail::checkTestable(std::forward<Testable>(testable), metadata);
  PropertyResult out;
  std::ostringstream ss;
  if (result.template is<rc::detail::SuccessResult>()) {
    out.cases = result.template get<rc::detail::SuccessResult>().numSuccess;
    out.ok = out.cases > 0;
    if (!out.ok) ss << "property '" << id << "' ran 0 cases: nothing was checked";
  } else {
    rc::detail::printResultMessage(result, ss);
  }
  out.message = ss.str();
  return out;
}

}  // namespace thm::testing

// A doctest test case whose body is a RapidCheck property; the test name is the property's id.
#define THM_RC_PROP_NAME2(a, b) a##b
#define THM_RC_PROP_NAME(a, b) THM_RC_PROP_NAME2(a, b)
#define THM_PROPERTY(name, ArgList) THM_PROPERTY_IMPL(name, THM_RC_PROP_NAME(thm_rc_prop_, __LINE__), ArgList)
#define THM_PROPERTY_IMPL(name, fn, ArgList)                                      \
  static void fn ArgList;                                                         \
  TEST_CASE(name) {                                                               \
    const auto thm_result = ::thm::testing::check_property(name, &fn);            \
    INFO(thm_result.message);                                                     \
    CHECK_MESSAGE(thm_result.ok, thm_result.message);                             \
  }                                                                               \
  static void fn ArgList
