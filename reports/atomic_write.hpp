// Reports are never half-written: contents go to a temporary file in the same directory, which is
// renamed over the target only once complete.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace thm {

struct ReportError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Creates `dir` (and parents) if needed and checks that a file can be created in it.
// Throws ReportError with a one-line message otherwise.
void prepare_report_dir(const std::filesystem::path& dir);

void atomic_write(const std::filesystem::path& path, const std::string& contents);

}  // namespace thm
