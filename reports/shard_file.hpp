// A shard's partial result (`thmcheck run --shard I/K`), written as DIR/shard.json and read back by `thmcheck merge`:
// the run's options and build, and per claim and precision the records of the shard's cases. Doubles are written with
// round-trip digits, so a merge folds exactly what an unsharded run folds.
#pragma once

#include "properties/runner.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace thm {

struct ShardFile {
  std::vector<std::pair<std::string, std::string>> environment;  // the build (reports/environment.hpp)
  std::uint64_t seed = 1;
  Variant variant = Variant::claim;
  StudyBudget budget = StudyBudget::standard;
  bool campaign = false;
  std::vector<Precision> precisions;
  int cases = -1;  // -1: each claim's default
  Shard shard;
  std::vector<const Claim*> claims;  // in run order
  std::vector<ShardRun> runs;        // one per claim, same order (without kept evaluations)
};

inline constexpr const char* kShardFileName = "shard.json";

// The file's text (deterministic: the same shard gives the same bytes).
std::string shard_json(const ShardFile& shard);
// Reads DIR/shard.json (or a file); DataError (reports/csv.hpp) naming the file on anything malformed, including
// claims this build does not know.
ShardFile read_shard(const std::filesystem::path& path);

// The run options every shard of a campaign must share, and the merged run's (shard 0 of 1).
RunOptions merged_options(const ShardFile& shard);

// What `merge` accepts: shards of one campaign, i.e. the same build (environment stamp), seed, variant, budget,
// precisions, case count and claim set, and every shard I of one K exactly once. `names[k]` names shards[k] in the
// message. Throws DataError, one line: "NAME: the seed differs from FIRST's: not one campaign", "NAME: shard I/K given
// twice", "missing shard(s) I, J of K"; std::invalid_argument when there is no shard or the names do not match.
void check_one_campaign(const std::vector<ShardFile>& shards, const std::vector<std::string>& names);

// Every shard's records of `claim`, moved out of `shards` in shard order: what finish_run (properties/runner.hpp)
// folds in case order into the unsharded run's rows.
std::vector<ShardRun> take_shard_runs(std::vector<ShardFile>& shards, const Claim& claim);

}  // namespace thm
