// The one progress line of every long command: on stderr when it is a terminal (never in a log or a pipe), rewritten
// in place, "<what> <done>/<total> <unit>, about N s left" at the pace <what> has kept since its first report. Safe to
// call from several threads (claims run side by side).
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <mutex>
#include <string>

namespace thm::cli {

class ProgressLine {
 public:
  ProgressLine();
  // Whether anyone sees it (stderr is a terminal).
  explicit operator bool() const { return shown_; }
  void show(const std::string& what, std::size_t done, std::size_t total, const std::string& unit);
  // Erases the line, so the next output starts at the left margin.
  void clear();

 private:
  bool shown_;
  std::mutex mutex_;
  std::map<std::string, std::chrono::steady_clock::time_point> start_;
};

// The process's progress line: there is one stderr.
ProgressLine& progress_line();

}  // namespace thm::cli
