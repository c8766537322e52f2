// Counterexample files: a violated case with everything needed to replay it anywhere (claim id,
// variant, seed and case, precision, every matrix entry as an exact decimal string, the evaluation,
// library versions). Loading validates everything and fails with a one-line DataError.
#pragma once

#include "properties/runner.hpp"
#include "reports/csv.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace thm {

inline constexpr int kCounterexampleVersion = 1;
// What a counterexample file may hold: every claim's instances are far below these (the largest generated matrix
// is 64 x 64); they keep a hostile file from costing gigabytes before its claim looks at it.
inline constexpr std::uintmax_t kMaxCounterexampleBytes = 32u << 20;
inline constexpr long long kMaxCounterexampleDimension = 1024, kMaxCounterexampleEntries = 1 << 20;
inline constexpr std::size_t kMaxCounterexampleMatrices = 256;

struct Counterexample {
  std::string claim;
  Variant variant = Variant::claim;
  std::uint64_t seed = 0;
  int case_index = 0, cases = 0;
  std::string precision;
  Instance instance;
};

nlohmann::json instance_exact_json(const Instance& inst);
// Where an instance came from: its claim, variant and the case that generated it (case -1: a search
// made it; `origin` says which, e.g. "shrunk from case 3" or "tighten, 200 evaluations").
struct CounterexampleSource {
  std::string claim;
  Variant variant = Variant::claim;
  std::uint64_t seed = 0;
  int case_index = -1, cases = 0;
  std::string precision = "double";
  std::string origin;
};
nlohmann::json counterexample_json(const CounterexampleSource& src, const Instance& inst, const Evaluation& e);
std::string counterexample_filename(const std::string& claim, const Instance& inst, Variant variant);
// The run's worst case (a violation when there is one) as a counterexample document.
nlohmann::json counterexample_json(const ClaimRun& run);
// "<id>-<16 hex digits of the instance's hash>.json"
std::string counterexample_filename(const ClaimRun& run);

Counterexample read_counterexample(const std::filesystem::path& path);
// The same from a document already parsed; `where` (the file) prefixes every message.
Counterexample counterexample_from_json(const nlohmann::json& j, const std::string& where);

// An instance document {"family", "params", "matrices"} as instance_exact_json writes it (every entry an exact decimal
// string or a number); DataError with one line, prefixed by `where`, on anything else or beyond the limits above.
Instance instance_from_json(const nlohmann::json& inst, const std::string& where);

// Instance files (thmcheck assess --instance, thmcheck.qin.Transformer.save): {"format": "thmcheck-instance",
// "version": 1, "instance": {...}}; a counterexample file is read as its instance. No claim is named: the instance's
// family says which claims can read it. Schema: docs/guide/python.md, "Instance files".
inline constexpr int kInstanceFileVersion = 1;
nlohmann::json instance_file_json(const Instance& inst);
Instance read_instance_file(const std::filesystem::path& path);

}  // namespace thm
