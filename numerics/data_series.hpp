// A numeric time series: one row per time step, one column per feature (what `thmcheck experiment --data` reads from
// a CSV file, reports/csv.hpp, and what the [Q] experiments window into sequences).
#pragma once

#include "numerics/eigen_types.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace thm {

struct DataSeries {
  std::vector<std::string> columns;  // header names, or "c0", "c1", ...
  MatD values;                       // rows x columns
  std::size_t filled = 0;            // missing values the reader filled (reports/csv.hpp states the rule)
};

}  // namespace thm
