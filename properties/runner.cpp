#include "properties/runner.hpp"

#include "properties/parallel_for.hpp"
#include "properties/structural_search.hpp"
#include "numerics/numerical_failure.hpp"

#include <cstdio>

#include <algorithm>
#include <atomic>
#include <exception>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <thread>

namespace thm {

namespace {

Evaluation numerical_failure(const std::string& what) {
  Evaluation e;
  Condition c;
  c.name = "numerical failure: " + what;
  c.lhs = c.rhs = c.margin = c.relative_slack = std::numeric_limits<double>::quiet_NaN();
  c.lhs_exact = c.rhs_exact = "nan";
  // A conclusion that could not be computed is a failure of the claim on this instance (docs/verdicts.md, section 1):
  // the ladder re-checks it at mp50 and mp100, where a decomposition that failed for double's range is a rounding artifact.
  c.verdict = CaseVerdict::violated;
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

namespace {

// Cases are evaluated in blocks: in parallel within a block, then folded into the run in case order (counts,
// ladder choices, worst case), so the result does not depend on the number of jobs and memory stays bounded.
constexpr std::size_t kBlock = 256;

}  // namespace

int case_count(const Claim& claim, const RunOptions& options) {
  if (options.cases >= 0) return options.cases;
  return options.campaign ? kCampaignCaseFactor * claim.default_cases : claim.default_cases;
}

std::vector<int> shard_cases(const Claim& claim, const RunOptions& options) {
  const int cases = case_count(claim, options);
  std::vector<int> indices;
  if (options.only_case)
    indices.push_back(*options.only_case);
  else
    for (int i = options.shard.index; i < cases; i += options.shard.count) indices.push_back(i);
  return indices;
}

namespace {

// The ladder's quota: the first ladder_checks violated and the first ladder_checks inconclusive double cases, in the
// order they are offered, climb it.
struct LadderQuota {
  int limit, violated = 0, inconclusive = 0;
  bool take(CaseVerdict v) {
    int* taken = v == CaseVerdict::violated ? &violated : v == CaseVerdict::inconclusive ? &inconclusive : nullptr;
    if (!taken || *taken >= limit) return false;
    ++*taken;
    return true;
  }
};

// The fold of one precision row over its records in case order: counts, minimum slack, worst case (the first
// violation if any, else the smallest slack), first rounding artifact. The same code folds one shard's records (to
// know which evaluations to keep) and all of them (the row), so a sharded run reports what an unsharded one does.
struct Fold {
  ClaimRun& run;
  bool worst_is_violation = false;

  // Returns whether the record became the worst case (first) or the first artifact (second).
  std::pair<bool, bool> add(const CaseRecord& rec) {
    std::pair<bool, bool> kept{false, false};
    ++run.cases_run;
    switch (rec.outcome.verdict) {
      case CaseVerdict::holds: ++run.cases_held; break;
      case CaseVerdict::violated:
        if (rec.ladder == LadderResult::rounding_artifact) {
          ++run.cases_rounding_artifact;
          if (!run.artifact_case) {
            run.artifact_case = rec.index;
            kept.second = true;
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
      const bool better = !run.worst_case || (violation && !worst_is_violation) ||
                          (violation == worst_is_violation && !worst_is_violation && s < *run.min_slack);
      const double k = rec.outcome.strength;
      if (!std::isnan(k) && (!run.strength || k < *run.strength)) run.strength = k;
      if (!run.min_slack || s < *run.min_slack || (std::isnan(*run.min_slack) && !std::isnan(s))) {
        run.min_slack = s;
        run.min_slack_eps = rec.outcome.min_slack_eps;
      }
      if (better) {
        run.worst_case = rec.index;
        worst_is_violation = violation;
        kept.first = true;
      }
    }
    return kept;
  }
};

}  // namespace

ShardRun evaluate_shard(const Claim& claim, const RunOptions& options) {
  const int cases = case_count(claim, options);
  const std::vector<int> indices = shard_cases(claim, options);
  ShardRun out;
  out.claim = &claim;
  out.shard = options.shard;
  // The same instances at every precision: generated once, in double.
  std::vector<Instance> instances(indices.size());
  parallel_for(indices.size(), options.jobs, [&](std::size_t k) { instances[k] = generate_case(claim, options.seed, indices[k], cases, options.budget); });
  // MP rungs replay a prefix of the same instances when the claim says so (Claim::mp_cases).
  const auto count_at = [&](Precision p) {
    if (p == Precision::float64 || claim.mp_cases < 0 || options.only_case || options.campaign) return indices.size();
    return static_cast<std::size_t>(std::lower_bound(indices.begin(), indices.end(), claim.mp_cases) - indices.begin());
  };
  LadderCache cache;
  int done = 0, total = 0;
  for (Precision p : options.precisions) total += static_cast<int>(count_at(p));
  for (Precision p : options.precisions) {
    ClaimRun local;  // this shard's fold: which evaluations to keep
    Fold fold{local};
    std::vector<CaseRecord>& records = out.records[p];
    const double eps = precision_epsilon(p);
    LadderQuota quota{claim.ladder_checks};
    std::optional<int> kept_worst;  // the shard's worst case so far, whose evaluation is kept
    const std::size_t count = count_at(p);
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
      std::vector<CaseRecord> block(n);
      for (std::size_t b = 0; b < n; ++b) {
        block[b].index = indices[first + b];
        block[b].outcome = judge(evaluations[b], eps);
        block[b].discard_reason = evaluations[b].discard_reason;
        if (!claim.expected_conditions.empty() && options.variant == Variant::claim)
          block[b].expected_conditions = expected_condition_verdicts(claim.expected_conditions, evaluations[b]);
      }
      // The ladder: violated and inconclusive double cases, the first ladder_checks of each in case order (of this
      // shard: the first ladder_checks of all cases are among them; finish_run keeps those).
      if (p == Precision::float64) {
        std::vector<std::size_t> climb;
        for (std::size_t b = 0; b < n; ++b)
          if (quota.take(block[b].outcome.verdict)) climb.push_back(b);
        std::vector<LadderCache> found(climb.size());
        parallel_for(climb.size(), options.jobs, [&](std::size_t c) {
          const std::size_t b = climb[c];
          block[b].ladder = ladder(claim, instances[first + b], options.variant, block[b].outcome.verdict, indices[first + b], &found[c]);
        });
        for (LadderCache& f : found) cache.merge(f);
      }
      for (std::size_t b = 0; b < n; ++b) {
        const int i = block[b].index;
        const auto [worst, artifact] = fold.add(block[b]);
        if (worst) {
          // A superseded worst case's evaluation is dropped (unless it is the first artifact, kept for good).
          if (kept_worst && kept_worst != local.artifact_case) out.kept.erase({p, *kept_worst});
          kept_worst = i;
        }
        if (worst || artifact) out.kept[{p, i}] = std::move(evaluations[b]);
        records.push_back(std::move(block[b]));
      }
      done += static_cast<int>(n);
      if (options.progress) options.progress(claim, done, total);
    }
  }
  return out;
}

namespace {

// The double row's certificates (RunOptions::certify): the reported cases, or every judged one, in case order.
void certify_cases(const Claim& claim, const RunOptions& options, int cases, ClaimRun& run) {
  std::set<int> chosen;
  if (run.worst_case) chosen.insert(*run.worst_case);
  if (run.artifact_case) chosen.insert(*run.artifact_case);
  for (const CaseRecord& r : run.records)
    if (r.ladder != LadderResult::not_checked || (options.certify == CertifyScope::all && r.outcome.verdict != CaseVerdict::discarded))
      chosen.insert(r.index);
  const std::vector<int> indices(chosen.begin(), chosen.end());
  run.certifications.resize(indices.size());
  parallel_for(indices.size(), options.jobs, [&](std::size_t k) {
    const Instance inst = generate_case(claim, options.seed, indices[k], cases, options.budget);
    run.certifications[k] = certify_case(claim, inst, options.variant, indices[k]);
  });
}

}  // namespace

std::vector<ClaimRun> finish_run(const Claim& claim, const RunOptions& options, std::vector<ShardRun> parts) {
  const int cases = case_count(claim, options);
  std::vector<ClaimRun> runs;
  for (Precision p : options.precisions) {
    ClaimRun run;
    run.claim = &claim;
    run.precision = p;
    run.variant = options.variant;
    run.seed = options.seed;
    run.case_count = cases;
    run.budget = options.budget;
    std::vector<CaseRecord> records;
    for (ShardRun& part : parts)
      for (CaseRecord& r : part.records[p]) records.push_back(std::move(r));
    std::sort(records.begin(), records.end(), [](const CaseRecord& a, const CaseRecord& b) { return a.index < b.index; });
    // The ladder over all cases: the first ladder_checks violated and inconclusive double cases in case order keep
    // their rungs; a shard may have climbed later ones too (its own first ladder_checks), which are dropped.
    if (p == Precision::float64) {
      LadderQuota quota{claim.ladder_checks};
      for (CaseRecord& r : records)
        if (!quota.take(r.outcome.verdict)) r.ladder = LadderResult::not_checked;
    }
    Fold fold{run};
    for (const CaseRecord& r : records) fold.add(r);
    // The reported cases: regenerated, with the evaluation kept by the shard that made it, or made again (deterministic).
    const auto report = [&](int index, std::optional<Instance>& instance, std::optional<Evaluation>& evaluation) {
      instance = generate_case(claim, options.seed, index, cases, options.budget);
      for (const ShardRun& part : parts)
        if (const auto it = part.kept.find({p, index}); it != part.kept.end()) evaluation = it->second;
      if (!evaluation) evaluation = evaluate_case(claim, *instance, p, options.variant);
    };
    if (run.worst_case) report(*run.worst_case, run.worst_instance, run.worst_evaluation);
    if (run.artifact_case) report(*run.artifact_case, run.artifact_instance, run.artifact_evaluation);
    run.records = std::move(records);
    if (p == Precision::float64 && options.shrink && fold.worst_is_violation && claim.ladder_checks > 0)
      run.shrunk = shrink_case(claim, options, *run.worst_case, cases);
    if (p == Precision::float64 && options.variant == Variant::claim && claim.tightness && !options.only_case && options.tightness_probe)
      run.tightness = claim.tightness(options.seed);
    const bool certifiable = claim.certify && (options.variant == Variant::claim || claim.certifies_control);
    if (p == Precision::float64 && certifiable && options.certify != CertifyScope::none) certify_cases(claim, options, cases, run);
    run.verdict = aggregate_verdict(claim, run);
    runs.push_back(std::move(run));
  }
  return runs;
}

std::vector<ClaimRun> run_claim(const Claim& claim, const RunOptions& options) {
  std::vector<ShardRun> parts;
  parts.push_back(evaluate_shard(claim, options));
  return finish_run(claim, options, std::move(parts));
}

void run_claims(const std::vector<const Claim*>& claims, const RunOptions& options,
                const std::function<std::vector<ClaimRun>(const Claim&, const RunOptions&)>& run_one,
                const std::function<void(std::size_t, std::vector<ClaimRun>)>& done) {
  // min(jobs, claims) claims at a time, the jobs shared among them: a claim whose one long case holds a thread no
  // longer idles the others. Each claim's result does not depend on its jobs, so neither does the run's.
  const std::size_t at_once = std::max<std::size_t>(1, std::min<std::size_t>(claims.size(), static_cast<std::size_t>(std::max(1, options.jobs))));
  RunOptions each = options;
  each.jobs = std::max(1, options.jobs / static_cast<int>(at_once));
  // Started longest first (the seconds each claim's largest instances take, from its schema), so that the slowest
  // claim does not start last and run alone; reported in claim order all the same.
  std::vector<std::size_t> start_order(claims.size());
  for (std::size_t k = 0; k < claims.size(); ++k) start_order[k] = k;
  std::stable_sort(start_order.begin(), start_order.end(), [&](std::size_t a, std::size_t b) {
    return claims[a]->schema.seconds_at_limits() > claims[b]->schema.seconds_at_limits();
  });
  std::vector<std::optional<std::vector<ClaimRun>>> results(claims.size());
  std::mutex order;
  std::size_t next_to_report = 0;
  parallel_for(claims.size(), static_cast<int>(at_once), [&](std::size_t position) {
    const std::size_t k = start_order[position];
    std::vector<ClaimRun> rows = run_one(*claims[k], each);
    const std::lock_guard<std::mutex> lock(order);
    results[k] = std::move(rows);
    // Reported in claim order, as soon as every earlier claim is.
    for (; next_to_report < claims.size() && results[next_to_report]; ++next_to_report) {
      done(next_to_report, std::move(*results[next_to_report]));
      results[next_to_report].reset();
    }
  });
}

}  // namespace thm
