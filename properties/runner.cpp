#include "properties/runner.hpp"
#include "properties/structural_search.hpp"
#include "numerics/numerical_failure.hpp"

#include <boost/math/distributions/binomial.hpp>

#include <algorithm>
#include <atomic>
#include <exception>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <thread>

namespace thm {

int case_size(int index, int cases) { return cases <= 1 ? 100 : static_cast<int>((100LL * index) / (cases - 1)); }

Instance generate_case(const Claim& claim, std::uint64_t seed, int index, int cases, StudyBudget budget) {
  Rng rng = Rng::derive(seed, claim.id, static_cast<std::uint64_t>(index));
  RngChoices choices(rng, case_size(index, cases), budget);  // small instances first
  return claim.generate(choices);
}

LadderResult classify_case(CaseVerdict in_double, const std::vector<CaseVerdict>& higher) {
  const auto all = [&](CaseVerdict v) {
    return !higher.empty() && std::all_of(higher.begin(), higher.end(), [&](CaseVerdict h) { return h == v; });
  };
  if (all(CaseVerdict::violated)) return LadderResult::genuine;
  if (all(CaseVerdict::holds)) return in_double == CaseVerdict::violated ? LadderResult::rounding_artifact : LadderResult::resolved;
  return LadderResult::undecided;
}

namespace {

Evaluation numerical_failure(const std::string& what) {
  Evaluation e;
  Condition c;
  c.name = "numerical failure: " + what;
  c.lhs = c.rhs = c.margin = c.relative_slack = std::numeric_limits<double>::quiet_NaN();
  c.lhs_exact = c.rhs_exact = "nan";
  c.verdict = CaseVerdict::inconclusive;
  e.conditions.push_back(std::move(c));
  return e;
}

}  // namespace

Evaluation evaluate_case(const Claim& claim, const Instance& inst, Precision p, Variant v) {
  try {
    return claim.evaluate(inst, p, v);
  } catch (const NumericalFailure& e) {
    return numerical_failure(e.what());
  }
}

Evaluation evaluate_case_digits(const Claim& claim, const Instance& inst, int digits, Variant v) {
  try {
    return claim.evaluate_digits(inst, digits, v);
  } catch (const NumericalFailure& e) {
    return numerical_failure(e.what());
  }
}

namespace {

// The evaluations at mp50 and mp100 the ladder made, by case index: the multiprecision rows reuse them.
using LadderCache = std::map<std::pair<int, Precision>, Evaluation>;

// The ladder for a double case whose verdict was `in_double` (violated or inconclusive).
LadderResult ladder(const Claim& claim, const Instance& inst, Variant variant, CaseVerdict in_double, int index = -1,
                    LadderCache* cache = nullptr) {
  const auto verdict_at = [&](Precision p) {
    Evaluation e = evaluate_case(claim, inst, p, variant);
    const CaseVerdict v = judge(e, precision_epsilon(p)).verdict;
    if (cache) cache->emplace(std::make_pair(index, p), std::move(e));
    return v;
  };
  const CaseVerdict v50 = verdict_at(Precision::mp50);
  const CaseVerdict v100 = verdict_at(Precision::mp100);
  return classify_case(in_double, {v50, v100});
}

std::optional<ShrunkCase> shrink_case(const Claim& claim, const RunOptions& options, int index, int cases) {
  const RecordedCase start = record_case(claim, options.seed, index, cases, options.budget);
  const ShrinkResult r = shrink_violation(claim, start, options.variant, SearchLimits{options.shrink_evaluations, options.shrink_seconds},
                                          options.seed);
  if (judge(r.evaluation, precision_epsilon(Precision::float64)).verdict != CaseVerdict::violated) return std::nullopt;
  ShrunkCase s;
  s.from_case = index;
  s.instance = r.minimal.instance;
  s.evaluation = r.evaluation;
  s.steps = r.steps;
  s.evaluations = r.evaluations;
  s.seconds = r.seconds;
  s.capped = r.capped;
  s.ladder = ladder(claim, s.instance, options.variant, CaseVerdict::violated);
  return s;
}

}  // namespace

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
  return boost::math::cdf(boost::math::binomial_distribution<double>(judged, p0), held);
}

