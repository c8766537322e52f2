// doctest's main, with two additions. Every test case starts with mpfr_dynamic at the mp50 rung's precision, uniform
// across operands, as the claims evaluate it (tests/support/mp50.hpp). A run whose filters select no test case fails: CTest
// runs each case by name (doctest_discover_tests), and a name it cannot pass through (CMake splits a list at ';')
// would otherwise select nothing and pass without asserting anything.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "numerics/allocation.hpp"
#include "numerics/baseline_libm.hpp"
#include "numerics/scalar.hpp"

#include <cstdio>

namespace {

int selected_test_cases = -1;  // set at the end of a run: the test cases that passed the filters

struct SelectionListener : doctest::IReporter {
  explicit SelectionListener(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats& s) override { selected_test_cases = static_cast<int>(s.numTestCasesPassingFilters); }
  void test_case_start(const doctest::TestCaseData&) override { mp50_precision(); }
  void test_case_reenter(const doctest::TestCaseData&) override { mp50_precision(); }

 private:
  static void mp50_precision() {
    thm::mpfr_dynamic::thread_default_variable_precision_options(
        thm::bmp::variable_precision_options::assume_uniform_precision);
    thm::mpfr_dynamic::thread_default_precision(thm::mp50_digits);
  }

 public:
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};

}  // namespace

REGISTER_LISTENER("selection", 1, SelectionListener);

int main(int argc, char** argv) {
  thm::use_baseline_libm(argv);        // as thmcheck's main: the bits the tests store hold on every x86-64
  thm::use_heap_for_large_matrices();  // as thmcheck's main
  doctest::Context context(argc, argv);
  const int status = context.run();
  if (context.shouldExit()) return status;
  if (status == 0 && selected_test_cases == 0) {
    std::fprintf(stderr, "doctest: no test case matched the filters (nothing was asserted)\n");
    return 1;
  }
  return status;
}
