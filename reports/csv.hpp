// CSV in and out: numeric time series for `thmcheck experiment --data`, and experiment tables.
#pragma once

#include "numerics/data_series.hpp"

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace thm {

// A malformed input file; the message is one line naming the file, line and column.
struct DataError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A value from an input file as it may appear in an error message: at most 40 characters, bytes outside printable
// ASCII as \xNN, and the full length when cut ("'abc...' (52428800 bytes)"). Never echo 50 MB or raw binary.
std::string quote_for_message(const std::string& value);

// A numeric CSV: one row per time step, one column per feature, comma-separated, an optional header
// line of non-numeric names, blank lines and '#' comments ignored. Every value must be finite and
// every row must have the same number of columns. A missing value (an empty cell, or NA as R writes it) is filled by
// linear interpolation in time between the nearest observed rows of its column (the nearest observed value before the
// first or after the last; DataSeries::filled counts them); a column with no value at all is refused. At most `max_rows` rows, kMaxCsvColumns columns and lines of
// kMaxCsvLine bytes are accepted; a UTF-8 byte-order mark at the start is skipped.
inline constexpr std::size_t kMaxCsvColumns = 4096, kMaxCsvLine = 1 << 20;
DataSeries read_series_csv(const std::filesystem::path& path, std::size_t max_rows = 1000000);

// A table to write: a header and rows of cells (already formatted).
struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::string str() const;
};

}  // namespace thm
