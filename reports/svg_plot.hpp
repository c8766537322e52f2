// Inline SVG plots for the HTML reports: line plots (linear or log axes, legend) and histograms.
// One small module, no external assets; the axis arithmetic is unit-tested.
#pragma once

#include "properties/plot_data.hpp"

#include <string>
#include <vector>

namespace thm {

struct Ticks {
  std::vector<double> values;
  std::vector<std::string> labels;
};

// About `target` "nice" ticks (1, 2, 5 x 10^k) covering [lo, hi]; lo == hi gets a unit window.
Ticks linear_ticks(double lo, double hi, int target = 5);
// Powers of ten covering [lo, hi] (0 < lo <= hi), thinned to at most `max_ticks`.
Ticks log_ticks(double lo, double hi, int max_ticks = 8);

// Points that are not finite, or not positive on a log axis, are left out (and counted in a note).
std::string line_plot(const PlotSpec& spec, const std::vector<PlotSeries>& series);
std::string histogram(const PlotSpec& spec, const std::vector<double>& values, int bins = 20);

}  // namespace thm
