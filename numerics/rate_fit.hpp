// Least-squares fits for rate claims: log-loss against iteration (per-step contraction) and
// log-error against log n (exponents), with R^2.
#pragma once

#include <vector>

namespace thm {

struct LineFit {
  double slope = 0, intercept = 0, r2 = 0;
  int points = 0;
};

// Ordinary least squares y = slope x + intercept; r2 = 1 - SSres/SStot (1 when SStot = 0 and the fit is exact).
LineFit fit_line(const std::vector<double>& x, const std::vector<double>& y);

// Fit log(loss_t) = t log(q) + c over the positive losses; q = exp(slope) is the per-step contraction.
struct ContractionFit {
  double contraction = 1, r2 = 0;
  int points = 0;
};
ContractionFit fit_contraction(const std::vector<double>& losses);

}  // namespace thm
