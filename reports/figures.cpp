#include "reports/figures.hpp"

#include "reports/escape.hpp"
#include "reports/svg_plot.hpp"

#include <algorithm>
#include <cmath>

namespace thm {

namespace {

const char* fill(ClaimVerdict v) {
  switch (v) {
    case ClaimVerdict::holds: return "#d8f3d8";
    case ClaimVerdict::violated: return "#f8d0d0";
    case ClaimVerdict::inconclusive: return "#fff1c2";
    default: return "#eee";
  }
}

}  // namespace

// Proof map: claims in layers (a lemma sits left of every theorem it supports), edges lemma -> theorem. Rows line up
// across layers, so an edge never crosses a node: to the next layer it runs straight through the gap; further, it
// turns into the gap column after its lemma, runs along the gap between two rows (above its theorem's row) through
// the layers between, and turns down into the gap column before its theorem. The drawing scales down to the page.
std::string proof_map(const std::vector<const Claim*>& claims, const std::map<std::string, ClaimVerdict>& verdict) {
  std::map<std::string, int> layer;
  for (const Claim* c : claims) layer[c->id] = 0;
  for (std::size_t pass = 0; pass < claims.size(); ++pass)
    for (const Claim* c : claims)
      for (const std::string& t : c->supports)
        if (layer.count(t)) layer[t] = std::max(layer[t], layer[c->id] + 1);
  std::map<int, std::vector<const Claim*>> by_layer;
  for (const Claim* c : claims) by_layer[layer[c->id]].push_back(c);
  const double W = 300, H = 30, gapx = 60, gapy = 14;
  std::map<std::string, std::pair<double, double>> pos;
  std::size_t rows = 0;
  for (const auto& [l, cs] : by_layer) {
    for (std::size_t i = 0; i < cs.size(); ++i) pos[cs[i]->id] = {10 + l * (W + gapx), 10 + i * (H + gapy)};
    rows = std::max(rows, cs.size());
  }
  const double width = 20 + by_layer.size() * (W + gapx), height = 20 + rows * (H + gapy);
  std::string svg = "<svg class=\"proof-map\" viewBox=\"0 0 " + std::to_string(int(width)) + " " + std::to_string(int(height)) +
                    "\" width=\"100%\" style=\"max-width:" + std::to_string(int(width)) + "px\" font-family=\"sans-serif\" font-size=\"11\">\n";
  const auto point = [](double x, double y) { return std::to_string(x) + "," + std::to_string(y) + " "; };
  for (const Claim* c : claims)
    for (const std::string& t : c->supports)
      if (pos.count(t)) {
        const auto [x0, y0] = pos[c->id];
        const auto [x1, y1] = pos[t];
        std::string pts = point(x0 + W, y0 + H / 2);
        if (layer[t] > layer[c->id] + 1) {
          const double out = x0 + W + gapx / 2, in = x1 - gapx / 2, lane = y1 - gapy / 2;
          pts += point(out, y0 + H / 2) + point(out, lane) + point(in, lane) + point(in, y1 + H / 2);
        }
        pts += point(x1, y1 + H / 2);
        svg += "<polyline points=\"" + pts + "\" fill=\"none\" stroke=\"#888\"/>\n";
      }
  for (const Claim* c : claims) {
    const auto [x, y] = pos[c->id];
    const auto it = verdict.find(c->id);
    const ClaimVerdict v = it == verdict.end() ? ClaimVerdict::vacuous : it->second;
    svg += "<a href=\"claims/" + c->id + ".html\"><rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" +
           std::to_string(W) + "\" height=\"" + std::to_string(H) + "\" rx=\"4\" fill=\"" + fill(v) + "\" stroke=\"#444\"/>";
    svg += "<text x=\"" + std::to_string(x + 6) + "\" y=\"" + std::to_string(y + 19) + "\">" + html_escape(c->id) + " (" +
           std::string(to_string(v)) + ")</text></a>\n";
  }
  return svg + "</svg>\n";
}

std::vector<std::string> series_plots(const std::vector<Series>& series, const std::string& title) {
  std::vector<std::string> variables;
  for (const Series& s : series)
    if (std::find(variables.begin(), variables.end(), s.variable) == variables.end()) variables.push_back(s.variable);
  std::vector<std::string> plots;
  for (const std::string& var : variables) {
    std::vector<PlotSeries> ps;
    bool positive = true;
    double lo = INFINITY, hi = 0;
    for (const Series& s : series) {
      if (s.variable != var) continue;
      ps.push_back({s.name, s.x, s.y, var != "t"});
      for (double y : s.y) {
        positive = positive && y > 0;
        lo = std::min(lo, y);
        hi = std::max(hi, y);
      }
    }
    PlotSpec spec;
    spec.title = title + " against " + var;
    spec.x_label = var;
    spec.log_y = positive && (var == "t" || hi > 100 * lo);  // trajectories on a log axis
    spec.width = 760;
    plots.push_back(line_plot(spec, ps));
  }
  return plots;
}

}  // namespace thm
