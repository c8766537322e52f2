// What a line plot shows: named series of points and the axes they are drawn on. Filled by the claims' pages and the
// experiments, drawn by reports/svg_plot.hpp.
#pragma once

#include <string>
#include <vector>

namespace thm {

struct PlotSeries {
  std::string name;
  std::vector<double> x, y;
  bool markers = false;  // draw points (sweeps) instead of only a line (trajectories)
};

struct PlotSpec {
  std::string title, x_label, y_label;
  bool log_x = false, log_y = false;
  int width = 560, height = 320;
};

}  // namespace thm
