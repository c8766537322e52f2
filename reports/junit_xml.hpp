// junit.xml for CI systems: one test case per claim, from its resolved verdict.
#pragma once

#include "reports/run_result.hpp"

#include <string>

namespace thm {

std::string junit_xml(const RunResult& result);

}  // namespace thm