ClaimVerdict aggregate_verdict(const Claim& claim, const CaseCounts& n) {
  const int judged = n.run - n.discarded;
  const double hypothesis_rate = n.run ? double(judged) / n.run : 0.0;
  if (n.run == 0 || judged == 0 || hypothesis_rate < claim.min_hypothesis_rate) return ClaimVerdict::vacuous;
  if (claim.required_support >= 1.0) {
    // Lemmas and theorems: one violation is a counterexample.
    if (n.violated > 0) return ClaimVerdict::violated;
  } else if (support_p_value(n.held, n.held + n.violated, claim.required_support) < kSupportTestLevel) {
    // Empirical trends: the one-sided binomial test (false-failure probability <= kSupportTestLevel whenever
    // the true share of holding cases is at least required_support).
    return ClaimVerdict::violated;
  }
  if (n.held == 0 || n.inconclusive > n.held) return ClaimVerdict::inconclusive;
  return ClaimVerdict::holds;
}

ClaimVerdict aggregate_verdict(const Claim& claim, const ClaimRun& run) {
  return aggregate_verdict(claim, CaseCounts{run.cases_run, run.cases_held, run.cases_discarded, run.cases_inconclusive,
                                             run.cases_violated});
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
  out.verdict = aggregate_verdict(*out.claim, out.counts);
  for (const ClaimRun* r : rows)
    if (r != base && r->verdict == ClaimVerdict::violated) out.verdict = ClaimVerdict::violated;
  return out;
}

std::vector<std::vector<const ClaimRun*>> by_claim(const std::vector<ClaimRun>& runs) {
  std::vector<std::vector<const ClaimRun*>> groups;
  for (const ClaimRun& r : runs) {
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.front()->claim == r.claim; });
    if (it == groups.end())
      groups.push_back({&r});
    else
      it->push_back(&r);
  }
  return groups;
}

