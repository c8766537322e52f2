#include "reports/shard_file.hpp"

#include "reports/csv.hpp"
#include "theorems/registry.hpp"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace thm {

namespace {

constexpr int kShardFormatVersion = 1;
constexpr std::uintmax_t kMaxShardBytes = std::uintmax_t{1} << 30;

std::string budget_name(StudyBudget b) { return b == StudyBudget::full ? "full" : "standard"; }

}  // namespace

std::string shard_json(const ShardFile& s) {
  nlohmann::ordered_json j;
  j["format"] = "thmcheck-shard";
  j["version"] = kShardFormatVersion;
  nlohmann::ordered_json env;
  for (const auto& [k, v] : s.environment) env[k] = v;
  j["environment"] = env;
  j["seed"] = std::to_string(s.seed);
  j["variant"] = std::string(to_string(s.variant));
  j["budget"] = s.campaign ? std::string("campaign") : budget_name(s.budget);
  nlohmann::ordered_json precisions = nlohmann::ordered_json::array();
  for (Precision p : s.precisions) precisions.push_back(std::string(precision_name(p)));
  j["precisions"] = precisions;
  j["cases"] = s.cases;
  j["shard"] = {{"index", s.shard.index}, {"count", s.shard.count}};
  nlohmann::ordered_json claims = nlohmann::ordered_json::array();
  for (const ShardRun& r : s.runs) {
    nlohmann::ordered_json c;
    c["id"] = r.claim->id;
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (Precision p : s.precisions) {
      nlohmann::ordered_json records = nlohmann::ordered_json::array();
      const auto it = r.records.find(p);
      if (it != r.records.end())
        for (const CaseRecord& rec : it->second) {
          nlohmann::ordered_json record = {rec.index, static_cast<int>(rec.outcome.verdict), exact_decimal(rec.outcome.min_slack),
                                           exact_decimal(rec.outcome.min_slack_eps), rec.outcome.worst_condition, rec.discard_reason,
                                           static_cast<int>(rec.ladder), exact_decimal(rec.outcome.strength)};
          // The expected conditions, judged one by one (properties/claim_run.hpp, CaseRecord::expected_conditions).
          if (!rec.expected_conditions.empty()) {
            nlohmann::ordered_json fc = nlohmann::ordered_json::array();
            for (CaseVerdict v : rec.expected_conditions) fc.push_back(static_cast<int>(v));
            record.push_back(fc);
          }
          records.push_back(record);
        }
      rows.push_back({{"precision", std::string(precision_name(p))}, {"records", records}});
    }
    c["rows"] = rows;
    claims.push_back(c);
  }
  j["claims"] = claims;
  return j.dump(1) + "\n";
}

