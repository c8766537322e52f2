#include "reports/csv.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
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

bool parse_double(const std::string& s, double& v) {
  if (s.empty()) return false;
  const char* end = s.data() + s.size();
  const auto [ptr, ec] = std::from_chars(s.data(), end, v);
  return ec == std::errc() && ptr == end;
}

}  // namespace

Series read_series_csv(const std::filesystem::path& path, std::size_t max_rows) {
  std::ifstream in(path);
  if (!in) throw DataError("cannot read data file '" + path.string() + "'");
  Series s;
  std::vector<std::vector<double>> rows;
  std::string line;
  std::size_t line_no = 0, width = 0;
  bool header_allowed = true;
  while (std::getline(in, line)) {
    ++line_no;
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    const std::vector<std::string> cells = split(t);
    std::vector<double> row(cells.size());
    bool numeric = true;
    for (std::size_t c = 0; c < cells.size() && numeric; ++c) numeric = parse_double(cells[c], row[c]);
    if (!numeric && header_allowed) {
      s.columns = cells;
      width = cells.size();
      header_allowed = false;
      continue;
    }
    header_allowed = false;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      double v = 0;
      if (!parse_double(cells[c], v))
        throw DataError(path.string() + ":" + std::to_string(line_no) + ": column " + std::to_string(c + 1) + " is not a number: '" + cells[c] + "'");
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
