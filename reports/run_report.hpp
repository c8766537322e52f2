// The report of one run, written as a whole: the run's result goes in, every file of the report comes out.
#pragma once

#include "reports/run_result.hpp"

#include <filesystem>
#include <string>

namespace thm {

// Writes into `dir` (a staged directory, reports/atomic_write.hpp): summary.json, summary.md, index.html, junit.xml,
// claims/<id>.{md,json,html}, and counterexamples/ (every claim and precision's worst violated case, its shrunk
// form, and the first rounding artifact, for `explore`). Returns the JUnit text (also wanted by run --junit).
// Throws ReportError.
std::string write_report(const std::filesystem::path& dir, const RunResult& result);

}  // namespace thm
