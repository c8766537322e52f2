#include "properties/verdicts.hpp"

#include "numerics/fault.hpp"

#include <boost/math/distributions/binomial.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace thm {

LadderResult classify_case(CaseVerdict in_double, const std::vector<CaseVerdict>& higher) {
  const auto all = [&](CaseVerdict v) {
    return !higher.empty() && std::all_of(higher.begin(), higher.end(), [&](CaseVerdict h) { return h == v; });
  };
  if (all(CaseVerdict::violated)) return LadderResult::genuine;
  if (all(CaseVerdict::holds)) return in_double == CaseVerdict::violated ? LadderResult::rounding_artifact : LadderResult::resolved;
  return LadderResult::undecided;
}

std::string_view to_string(LadderResult r) {
  switch (r) {
    case LadderResult::not_checked: return "not checked";
    case LadderResult::genuine: return "genuine";
    case LadderResult::rounding_artifact: return "rounding artifact";
    case LadderResult::resolved: return "resolved";
    case LadderResult::undecided: return "undecided";
  }
  return "?";
}

double support_p_value(int held, int judged, double p0) {
  if (judged <= 0 || held >= judged || p0 <= 0) return 1.0;
  if (p0 >= 1) return 0.0;  // any failure rejects a support of 1
  if (THM_FAULT(support_tail_off_by_one)) return held == 0 ? 0.0 : boost::math::cdf(boost::math::binomial_distribution<double>(judged, p0), held - 1);
  return boost::math::cdf(boost::math::binomial_distribution<double>(judged, p0), held);
}

ClaimVerdict aggregate_verdict(const Claim& claim, const CaseCounts& n, Variant variant) {
  const int judged = n.run - n.discarded;
  const double hypothesis_rate = n.run ? double(judged) / n.run : 0.0;
  const double p0 = required_support(claim, variant);
  if (n.run == 0 || judged == 0 || hypothesis_rate < claim.min_hypothesis_rate) return ClaimVerdict::vacuous;
  if (p0 >= 1.0) {
    // Lemmas and theorems: one violation is a counterexample.
    if (n.violated > 0) return ClaimVerdict::violated;
  } else if (support_p_value(n.held, n.held + n.violated, p0) < kSupportTestLevel) {
    // Empirical trends: the one-sided binomial test (false-failure probability <= kSupportTestLevel whenever
    // the true share of holding cases is at least required_support).
    return ClaimVerdict::violated;
  }
  if (n.held == 0 || n.inconclusive > n.held) return ClaimVerdict::inconclusive;
  return ClaimVerdict::holds;
}

double support_test_power(int judged, double p0, double p) {
  if (judged <= 0) return 0.0;
  if (p0 >= 1.0) return 1.0 - std::pow(p, judged);  // any failure rejects
  // The test rejects at held <= k for the largest k with P(Bin(judged, p0) <= k) < kSupportTestLevel.
  // The cdf rises with k: bisect for the largest rejecting k (-1: none rejects), lo rejecting or -1, hi not rejecting.
  const boost::math::binomial_distribution<double> null(judged, p0);
  int lo = -1, hi = judged;
  while (hi - lo > 1) {
    const int mid = lo + (hi - lo) / 2;
    (boost::math::cdf(null, mid) < kSupportTestLevel ? lo : hi) = mid;
  }
  return lo < 0 ? 0.0 : boost::math::cdf(boost::math::binomial_distribution<double>(judged, p), lo);
}

double share_upper_bound(const MeasuredShare& m) {
  return boost::math::binomial_distribution<double>::find_upper_bound_on_p(m.cases, m.held, 1.0 - kPowerLevel);
}

int judged_cases_to_show(const MeasuredShare& m, double p0) {
  const double p = share_upper_bound(m);
  for (int n = 1; n <= kMaxCasesToShow; ++n)
    if (support_test_power(n, p0, p) >= kPowerLevel) return n;
  return -1;
}

ClaimVerdict aggregate_verdict(const Claim& claim, const ClaimRun& run) {
  return aggregate_verdict(claim, CaseCounts{run.cases_run, run.cases_held, run.cases_discarded, run.cases_inconclusive,
                                             run.cases_violated}, run.variant);
}

