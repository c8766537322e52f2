#include "cli/progress.hpp"

#include <fmt/core.h>

#include <cstdio>
#include <unistd.h>

namespace thm::cli {

ProgressLine::ProgressLine() : shown_(isatty(STDERR_FILENO) != 0) {}

void ProgressLine::show(const std::string& what, std::size_t done, std::size_t total, const std::string& unit) {
  if (!shown_) return;
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_.emplace(what, now).first->second).count();
  const std::string left = done > 0 && done < total ? fmt::format(", about {:.0f} s left", elapsed * double(total - done) / double(done)) : "";
  fmt::print(stderr, "\r\033[K{} {}/{} {}{}", what, done, total, unit, left);
  std::fflush(stderr);
}

void ProgressLine::clear() {
  if (!shown_) return;
  const std::lock_guard<std::mutex> lock(mutex_);
  fmt::print(stderr, "\r\033[K");
  std::fflush(stderr);
}

ProgressLine& progress_line() {
  static ProgressLine line;
  return line;
}

}  // namespace thm::cli
