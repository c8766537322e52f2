// libFuzzer target: the CSV reader of `thmcheck experiment --data FILE`. Every input must be read or refused
// with a DataError (one line naming the file, line and column); a crash or a sanitizer report is a finding.
#include "reports/csv.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/tmp/thmcheck-fuzz-csv-" + std::to_string(::getpid()) + ".csv";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    const thm::DataSeries s = thm::read_series_csv(path, 10000);
    // What is accepted is what the reader promises: a rectangular, finite table with a name per column.
    if (s.values.cols() != static_cast<Eigen::Index>(s.columns.size()) || !s.values.allFinite()) std::abort();
  } catch (const thm::DataError&) {
  }
  return 0;
}
