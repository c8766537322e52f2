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

// Weighted least squares with known variances var_y[i] of the y[i] (weights 1/var_y): the slope's
// standard error is sqrt(1 / sum_i w_i (x_i - xbar_w)^2) (no rescaling by the residuals: the variances
// are estimated independently, e.g. by Monte-Carlo standard errors). r2 is the weighted R^2.
struct WeightedLineFit {
  double slope = 0, intercept = 0, slope_se = 0, intercept_se = 0, r2 = 0;
  int points = 0;
};
WeightedLineFit fit_line_weighted(const std::vector<double>& x, const std::vector<double>& y, const std::vector<double>& var_y);

// Fit log(loss_t) = t log(q) + c over the positive losses; q = exp(slope) is the per-step contraction.
struct ContractionFit {
  double contraction = 1, r2 = 0;
  int points = 0;
};
ContractionFit fit_contraction(const std::vector<double>& losses);

}  // namespace thm