ShardFile read_shard(const std::filesystem::path& path) {
  const std::filesystem::path file = std::filesystem::is_directory(path) ? path / kShardFileName : path;
  const std::string where = file.string();
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(file, ec);
  if (ec) throw DataError(where + ": cannot read (" + ec.message() + "); a shard directory holds " + kShardFileName);
  if (bytes > kMaxShardBytes) throw DataError(where + ": larger than 1 GiB");
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::exception&) {
    throw DataError(where + ": not JSON");
  }
  ShardFile s;
  try {
    if (j.at("format") != "thmcheck-shard" || j.at("version") != kShardFormatVersion)
      throw DataError(where + ": not a thmcheck shard (format thmcheck-shard, version " + std::to_string(kShardFormatVersion) + ")");
    for (const auto& [k, v] : j.at("environment").items()) s.environment.emplace_back(k, v.get<std::string>());
    const std::string seed = j.at("seed").get<std::string>();
    char* end = nullptr;
    s.seed = std::strtoull(seed.c_str(), &end, 10);
    if (seed.empty() || *end) throw DataError(where + ": bad seed '" + seed + "'");
    const std::string variant = j.at("variant").get<std::string>();
    if (variant != to_string(Variant::claim) && variant != to_string(Variant::negative_control)) throw DataError(where + ": bad variant");
    s.variant = variant == to_string(Variant::claim) ? Variant::claim : Variant::negative_control;
    const std::string budget = j.at("budget").get<std::string>();
    if (budget != "standard" && budget != "full" && budget != "campaign") throw DataError(where + ": bad budget '" + budget + "'");
    s.budget = budget == "standard" ? StudyBudget::standard : StudyBudget::full;
    s.campaign = budget == "campaign";
    for (const auto& p : j.at("precisions")) {
      const auto q = parse_precision(p.get<std::string>());
      if (!q) throw DataError(where + ": bad precision");
      s.precisions.push_back(*q);
    }
    s.cases = j.at("cases").get<int>();
    s.shard.index = j.at("shard").at("index").get<int>();
    s.shard.count = j.at("shard").at("count").get<int>();
    if (s.shard.count < 1 || s.shard.index < 0 || s.shard.index >= s.shard.count) throw DataError(where + ": bad shard index");
    for (const auto& c : j.at("claims")) {
      const std::string id = c.at("id").get<std::string>();
      const Claim* claim = nullptr;
      for (const Claim& k : all_claims())
        if (k.id == id) claim = &k;
      if (!claim) throw DataError(where + ": claim '" + id + "' is not in this build");
      ShardRun run;
      run.claim = claim;
      run.shard = s.shard;
      const auto& rows = c.at("rows");
      if (rows.size() != s.precisions.size()) throw DataError(where + ": " + id + " has " + std::to_string(rows.size()) + " precision rows");
      for (std::size_t k = 0; k < rows.size(); ++k) {
        if (rows[k].at("precision").get<std::string>() != precision_name(s.precisions[k])) throw DataError(where + ": " + id + ": rows out of order");
        std::vector<CaseRecord>& records = run.records[s.precisions[k]];
        for (const auto& r : rows[k].at("records")) {
          CaseRecord rec;
          rec.index = r.at(0).get<int>();
          const int verdict = r.at(1).get<int>(), ladder = r.at(6).get<int>();
          if (verdict < 0 || verdict > static_cast<int>(CaseVerdict::inconclusive) || ladder < 0 || ladder > static_cast<int>(LadderResult::undecided))
            throw DataError(where + ": " + id + ": bad record");
          rec.outcome.verdict = static_cast<CaseVerdict>(verdict);
          rec.outcome.min_slack = std::strtod(r.at(2).get<std::string>().c_str(), nullptr);
          rec.outcome.min_slack_eps = std::strtod(r.at(3).get<std::string>().c_str(), nullptr);
          rec.outcome.worst_condition = r.at(4).get<int>();
          rec.discard_reason = r.at(5).get<std::string>();
          rec.ladder = static_cast<LadderResult>(ladder);
          rec.outcome.strength = std::strtod(r.at(7).get<std::string>().c_str(), nullptr);
          if (r.size() > 8)
            for (const auto& fv : r.at(8)) {
              const int v = fv.get<int>();
              if (v < 0 || v > static_cast<int>(CaseVerdict::inconclusive)) throw DataError(where + ": " + id + ": bad record");
              rec.expected_conditions.push_back(static_cast<CaseVerdict>(v));
            }
          records.push_back(std::move(rec));
        }
      }
      s.claims.push_back(claim);
      s.runs.push_back(std::move(run));
    }
  } catch (const nlohmann::json::exception& e) {
    throw DataError(where + ": malformed shard (" + std::string(e.what()) + ")");
  }
  return s;
}

RunOptions merged_options(const ShardFile& s) {
  RunOptions o;
  o.precisions = s.precisions;
  o.cases = s.cases;
  o.seed = s.seed;
  o.variant = s.variant;
  o.budget = s.budget;
  o.campaign = s.campaign;
  o.shrink = true;
  o.certify = CertifyScope::reported;  // as run's default; run refuses --certify with --shard
  return o;
}

void check_one_campaign(const std::vector<ShardFile>& shards, const std::vector<std::string>& names) {
  if (shards.empty() || names.size() != shards.size()) throw std::invalid_argument("check_one_campaign: no shards, or a name missing");
  const ShardFile& first = shards.front();
  const auto ids = [](const ShardFile& s) {
    std::string out;
    for (const Claim* c : s.claims) out += c->id + ",";
    return out;
  };
  std::set<int> seen;
  for (std::size_t k = 0; k < shards.size(); ++k) {
    const ShardFile& s = shards[k];
    const std::string& name = names[k];
    const auto refuse = [&](const std::string& what) { throw DataError(name + ": " + what + " differs from " + names.front() + "'s: not one campaign"); };
    if (s.environment != first.environment) refuse("the build (compiler, libraries or revision)");
    if (s.seed != first.seed) refuse("the seed");
    if (s.variant != first.variant) refuse("the variant");
    if (s.budget != first.budget || s.campaign != first.campaign) refuse("the budget");
    if (s.precisions != first.precisions) refuse("the precisions");
    if (s.cases != first.cases) refuse("the case count");
    if (ids(s) != ids(first)) refuse("the claim set");
    if (s.shard.count != first.shard.count) refuse("the number of shards");
    if (!seen.insert(s.shard.index).second)
      throw DataError(name + ": shard " + std::to_string(s.shard.index) + "/" + std::to_string(s.shard.count) + " given twice");
  }
  if (static_cast<int>(seen.size()) != first.shard.count) {
    std::string missing;
    for (int i = 0; i < first.shard.count; ++i)
      if (!seen.count(i)) missing += (missing.empty() ? "" : ", ") + std::to_string(i);
    throw DataError("missing shard(s) " + missing + " of " + std::to_string(first.shard.count));
  }
}

std::vector<ShardRun> take_shard_runs(std::vector<ShardFile>& shards, const Claim& claim) {
  std::vector<ShardRun> parts;
  for (ShardFile& s : shards)
    for (ShardRun& r : s.runs)
      if (r.claim == &claim) parts.push_back(std::move(r));
  return parts;
}

}  // namespace thm
