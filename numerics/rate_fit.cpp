#include "numerics/rate_fit.hpp"

#include "numerics/random.hpp"

#include <cmath>
#include <stdexcept>

namespace thm {

LineFit fit_line(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size() || x.size() < 2) throw std::invalid_argument("fit_line: need two series of equal length >= 2");
  const double n = static_cast<double>(x.size());
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    mx += x[i];
    my += y[i];
  }
  mx /= n;
  my /= n;
  double sxx = 0, sxy = 0, syy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
    syy += (y[i] - my) * (y[i] - my);
  }
  if (sxx == 0) throw std::invalid_argument("fit_line: x is constant");
  LineFit f;
  f.points = static_cast<int>(x.size());
  f.slope = sxy / sxx;
  f.intercept = my - f.slope * mx;
  double ssres = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double r = y[i] - (f.slope * x[i] + f.intercept);
    ssres += r * r;
  }
  f.r2 = syy > 0 ? 1.0 - ssres / syy : (ssres == 0 ? 1.0 : 0.0);
  return f;
}

WeightedLineFit fit_line_weighted(const std::vector<double>& x, const std::vector<double>& y, const std::vector<double>& var_y) {
  if (x.size() != y.size() || x.size() != var_y.size() || x.size() < 2)
    throw std::invalid_argument("fit_line_weighted: need three series of equal length >= 2");
  double sw = 0, mx = 0, my = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!(var_y[i] > 0) || !std::isfinite(var_y[i])) throw std::invalid_argument("fit_line_weighted: variances must be positive and finite");
    const double w = 1.0 / var_y[i];
    sw += w;
    mx += w * x[i];
    my += w * y[i];
  }
  mx /= sw;
  my /= sw;
  double sxx = 0, sxy = 0, syy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double w = 1.0 / var_y[i];
    sxx += w * (x[i] - mx) * (x[i] - mx);
    sxy += w * (x[i] - mx) * (y[i] - my);
    syy += w * (y[i] - my) * (y[i] - my);
  }
  if (sxx == 0) throw std::invalid_argument("fit_line_weighted: x is constant");
  WeightedLineFit f;
  f.points = static_cast<int>(x.size());
  f.slope = sxy / sxx;
  f.intercept = my - f.slope * mx;
  f.slope_se = std::sqrt(1.0 / sxx);
  f.intercept_se = std::sqrt(1.0 / sw + mx * mx / sxx);
  double ssres = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double r = y[i] - (f.slope * x[i] + f.intercept);
    ssres += r * r / var_y[i];
  }
  f.r2 = syy > 0 ? 1.0 - ssres / syy : (ssres == 0 ? 1.0 : 0.0);
  return f;
}

ContractionFit fit_contraction(const std::vector<double>& losses) {
  std::vector<double> t, y;
  for (std::size_t i = 0; i < losses.size(); ++i)
    if (losses[i] > 0 && std::isfinite(losses[i])) {
      t.push_back(static_cast<double>(i));
      y.push_back(cr_log(losses[i]));
    }
  ContractionFit c;
  c.points = static_cast<int>(t.size());
  if (t.size() < 2) return c;
  const LineFit f = fit_line(t, y);
  c.contraction = cr_exp(f.slope);
  c.r2 = f.r2;
  return c;
}

}  // namespace thm
