// The property runner: generates a claim's instances from one seed, evaluates the same instances at
// every requested precision, and keeps every evaluation's verdict, the counts, the minimum slack and
// the worst instance. Discarded cases are never counted as passes.
#pragma once

#include "properties/case_generation.hpp"
#include "properties/certification.hpp"
#include "properties/claim_run.hpp"
#include "properties/verdicts.hpp"
#include "theorems/claim.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <vector>

namespace thm {

// The I-th of K disjoint slices of every claim's cases: case i belongs to slice i mod K (so each slice has small and
// large cases alike).
struct Shard {
  int index = 0, count = 1;
};

// Which double cases a run certifies in interval arithmetic (claims with an interval evaluation only): none; the cases
// it reports (the worst case, the first rounding artifact, the ladder's violated and inconclusive cases); every judged
// (not discarded) case.
enum class CertifyScope { none, reported, all };

struct RunOptions {
  std::vector<Precision> precisions{Precision::float64, Precision::mp50};
  int cases = -1;  // -1: the claim's default cases
  std::uint64_t seed = 1;
  Variant variant = Variant::claim;
  std::optional<int> only_case;  // replay one case of the budget (its size depends on `cases`)
  StudyBudget budget = StudyBudget::standard;  // the grids of the studies (numerics/choice_source.hpp)
  // A campaign (run --budget campaign, for clusters): the full grids, kCampaignCaseFactor times each claim's default
  // cases, and every multiprecision rung on every case (Claim::mp_cases ignored).
  bool campaign = false;
  // Shrink the first violated double case by structure (properties/structural_search.hpp), within these
  // caps, and re-check the minimal instance at mp50 and mp100. Claims with ladder_checks == 0 (long
  // training trends) are never shrunk. The evaluation cap keeps the result reproducible; the time cap
  // is a safety net (a shrink it stops says so, and then depends on the machine's speed).
  // Threads evaluating cases (and the ladder) in parallel; the results do not depend on it.
  int jobs = 1;
  Shard shard;
  // Called after each block of cases (claim, cases evaluated over every precision, of how many): progress lines.
  std::function<void(const Claim&, int done, int total)> progress;
  bool shrink = false;
  // The claim's tightness probe (ClaimRun::tightness) on its double row; the fault matrix skips it (no verdict uses it).
  bool tightness_probe = true;
  int shrink_evaluations = 200;
  double shrink_seconds = 60;
  CertifyScope certify = CertifyScope::none;
};

inline constexpr int kCampaignCaseFactor = 10;
// The claim's case count under these options: --cases, or its default (times kCampaignCaseFactor in a campaign).
int case_count(const Claim& claim, const RunOptions& options);

// What a shard evaluates of one claim: per precision, the records of its cases in case order, and the evaluations of
// the cases its own fold would report (in memory only; finish_run evaluates again those it lacks).
struct ShardRun {
  const Claim* claim = nullptr;
  Shard shard;
  std::map<Precision, std::vector<CaseRecord>> records;
  std::map<std::pair<Precision, int>, Evaluation> kept;
};
// The case indices of options.shard (the one case of options.only_case).
std::vector<int> shard_cases(const Claim& claim, const RunOptions& options);
// Evaluates the shard's cases at every precision, and the ladder of its first ladder_checks violated and
// inconclusive double cases.
ShardRun evaluate_shard(const Claim& claim, const RunOptions& options);
// The claim's rows from all of its shards (each case in exactly one): the ladder's choices, counts and worst cases
// over all cases in case order, then shrinking and the tightness probe. The same result for any number of shards.
std::vector<ClaimRun> finish_run(const Claim& claim, const RunOptions& options, std::vector<ShardRun> parts);


// claim.evaluate (or evaluate_digits), with a numerical failure (numerics/numerical_failure.hpp) turned into a
// violated condition that names it: never a number from a failed decomposition, never an aborted run.
Evaluation evaluate_case(const Claim& claim, const Instance& inst, Precision p, Variant v);
Evaluation evaluate_case_digits(const Claim& claim, const Instance& inst, int digits, Variant v);


// One ClaimRun per requested precision, in the order requested.
std::vector<ClaimRun> run_claim(const Claim& claim, const RunOptions& options);
// Several claims: run_one(claim, options) for each, min(jobs, claims) claims at a time on the jobs between them; done(k,
// rows) is called for claim k in claim order (under a lock), as soon as it and every earlier claim are finished.
void run_claims(const std::vector<const Claim*>& claims, const RunOptions& options,
                const std::function<std::vector<ClaimRun>(const Claim&, const RunOptions&)>& run_one,
                const std::function<void(std::size_t, std::vector<ClaimRun>)>& done);

}  // namespace thm
