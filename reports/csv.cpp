#include "reports/csv.hpp"

#include <charconv>
#include <cstdio>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

namespace thm {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string cell;
  while (std::getline(ss, cell, ',')) out.push_back(trim(cell));
  if (!line.empty() && line.back() == ',') out.push_back("");
  return out;
}

// A missing value: an empty cell or NA (R's write.csv writes either).
bool is_missing(const std::string& s) { return s.empty() || s == "NA"; }

bool parse_double(const std::string& s, double& v) {
  if (s.empty()) return false;
  const char* end = s.data() + s.size();
  const auto [ptr, ec] = std::from_chars(s.data(), end, v);
  return ec == std::errc() && ptr == end;
}

}  // namespace

std::string quote_for_message(const std::string& value) {
  constexpr std::size_t kShown = 40;
  std::string out = "'";
  for (std::size_t i = 0; i < value.size() && i < kShown; ++i) {
    const unsigned char c = static_cast<unsigned char>(value[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  out += value.size() > kShown ? "...' (" + std::to_string(value.size()) + " bytes)" : "'";
  return out;
}

DataSeries read_series_csv(const std::filesystem::path& path, std::size_t max_rows) {
  std::ifstream in(path);
  if (!in) throw DataError("cannot read data file '" + path.string() + "'");
  DataSeries s;
  std::vector<std::vector<double>> rows;
  std::string line;
  std::size_t line_no = 0, width = 0;
  bool header_allowed = true;
  while (std::getline(in, line)) {
    ++line_no;
    if (line_no == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);  // a UTF-8 byte-order mark
    if (line.size() > kMaxCsvLine)
      throw DataError(path.string() + ":" + std::to_string(line_no) + ": a line of " + std::to_string(line.size()) + " bytes (at most " +
                      std::to_string(kMaxCsvLine) + ")");
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    const std::vector<std::string> cells = split(t);
    if (cells.size() > kMaxCsvColumns)
      throw DataError(path.string() + ":" + std::to_string(line_no) + ": " + std::to_string(cells.size()) + " columns (at most " +
                      std::to_string(kMaxCsvColumns) + ")");
    std::vector<double> row(cells.size());
    bool numeric = true;
    for (std::size_t c = 0; c < cells.size() && numeric; ++c) numeric = is_missing(cells[c]) || parse_double(cells[c], row[c]);
    if (!numeric && header_allowed) {
      s.columns = cells;
      width = cells.size();
      header_allowed = false;
      continue;
    }
    header_allowed = false;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      double v = 0;
      if (is_missing(cells[c])) {
        row[c] = std::numeric_limits<double>::quiet_NaN();  // filled below
        continue;
      }
      if (!parse_double(cells[c], v))
        throw DataError(path.string() + ":" + std::to_string(line_no) + ": column " + std::to_string(c + 1) + " is not a number: " + quote_for_message(cells[c]));
      if (!std::isfinite(v))
        throw DataError(path.string() + ":" + std::to_string(line_no) + ": column " + std::to_string(c + 1) + " is not finite");
    }
    if (width == 0) width = cells.size();
    if (cells.size() != width)
      throw DataError(path.string() + ":" + std::to_string(line_no) + ": " + std::to_string(cells.size()) + " columns, expected " + std::to_string(width));
    if (rows.size() >= max_rows) throw DataError(path.string() + ": more than " + std::to_string(max_rows) + " rows");
    rows.push_back(std::move(row));
  }
  if (rows.empty()) throw DataError(path.string() + ": no numeric rows");
  s.values.resize(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(width));
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (std::size_t c = 0; c < width; ++c) s.values(r, c) = rows[r][c];
  if (s.columns.empty())
    for (std::size_t c = 0; c < width; ++c) s.columns.push_back("c" + std::to_string(c));
  // Missing values (csv.hpp): linear interpolation in time between the nearest observed rows of the column, the nearest
  // observed value before the first or after the last.
  s.filled = 0;
  for (Eigen::Index c = 0; c < s.values.cols(); ++c) {
    auto col = s.values.col(c);
    Eigen::Index prev = -1;
    for (Eigen::Index r = 0; r <= col.size(); ++r) {
      if (r < col.size() && std::isnan(col(r))) continue;
      if (r == col.size() && prev < 0)
        throw DataError(path.string() + ": column " + std::to_string(c + 1) + " (" + quote_for_message(s.columns[static_cast<std::size_t>(c)]) +
                        ") has no value");
      for (Eigen::Index k = prev + 1; k < r; ++k, ++s.filled) {  // rows prev+1 .. r-1 are missing
        if (prev < 0) col(k) = col(r);
        else if (r == col.size()) col(k) = col(prev);
        else col(k) = col(prev) + (col(r) - col(prev)) * (static_cast<double>(k - prev) / static_cast<double>(r - prev));
      }
      prev = r;
    }
  }
  return s;
}

std::string CsvTable::str() const {
  std::string out;
  auto line = [&](const std::vector<std::string>& cells) {
    for (std::size_t i = 0; i < cells.size(); ++i) out += (i ? "," : "") + cells[i];
    out += "\n";
  };
  line(header);
  for (const auto& r : rows) line(r);
  return out;
}

}  // namespace thm
