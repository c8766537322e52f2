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

// A report directory that is whole or absent: everything is written into a fresh staging directory beside the
// target (".<name>.staging.<pid>" in the same parent), which replaces the target in one atomic rename exchange
// at commit(); until then the previous report is intact, and a run that dies leaves only its staging
// directory, removed by the next run (its pid is gone). The constructor does every check (the target is a
// directory or absent, the parent is writable) before any work, and throws ReportError.
class StagedDirectory {
 public:
  explicit StagedDirectory(std::filesystem::path target);
  ~StagedDirectory();  // removes the staging directory unless committed
  StagedDirectory(const StagedDirectory&) = delete;
  StagedDirectory& operator=(const StagedDirectory&) = delete;

  const std::filesystem::path& path() const { return staging_; }  // where the report is written
  const std::filesystem::path& target() const { return target_; }
  void commit();

 private:
  std::filesystem::path target_, staging_;
  bool committed_ = false;
};

// Checks, before any work, that `file` can be written: not a directory, in an existing writable directory.
void check_output_file(const std::filesystem::path& file);

// True if `path` is `dir` or lies below it (both made absolute and normalised; neither needs to exist).
bool is_within(const std::filesystem::path& path, const std::filesystem::path& dir);

}  // namespace thm
