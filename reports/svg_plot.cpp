#include "reports/svg_plot.hpp"

#include "reports/escape.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace thm {

namespace {

constexpr const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"};

std::string fmt(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", x);
  return buf;
}

// Enough significant digits to tell ticks `step` apart.
std::string label(double v, double step = 0) {
  char buf[40];
  if (v == 0) return "0";
  const double a = std::fabs(v);
  int digits = step > 0 ? std::clamp(static_cast<int>(std::ceil(std::log10(a / step) + 1e-9)) + 1, 1, 15) : 3;
  if (a >= 1) digits = std::max(digits, static_cast<int>(std::floor(std::log10(a))) + 1);  // 400, not 4e+02
  if (a >= 1e-3 && a < 1e5)
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  else
    std::snprintf(buf, sizeof buf, "%.*e", std::max(0, digits - 1), v);
  return buf;
}

double nice_step(double range, int target) {
  const double raw = range / std::max(1, target);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * mag >= raw) return m * mag;
  return 10 * mag;
}

struct Axis {
  double lo, hi;
  bool log;
  double map(double v, double p0, double p1) const {
    const double a = log ? std::log10(lo) : lo, b = log ? std::log10(hi) : hi;
    const double t = ((log ? std::log10(v) : v) - a) / (b - a);
    return p0 + t * (p1 - p0);
  }
};

bool usable(double v, bool log) { return std::isfinite(v) && (!log || v > 0); }

}  // namespace

Ticks linear_ticks(double lo, double hi, int target) {
  if (!(hi > lo)) {
    lo -= 0.5;
    hi += 0.5;
  }
  const double step = nice_step(hi - lo, target);
  Ticks t;
  for (double v = std::ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) {
    const double r = std::fabs(v) < step * 1e-9 ? 0.0 : v;
    t.values.push_back(r);
    t.labels.push_back(label(r, step));
  }
  return t;
}

Ticks log_ticks(double lo, double hi, int max_ticks) {
  Ticks t;
  if (!(lo > 0) || !(hi >= lo)) return t;
  const int a = static_cast<int>(std::floor(std::log10(lo) + 1e-12)), b = static_cast<int>(std::ceil(std::log10(hi) - 1e-12));
  const int span = std::max(1, b - a);
  const int every = (span + max_ticks - 1) / max_ticks;
  for (int k = a; k <= b; ++k)
    if ((k - a) % std::max(1, every) == 0) {
      t.values.push_back(std::pow(10.0, k));
      char buf[16];
      std::snprintf(buf, sizeof buf, "1e%d", k);
      t.labels.push_back(buf);
    }
  return t;
}

std::string line_plot(const PlotSpec& spec, const std::vector<PlotSeries>& series) {
  std::size_t longest = 0;
  for (const PlotSeries& s : series) longest = std::max(longest, s.name.size());
  const double legend = std::min(0.45 * spec.width, 45.0 + 6.5 * static_cast<double>(longest));
  const double L = 80, R = spec.width - legend, T = 30, B = spec.height - 45.0;
  double xlo = std::numeric_limits<double>::infinity(), xhi = -xlo, ylo = xlo, yhi = -xlo;
  int dropped = 0;
  for (const PlotSeries& s : series)
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!usable(s.x[i], spec.log_x) || !usable(s.y[i], spec.log_y)) {
        ++dropped;
        continue;
      }
      xlo = std::min(xlo, s.x[i]);
      xhi = std::max(xhi, s.x[i]);
      ylo = std::min(ylo, s.y[i]);
      yhi = std::max(yhi, s.y[i]);
    }
  std::string svg = "<svg width=\"" + std::to_string(spec.width) + "\" height=\"" +
                    std::to_string(spec.height) + "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  svg += "<text x=\"" + fmt(L) + "\" y=\"18\" font-size=\"13\">" + html_escape(spec.title) + "</text>\n";
  if (!(xhi >= xlo)) return svg + "<text x=\"" + fmt(L) + "\" y=\"60\">no finite data</text>\n</svg>\n";
  const Ticks xt = spec.log_x ? log_ticks(xlo, xhi) : linear_ticks(xlo, xhi);
  const Ticks yt = spec.log_y ? log_ticks(ylo, yhi) : linear_ticks(ylo, yhi);
  Axis ax{std::min(xlo, xt.values.front()), std::max(xhi, xt.values.back()), spec.log_x};
  Axis ay{std::min(ylo, yt.values.front()), std::max(yhi, yt.values.back()), spec.log_y};
  if (ax.hi == ax.lo) ax.hi = ax.lo + 1;
  if (ay.hi == ay.lo) ay.hi = ay.lo + 1;
  svg += "<rect x=\"" + fmt(L) + "\" y=\"" + fmt(T) + "\" width=\"" + fmt(R - L) + "\" height=\"" + fmt(B - T) +
         "\" fill=\"none\" stroke=\"#444\"/>\n";
  for (std::size_t i = 0; i < xt.values.size(); ++i) {
    const double px = ax.map(xt.values[i], L, R);
    svg += "<line x1=\"" + fmt(px) + "\" y1=\"" + fmt(B) + "\" x2=\"" + fmt(px) + "\" y2=\"" + fmt(B + 4) + "\" stroke=\"#444\"/>";
    svg += "<text x=\"" + fmt(px) + "\" y=\"" + fmt(B + 16) + "\" text-anchor=\"middle\">" + xt.labels[i] + "</text>\n";
  }
  for (std::size_t i = 0; i < yt.values.size(); ++i) {
    const double py = ay.map(yt.values[i], B, T);
    svg += "<line x1=\"" + fmt(L - 4) + "\" y1=\"" + fmt(py) + "\" x2=\"" + fmt(R) + "\" y2=\"" + fmt(py) + "\" stroke=\"#ddd\"/>";
    svg += "<text x=\"" + fmt(L - 6) + "\" y=\"" + fmt(py + 4) + "\" text-anchor=\"end\">" + yt.labels[i] + "</text>\n";
  }
  svg += "<text x=\"" + fmt((L + R) / 2) + "\" y=\"" + fmt(B + 34) + "\" text-anchor=\"middle\">" + html_escape(spec.x_label) + "</text>\n";
  svg += "<text transform=\"translate(14," + fmt((T + B) / 2) + ") rotate(-90)\" text-anchor=\"middle\">" +
         html_escape(spec.y_label) + "</text>\n";
  for (std::size_t k = 0; k < series.size(); ++k) {
    const PlotSeries& s = series[k];
    const std::string color = kPalette[k % 8];
    std::string points;
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!usable(s.x[i], spec.log_x) || !usable(s.y[i], spec.log_y)) continue;
      const double px = ax.map(s.x[i], L, R), py = ay.map(s.y[i], B, T);
      points += fmt(px) + "," + fmt(py) + " ";
      if (s.markers) svg += "<circle cx=\"" + fmt(px) + "\" cy=\"" + fmt(py) + "\" r=\"3\" fill=\"" + color + "\"/>";
    }
    svg += "<polyline fill=\"none\" stroke=\"" + color + "\" stroke-width=\"1.5\" points=\"" + points + "\"/>\n";
    const double ly = T + 12 + 16 * static_cast<double>(k);
    svg += "<line x1=\"" + fmt(R + 10) + "\" y1=\"" + fmt(ly - 4) + "\" x2=\"" + fmt(R + 28) + "\" y2=\"" + fmt(ly - 4) +
           "\" stroke=\"" + color + "\" stroke-width=\"2\"/><text x=\"" + fmt(R + 32) + "\" y=\"" + fmt(ly) + "\">" +
           html_escape(s.name) + "</text>\n";
  }
  if (dropped)
    svg += "<text x=\"" + fmt(R + 10) + "\" y=\"" + fmt(B) + "\" fill=\"#888\">" + std::to_string(dropped) + " points not shown</text>\n";
  return svg + "</svg>\n";
}

