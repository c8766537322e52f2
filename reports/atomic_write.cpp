#include "reports/atomic_write.hpp"

#include <cstdio>
#include <fstream>
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

}  // namespace thm
