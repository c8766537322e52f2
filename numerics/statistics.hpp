// Medians and their bootstrap, and the exponent of a power law fitted to per-n medians: the statistics the [G] studies,
// their claims and the experiments share.
#pragma once

#include "numerics/fault.hpp"
#include "numerics/random.hpp"
#include "numerics/rate_fit.hpp"

#include <boost/math/distributions/students_t.hpp>
#include <boost/math/statistics/linear_regression.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace thm {

// The median (the mean of the two middle values for an even count); NaN for no values.
inline double median(std::vector<double> v) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The median of a resample (with replacement) of v.
inline double bootstrap_median(const std::vector<double>& v, Rng& rng) {
  std::vector<double> r;
  for (std::size_t j = 0; j < v.size(); ++j) r.push_back(v[static_cast<std::size_t>(rng.uniform_int(0, static_cast<std::int64_t>(v.size()) - 1))]);
  return median(r);
}

// Ordinary least squares of y on x, with the slope's standard error from the residuals (SE^2 = s^2 / Sxx, s^2 = SSR / (N - 2))
// and the one-sided critical value t = t_{1 - alpha, N - 2} of Student's t (Boost.Math): under the normal-errors linear model
// P(slope_hat > slope + t SE) = alpha, so `upper()` is a one-sided (1 - alpha) upper confidence bound on the slope.
struct SlopeTest {
  double slope = 0, intercept = 0, se = 0, t = 0;
  int df = 0;
  double upper() const { return slope + t * se; }
  double lower() const { return slope - t * se; }
};
inline SlopeTest slope_test(const std::vector<double>& x, const std::vector<double>& y, double alpha) {
  SlopeTest out;
  if (x.size() != y.size() || x.size() < 3) return out;
  const auto [c0, c1] = boost::math::statistics::simple_ordinary_least_squares(x, y);
  double mx = 0;
  for (double v : x) mx += v;
  mx /= static_cast<double>(x.size());
  double sxx = 0, ssr = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    const double r = y[i] - (c0 + c1 * x[i]);
    ssr += r * r;
  }
  out.slope = c1;
  out.intercept = c0;
  out.df = static_cast<int>(x.size()) - 2;
  const double dof = THM_FAULT(slope_se_over_n) ? static_cast<double>(x.size()) : out.df;
  out.se = sxx > 0 ? std::sqrt(ssr / dof / sxx) : std::numeric_limits<double>::infinity();
  out.t = boost::math::quantile(boost::math::complement(boost::math::students_t_distribution<double>(out.df), alpha));
  return out;
}

// Log-log fit of per-n medians over seeds with a bootstrap (resampling the seeds at each n, `resamples` times): slope,
// its percentile interval at `level`, R^2, intercept.
struct ExponentFit {
  double slope = 0, intercept = 0, r2 = 0, lo = 0, hi = 0;
};
inline ExponentFit exponent_fit(const std::vector<int>& ns, const std::vector<std::vector<double>>& values, std::uint64_t seed,
                                double level = 0.99, int resamples = 400) {
  std::vector<double> x, y;
  for (std::size_t i = 0; i < ns.size(); ++i) {
    x.push_back(std::log(double(ns[i])));
    y.push_back(std::log(median(values[i])));
  }
  const LineFit f = fit_line(x, y);
  ExponentFit out{f.slope, f.intercept, f.r2, f.slope, f.slope};
  Rng rng = Rng::derive(seed, "bootstrap", 0);
  std::vector<double> slopes;
  for (int b = 0; b < resamples; ++b) {
    std::vector<double> yb;
    for (const auto& v : values) yb.push_back(std::log(bootstrap_median(v, rng)));
    slopes.push_back(fit_line(x, yb).slope);
  }
  std::sort(slopes.begin(), slopes.end());
  const auto q = [&](double p) { return slopes[std::min(slopes.size() - 1, static_cast<std::size_t>(p * (slopes.size() - 1) + 0.5))]; };
  out.lo = q((1 - level) / 2);
  out.hi = q(1 - (1 - level) / 2);
  return out;
}

}  // namespace thm