ResolvedVerdict resolve(const std::vector<const ClaimRun*>& rows) {
  const ClaimRun* base = rows.front();
  for (const ClaimRun* r : rows)
    if (r->precision == Precision::float64) base = r;
  ResolvedVerdict out;
  out.claim = base->claim;
  out.variant = base->variant;
  out.expected = expected_verdict(*base->claim, base->variant);
  for (const CaseRecord& rec : base->records) {
    ++out.counts.run;
    switch (rec.outcome.verdict) {
      case CaseVerdict::holds: ++out.counts.held; break;
      case CaseVerdict::discarded: ++out.counts.discarded; break;
      case CaseVerdict::violated:
        if (rec.ladder == LadderResult::rounding_artifact) {
          ++out.counts.held;
          ++out.cases_rounding_artifact;
        } else {
          ++out.counts.violated;
        }
        break;
      case CaseVerdict::inconclusive:
        if (rec.ladder == LadderResult::resolved) {
          ++out.counts.held;
          ++out.cases_resolved;
        } else if (rec.ladder == LadderResult::genuine) {
          ++out.counts.violated;
        } else {
          ++out.counts.inconclusive;
        }
        break;
    }
  }
  out.verdict = aggregate_verdict(*out.claim, out.counts, out.variant);
  if (out.variant == Variant::claim) {
    const auto& named = out.claim->expected_conditions;
    for (std::size_t k = 0; k < named.size(); ++k) {
      ConditionVerdict c{named[k].name, named[k].expected, ClaimVerdict::vacuous, {}};
      for (const CaseRecord& rec : base->records) {
        ++c.counts.run;
        switch (k < rec.expected_conditions.size() ? rec.expected_conditions[k] : CaseVerdict::inconclusive) {
          case CaseVerdict::holds: ++c.counts.held; break;
          case CaseVerdict::violated: ++c.counts.violated; break;
          case CaseVerdict::discarded: ++c.counts.discarded; break;
          case CaseVerdict::inconclusive: ++c.counts.inconclusive; break;
        }
      }
      c.verdict = aggregate_verdict(*out.claim, c.counts, Variant::claim);
      out.conditions.push_back(std::move(c));
    }
  }
  for (const ClaimRun* r : rows)
    if (r != base && r->verdict == ClaimVerdict::violated) out.verdict = ClaimVerdict::violated;
  // Below the budget that can decide it, a `holds` is no evidence: reported inconclusive, and inconclusive expected
  // (a violation the variant expects anyway stays expected). The same for a condition alone.
  const auto underpowered_condition = [](ConditionVerdict& c) {
    if (c.verdict == ClaimVerdict::holds) c.verdict = ClaimVerdict::inconclusive;
    if (!(c.expected == ClaimVerdict::violated && c.verdict == ClaimVerdict::violated)) c.expected = ClaimVerdict::inconclusive;
  };
  const auto underpowered_claim = [&](std::string why) {
    out.underpowered = true;
    out.underpowered_why = std::move(why);
    out.expected = ClaimVerdict::inconclusive;
    if (out.verdict == ClaimVerdict::holds) out.verdict = ClaimVerdict::inconclusive;
  };
  if (base->budget < out.claim->decided_from) {
    underpowered_claim(out.claim->underpowered_reason);
    for (ConditionVerdict& c : out.conditions) underpowered_condition(c);
    return out;
  }
  // A finding, or a condition pinned as violated, that this run's judged cases could show with probability below
  // kPowerLevel at the rate its document measured (its Clopper-Pearson upper bound): underpowered, not a regression.
  const double p0 = required_support(*out.claim, out.variant);
  if (out.variant == Variant::claim && out.claim->finding && out.claim->finding->measured) {
    const MeasuredShare& m = *out.claim->finding->measured;
    const int judged = out.counts.held + out.counts.violated;
    const double p = share_upper_bound(m), power = support_test_power(judged, p0, p);
    if (power < kPowerLevel) {
      const int need = judged_cases_to_show(m, p0);
      char buf[160];
      std::snprintf(buf, sizeof buf, "%d judged cases show a share of %d/%d (at most %.3g) with probability %.3g < %g", judged, m.held,
                    m.cases, p, power, kPowerLevel);
      underpowered_claim("the finding cannot show at this number of cases: " + std::string(buf) +
                         (need > 0 ? "; about " + std::to_string(need) + " judged cases decide" : std::string()));
      out.underpowered_by_cases = true;
    }
  }
  for (std::size_t k = 0; k < out.conditions.size(); ++k) {
    const ExpectedCondition& want = out.claim->expected_conditions[k];
    ConditionVerdict& c = out.conditions[k];
    if (!want.measured || want.expected != ClaimVerdict::violated) continue;
    const int judged = c.counts.held + c.counts.violated;
    if (support_test_power(judged, p0, share_upper_bound(*want.measured)) < kPowerLevel) underpowered_condition(c);
  }
  return out;
}

}  // namespace thm