std::string histogram(const PlotSpec& spec, const std::vector<double>& values, int bins) {
  std::vector<double> v;
  for (double x : values)
    if (std::isfinite(x)) v.push_back(x);
  const double L = 60, R = spec.width - 20.0, T = 30, B = spec.height - 45.0;
  std::string svg = "<svg width=\"" + std::to_string(spec.width) + "\" height=\"" +
                    std::to_string(spec.height) + "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  svg += "<text x=\"" + fmt(L) + "\" y=\"18\" font-size=\"13\">" + html_escape(spec.title) + "</text>\n";
  if (v.empty() || bins < 1) return svg + "<text x=\"" + fmt(L) + "\" y=\"60\">no finite data</text>\n</svg>\n";
  const auto [mn, mx] = std::minmax_element(v.begin(), v.end());
  double lo = *mn, hi = *mx;
  if (hi == lo) {
    lo -= 0.5;
    hi += 0.5;
  }
  std::vector<int> count(bins, 0);
  // Halves keep hi - lo finite for values near the double range (slacks of -1e300 occur); the position
  // is clamped before the cast (a NaN or out-of-range cast is undefined behaviour).
  for (double x : v) {
    const double t = (x / 2 - lo / 2) / (hi / 2 - lo / 2) * bins;
    const int b = std::isfinite(t) ? static_cast<int>(std::clamp(t, 0.0, double(bins - 1))) : 0;
    count[b]++;
  }
  const int top = *std::max_element(count.begin(), count.end());
  const double w = (R - L) / bins;
  for (int b = 0; b < bins; ++b) {
    const double h = (B - T) * count[b] / std::max(1, top);
    svg += "<rect x=\"" + fmt(L + b * w) + "\" y=\"" + fmt(B - h) + "\" width=\"" + fmt(w - 1) + "\" height=\"" + fmt(h) +
           "\" fill=\"#1f77b4\"><title>" + std::to_string(count[b]) + "</title></rect>\n";
  }
  svg += "<line x1=\"" + fmt(L) + "\" y1=\"" + fmt(B) + "\" x2=\"" + fmt(R) + "\" y2=\"" + fmt(B) + "\" stroke=\"#444\"/>\n";
  // The axis ends with enough digits to tell them apart (half the range: finite for any two doubles).
  const double half_range = hi / 2 - lo / 2;
  svg += "<text x=\"" + fmt(L) + "\" y=\"" + fmt(B + 16) + "\">" + label(lo, half_range) + "</text><text x=\"" + fmt(R) + "\" y=\"" +
         fmt(B + 16) + "\" text-anchor=\"end\">" + label(hi, half_range) + "</text>\n";
  svg += "<text x=\"" + fmt((L + R) / 2) + "\" y=\"" + fmt(B + 34) + "\" text-anchor=\"middle\">" + html_escape(spec.x_label) +
         "</text>\n<text x=\"" + fmt(L - 6) + "\" y=\"" + fmt(T + 4) + "\" text-anchor=\"end\">" + std::to_string(top) + "</text>\n";
  return svg + "</svg>\n";
}

}  // namespace thm
