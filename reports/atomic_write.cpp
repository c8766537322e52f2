#include "reports/atomic_write.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <stdio.h>
#include <string>
#include <system_error>
#include <unistd.h>

namespace thm {

namespace fs = std::filesystem;

void prepare_report_dir(const fs::path& dir) {
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    throw ReportError("report dir '" + dir.string() + "' exists and is not a directory");
  fs::create_directories(dir, ec);
  if (ec) throw ReportError("cannot create report dir '" + dir.string() + "': " + ec.message());
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw ReportError("report dir '" + dir.string() + "' is not writable");
}

void atomic_write(const fs::path& path, const std::string& contents) {
  const fs::path tmp = path.string() + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw ReportError("cannot write '" + tmp.string() + "'");
    out << contents;
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      throw ReportError("short write to '" + tmp.string() + "'");
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    throw ReportError("cannot move report into place at '" + path.string() + "': " + ec.message());
  }
}

namespace {

// The parent a relative or absolute target lives in ("." for a bare name).
fs::path parent_of(const fs::path& target) {
  const fs::path p = fs::absolute(target).lexically_normal();
  const fs::path clean = p.has_filename() ? p : p.parent_path();  // "dir/" -> "dir"
  return clean.parent_path();
}

std::string name_of(const fs::path& target) {
  const fs::path p = fs::absolute(target).lexically_normal();
  return (p.has_filename() ? p : p.parent_path()).filename().string();
}

// Staging directories of runs that died (their process is gone) are removed.
void remove_stale_staging(const fs::path& parent, const std::string& name) {
  const std::string prefix = "." + name + ".staging.";
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(parent, ec)) {
    const std::string file = entry.path().filename().string();
    if (file.rfind(prefix, 0) != 0) continue;
    const std::string pid_text = file.substr(prefix.size());
    if (pid_text.empty() || pid_text.find_first_not_of("0123456789") != std::string::npos || pid_text.size() > 9) continue;
    const pid_t pid = static_cast<pid_t>(std::stol(pid_text));
    if (pid == ::getpid() || (::kill(pid, 0) != 0 && errno == ESRCH)) fs::remove_all(entry.path(), ec);
  }
}

}  // namespace

void check_output_file(const fs::path& file) {
  std::error_code ec;
  if (fs::is_directory(file, ec)) throw ReportError("'" + file.string() + "' is a directory; give a file name");
  const fs::path dir = parent_of(file);
  if (!fs::is_directory(dir, ec)) throw ReportError("the directory of '" + file.string() + "' does not exist");
  if (::access(dir.c_str(), W_OK | X_OK) != 0) throw ReportError("the directory of '" + file.string() + "' is not writable");
}

bool is_within(const fs::path& path, const fs::path& dir) {
  const fs::path a = fs::weakly_canonical(fs::absolute(path)), b = fs::weakly_canonical(fs::absolute(dir));
  auto ia = a.begin();
  for (auto ib = b.begin(); ib != b.end(); ++ib, ++ia) {
    if (ib->empty()) continue;  // a trailing separator
    if (ia == a.end() || *ia != *ib) return false;
  }
  return true;
}

StagedDirectory::StagedDirectory(fs::path target) : target_(std::move(target)) {
  std::error_code ec;
  if (fs::exists(target_, ec) && !fs::is_directory(target_, ec))
    throw ReportError("report dir '" + target_.string() + "' exists and is not a directory");
  const fs::path parent = parent_of(target_);
  const std::string name = name_of(target_);
  if (name.empty() || name == "." || name == "..") throw ReportError("report dir '" + target_.string() + "' has no name to replace");
  prepare_report_dir(parent);
  remove_stale_staging(parent, name);
  staging_ = parent / ("." + name + ".staging." + std::to_string(::getpid()));
  fs::remove_all(staging_, ec);
  if (!fs::create_directory(staging_, ec) || ec)
    throw ReportError("cannot create '" + staging_.string() + "': " + (ec ? ec.message() : std::string("it exists")));
}

StagedDirectory::~StagedDirectory() {
  std::error_code ec;
  if (!committed_) fs::remove_all(staging_, ec);
}

void StagedDirectory::commit() {
  std::error_code ec;
  const fs::path target = parent_of(target_) / name_of(target_);
  if (!fs::exists(target, ec)) {
    fs::rename(staging_, target, ec);
    if (ec) throw ReportError("cannot move the report into place at '" + target.string() + "': " + ec.message());
  } else if (::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) == 0) {
    fs::remove_all(staging_, ec);  // now the previous report
  } else {
    // A file system without the exchange: move the old report aside first (a short window without a report).
    const fs::path old = staging_.string() + ".old";
    fs::rename(target, old, ec);
    if (ec) throw ReportError("cannot replace '" + target.string() + "': " + ec.message());
    fs::rename(staging_, target, ec);
    if (ec) {
      std::error_code back;
      fs::rename(old, target, back);
      throw ReportError("cannot move the report into place at '" + target.string() + "': " + ec.message());
    }
    fs::remove_all(old, ec);
  }
  committed_ = true;
}

}  // namespace thm