namespace {

// f(k) for every k in [0, n) on up to `jobs` threads, k handed out in increasing order; f writes only outputs of
// its own k. An exception is rethrown after every thread has stopped (the one of the smallest k), so a failure is
// the same whatever the number of jobs.
template <class F>
void parallel_for(std::size_t n, int jobs, F&& f) {
  const std::size_t workers = std::min<std::size_t>(n, static_cast<std::size_t>(std::max(1, jobs)));
  if (workers <= 1) {
    for (std::size_t k = 0; k < n; ++k) f(k);
    return;
  }
  std::atomic<std::size_t> next{0};
  std::mutex failure_mutex;
  std::size_t failure_at = n;
  std::exception_ptr failure;
  const auto work = [&] {
    for (std::size_t k = next++; k < n; k = next++) {
      try {
        f(k);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(failure_mutex);
        if (k < failure_at) {
          failure_at = k;
          failure = std::current_exception();
        }
      }
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t t = 1; t < workers; ++t)
    threads.emplace_back([&] {
      work();
      release_thread_caches();  // MPFR's per-thread constant caches would leak (found by make test's ASan build)
    });
  work();
  for (std::thread& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
}

// Cases are evaluated in blocks: in parallel within a block, then folded into the run in case order (counts,
// ladder choices, worst case), so the result does not depend on the number of jobs and memory stays bounded.
constexpr std::size_t kBlock = 256;

}  // namespace

std::vector<ClaimRun> run_claim(const Claim& claim, const RunOptions& options) {
  const int cases = options.cases >= 0 ? options.cases : claim.default_cases;
  // The same instances at every precision: generated once, in double.
  std::vector<int> indices;
  if (options.only_case)
    indices.push_back(*options.only_case);
  else
    for (int i = 0; i < cases; ++i) indices.push_back(i);
  std::vector<Instance> instances(indices.size());
  parallel_for(indices.size(), options.jobs, [&](std::size_t k) { instances[k] = generate_case(claim, options.seed, indices[k], cases, options.budget); });

  std::vector<ClaimRun> runs;
  LadderCache cache;
  for (Precision p : options.precisions) {
    ClaimRun run;
    run.claim = &claim;
    run.precision = p;
    run.variant = options.variant;
    run.seed = options.seed;
    run.cases_budget = cases;
    const double eps = precision_epsilon(p);
    bool worst_is_violation = false;
    int ladder_violations = 0, ladder_inconclusive = 0;
    // MP rungs replay a prefix of the same instances when the claim says so (Claim::mp_cases).
    std::size_t count = indices.size();
    if (p != Precision::float64 && claim.mp_cases >= 0 && !options.only_case)
      count = std::min(count, static_cast<std::size_t>(claim.mp_cases));
    for (std::size_t first = 0; first < count; first += kBlock) {
      const std::size_t n = std::min(kBlock, count - first);
      // Evaluate the block (the ladder's earlier evaluations are reused).
      std::vector<Evaluation> evaluations(n);
      std::vector<bool> ready(n, false);
      for (std::size_t b = 0; b < n; ++b)
        if (const auto cached = cache.find({indices[first + b], p}); cached != cache.end()) {
          evaluations[b] = std::move(cached->second);
          ready[b] = true;
        }
      parallel_for(n, options.jobs, [&](std::size_t b) {
        if (!ready[b]) evaluations[b] = evaluate_case(claim, instances[first + b], p, options.variant);
      });
      std::vector<CaseRecord> records(n);
      for (std::size_t b = 0; b < n; ++b) {
        records[b].index = indices[first + b];
        records[b].outcome = judge(evaluations[b], eps);
        records[b].discard_reason = evaluations[b].discard_reason;
      }
      // The ladder: violated and inconclusive double cases, the first ladder_checks of each in case order.
      if (p == Precision::float64) {
        std::vector<std::size_t> climb;
        for (std::size_t b = 0; b < n; ++b) {
          const CaseVerdict v = records[b].outcome.verdict;
          int* checks = v == CaseVerdict::violated ? &ladder_violations : v == CaseVerdict::inconclusive ? &ladder_inconclusive : nullptr;
          if (checks && *checks < claim.ladder_checks) {
            ++*checks;
            climb.push_back(b);
          }
        }
        std::vector<LadderCache> found(climb.size());
        parallel_for(climb.size(), options.jobs, [&](std::size_t c) {
          const std::size_t b = climb[c];
          records[b].ladder = ladder(claim, instances[first + b], options.variant, records[b].outcome.verdict, indices[first + b], &found[c]);
        });
        for (LadderCache& f : found) cache.merge(f);
      }
      for (std::size_t b = 0; b < n; ++b) {
        const std::size_t k = first + b;
        const int i = indices[k];
        CaseRecord& rec = records[b];
        Evaluation& e = evaluations[b];
        ++run.cases_run;
        switch (rec.outcome.verdict) {
          case CaseVerdict::holds: ++run.cases_held; break;
          case CaseVerdict::violated:
            if (rec.ladder == LadderResult::rounding_artifact) {
              ++run.cases_rounding_artifact;
              if (!run.artifact_case) {
                run.artifact_case = i;
                run.artifact_instance = instances[k];
                run.artifact_evaluation = e;
              }
            } else {
              ++run.cases_violated;
            }
            break;
          case CaseVerdict::discarded: ++run.cases_discarded; break;
          case CaseVerdict::inconclusive:
            ++run.cases_inconclusive;
            run.cases_resolved += rec.ladder == LadderResult::resolved;
            break;
        }
        if (rec.outcome.verdict != CaseVerdict::discarded) {
          const double s = rec.outcome.min_slack;
          const bool violation = rec.outcome.verdict == CaseVerdict::violated && rec.ladder != LadderResult::rounding_artifact;
          // The worst case is the first violation if there is one, else the smallest slack.
          const bool better = !run.worst_case || (violation && !worst_is_violation) ||
                              (violation == worst_is_violation && !worst_is_violation && s < *run.min_slack);
          if (!run.min_slack || s < *run.min_slack || (std::isnan(*run.min_slack) && !std::isnan(s))) {
            run.min_slack = s;
            run.min_slack_eps = rec.outcome.min_slack_eps;
          }
          if (better) {
            run.worst_case = i;
            run.worst_instance = instances[k];
            run.worst_evaluation = std::move(e);
            worst_is_violation = violation;
          }
        }
        run.records.push_back(std::move(rec));
      }
    }
    if (p == Precision::float64 && options.shrink && worst_is_violation && claim.ladder_checks > 0)
      run.shrunk = shrink_case(claim, options, *run.worst_case, cases);
    if (p == Precision::float64 && options.variant == Variant::claim && claim.tightness && !options.only_case)
      run.tightness = claim.tightness(options.seed);
    run.verdict = aggregate_verdict(claim, run);
    runs.push_back(std::move(run));
  }
  return runs;
}

}  // namespace thm
