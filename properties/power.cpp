#include "properties/power.hpp"

#include "properties/claim_result.hpp"
#include "properties/verdicts.hpp"

#include <boost/math/distributions/binomial.hpp>
#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace thm {

namespace {

using boost::math::binomial_distribution;
constexpr double kInf = std::numeric_limits<double>::infinity();

// The smallest k in [lo, hi] (log-bisection) with power(k) >= target, for a power nondecreasing in k; +inf if none.
template <class F>
double smallest_factor(F&& power, double target, double lo = 1.0, double hi = 1e300) {
  if (power(lo) >= target) return lo;
  if (power(hi) < target) return kInf;
  for (int it = 0; it < 200 && hi / lo > 1 + 1e-9; ++it) {
    const double mid = std::sqrt(lo * hi);
    (power(mid) >= target ? hi : lo) = mid;
  }
  return hi;
}

}  // namespace

double case_power(const std::vector<double>& pooled, int judged, double factor) {
  if (pooled.empty() || judged <= 0) return 0;
  const auto hits = static_cast<double>(std::count_if(pooled.begin(), pooled.end(), [&](double s) { return s < factor; }));
  if (hits == 0) return 0;
  // F(k) at its lower confidence bound: a rare hit share cannot make the power look larger than it is.
  const double f = binomial_distribution<double>::find_lower_bound_on_p(static_cast<double>(pooled.size()), hits, 1 - kPowerConfidence);
  return 1 - std::pow(1 - f, judged);
}

double support_power(int held, int pooled, int judged, double p0, double factor) {
  if (pooled <= 0 || judged <= 0) return 0;
  const double p_up = held >= pooled ? 1.0 : binomial_distribution<double>::find_upper_bound_on_p(pooled, held, 1 - kPowerConfidence);
  const double p_strong = 1 - (1 - p0) / factor;
  // The run rejects when P(Bin(judged, p') <= h) < kSupportTestLevel: for every h up to the largest such h_max.
  const binomial_distribution<double> at_claim(judged, p_strong);
  int h_max = -1;
  while (h_max + 1 < judged && boost::math::cdf(at_claim, h_max + 1) < kSupportTestLevel) ++h_max;
  if (h_max < 0) return 0;
  if (p_up >= 1) return 0;
  return boost::math::cdf(binomial_distribution<double>(judged, p_up), h_max);
}

double support_strength(int held, int judged, double p0) {
  if (judged <= 0 || held >= judged) return kInf;
  const double p_up = binomial_distribution<double>::find_upper_bound_on_p(judged, held, kSupportTestLevel);
  return p_up >= 1 ? kInf : (1 - p0) / (1 - p_up);
}

double alternative_power(const Claim& claim) {
  if (!(claim.alternative_support > 0)) return std::numeric_limits<double>::quiet_NaN();
  return support_test_power(claim.default_cases, claim.required_support, claim.alternative_support);
}

std::string describe_alternative(const Claim& claim) {
  if (!(claim.alternative_support > 0)) return {};
  return fmt::format("hold rate {:g} (power {:.4g} at {} cases)", claim.alternative_support, alternative_power(claim), claim.default_cases);
}

double finding_power(const Claim& claim) {
  if (!claim.finding || !claim.finding->measured) return std::numeric_limits<double>::quiet_NaN();
  return support_test_power(claim.default_cases, required_support(claim, Variant::claim), share_upper_bound(*claim.finding->measured));
}

std::string describe_finding_power(const Claim& claim) {
  if (!claim.finding) return {};
  if (!claim.finding->measured) return "shown by its study's grid, not by a number of cases (no share to power)";
  const MeasuredShare& m = *claim.finding->measured;
  return fmt::format("shows with probability {:.4g} at {} cases (measured share {}/{})", finding_power(claim), claim.default_cases, m.held, m.cases);
}

std::string power_knob_of(const Claim& claim) {
  return claim.required_support < 1.0 ? "tolerated failure share 1 - p0 (p0 = " + std::to_string(claim.required_support) + ") divided by k"
                                      : claim.power_knob;
}

ClaimPower measure_power(const Claim& claim, const PowerOptions& options, const std::function<void(int)>& progress) {
  ClaimPower out;
  out.claim = &claim;
  out.control_factor = claim.control_factor;
  const bool trend = claim.required_support < 1.0;
  out.knob = power_knob_of(claim);
  if (claim.finding) {
    out.status = "finding";
    return out;
  }
  RunOptions run = options.run;
  run.variant = Variant::claim;
  run.tightness_probe = false;  // the hill-climbing probe is reported by run, not used here
  std::vector<double> pooled;
  int held = 0, pooled_cases = 0;
  out.judged_per_run = std::numeric_limits<int>::max();
  bool scalable = trend;
  for (std::size_t k = 0; k < options.seeds.size(); ++k) {
    run.seed = options.seeds[k];
    // The resolved counts (the ladder applied) decide the verdict; each case's strength comes from the double row.
    const ClaimResult result = resolve_claim(run_claim(claim, run));
    const ResolvedVerdict& v = result.verdict;
    const ClaimRun* base = &result.rows.front();
    for (const ClaimRun& r : result.rows)
      if (r.precision == Precision::float64) base = &r;
    if (trend) {
      const int judged = v.counts.held + v.counts.violated;
      held += v.counts.held;
      pooled_cases += judged;
      out.judged_per_run = std::min(out.judged_per_run, judged);
      out.run_strength.push_back(support_strength(v.counts.held, judged, claim.required_support));
    } else {
      int judged = 0;
      double t = kInf;
      for (const CaseRecord& rec : base->records) {
        if (rec.outcome.verdict == CaseVerdict::discarded) continue;
        ++judged;
        const double s = std::isnan(rec.outcome.strength) ? kInf : rec.outcome.strength;
        scalable = scalable || !std::isnan(rec.outcome.strength);
        pooled.push_back(s);
        t = std::min(t, s);
      }
      out.judged_per_run = std::min(out.judged_per_run, judged);
      out.run_strength.push_back(t);
    }
    ++out.seeds;
    if (progress) progress(static_cast<int>(k));
  }
  if (out.seeds == 0) out.judged_per_run = 0;
  out.strength = out.run_strength.empty() ? kInf : *std::min_element(out.run_strength.begin(), out.run_strength.end());
  if (!scalable) {
    out.status = "not scalable";
    return out;
  }
  out.status = "measured";
  const auto power = [&](double f) {
    return trend ? support_power(held, pooled_cases, out.judged_per_run, claim.required_support, f)
                 : case_power(pooled, out.judged_per_run, f);
  };
  out.resolving_factor = smallest_factor(power, kResolvingPower);
  out.factor_999 = smallest_factor(power, kControlPower);
  for (double f : kPowerGrid) {
    PowerPoint p;
    p.factor = f;
    p.power = power(f);
    p.seeds_caught = out.run_strength.empty() ? 0
                                               : double(std::count_if(out.run_strength.begin(), out.run_strength.end(),
                                                                      [&](double t) { return t < f; })) /
                                                     double(out.run_strength.size());
    out.grid.push_back(p);
  }
  if (claim.control_factor > 0) out.control_power = power(claim.control_factor);
  return out;
}

}  // namespace thm
