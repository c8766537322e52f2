#include "reports/counterexample.hpp"

#include "numerics/random.hpp"
#include "reports/environment.hpp"
#include "reports/json_reports.hpp"
#include "theorems/registry.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>

namespace thm {

namespace {

std::string hex16(std::uint64_t h) {
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

double exact_number(const nlohmann::json& v, const std::string& where) {
  if (!v.is_string()) throw DataError(where + " must be a decimal string");
  const std::string s = v.get<std::string>();
  double x = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
  if (ec != std::errc() || ptr != s.data() + s.size()) throw DataError(where + " is not a number: " + quote_for_message(s));
  if (!std::isfinite(x)) throw DataError(where + " is not finite");
  return x;
}

// An integral JSON number in [lo, hi]: 2.7 or "2" is refused, never truncated.
long long integer_field(const nlohmann::json& j, const char* name, long long lo, long long hi, const std::string& where) {
  const nlohmann::json& v = j.at(name);
  if (!v.is_number_integer()) throw DataError(where + ": " + name + " must be a whole number, got " + quote_for_message(v.dump()));
  if (v.is_number_unsigned() ? v.get<unsigned long long>() > static_cast<unsigned long long>(hi) : (v.get<long long>() < lo || v.get<long long>() > hi))
    throw DataError(where + ": " + name + " must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got " + quote_for_message(v.dump()));
  return v.get<long long>();
}

}  // namespace

nlohmann::json instance_exact_json(const Instance& inst) {
  nlohmann::json j = instance_json(inst);  // family and parameters
  nlohmann::json mats = nlohmann::json::object();
  for (const auto& [name, m] : inst.matrices) {
    nlohmann::json data = nlohmann::json::array();
    for (Eigen::Index r = 0; r < m.rows(); ++r)
      for (Eigen::Index c = 0; c < m.cols(); ++c) data.push_back(exact_decimal(m(r, c)));
    mats[name] = {{"rows", m.rows()}, {"cols", m.cols()}, {"data", data}};
  }
  j["matrices"] = mats;
  return j;
}

nlohmann::json counterexample_json(const CounterexampleSource& src, const Instance& inst, const Evaluation& e) {
  nlohmann::json j;
  j["format"] = "thmcheck-counterexample";
  j["version"] = kCounterexampleVersion;
  j["claim"] = src.claim;
  j["variant"] = std::string(to_string(src.variant));
  j["seed"] = src.seed;
  j["case"] = src.case_index;
  j["cases"] = src.cases;
  j["precision"] = src.precision;
  if (!src.origin.empty()) j["origin"] = src.origin;
  j["instance"] = instance_exact_json(inst);
  j["evaluation"] = evaluation_json(e);
  nlohmann::json env = nlohmann::json::object();
  for (const auto& [k, v] : environment_stamp()) env[k] = v;
  j["environment"] = env;
  return j;
}

nlohmann::json counterexample_json(const ClaimRun& run) {
  const CounterexampleSource src{run.claim->id, run.variant, run.seed, run.worst_case.value_or(-1), run.case_count,
                                 std::string(precision_name(run.precision)), ""};
  return counterexample_json(src, *run.worst_instance, *run.worst_evaluation);
}

std::string counterexample_filename(const std::string& claim, const Instance& inst, Variant variant) {
  const std::uint64_t h = fnv1a64(instance_exact_json(inst).dump() + std::string(to_string(variant)));
  return claim + "-" + hex16(h) + ".json";
}

std::string counterexample_filename(const ClaimRun& run) {
  return counterexample_filename(run.claim->id, *run.worst_instance, run.variant);
}

Instance instance_from_json(const nlohmann::json& inst, const std::string& where) {
  Instance out;
  try {
    out.family = inst.at("family").get<std::string>();
    for (const auto& [k, v] : inst.at("params").items()) out.params[k] = exact_number(v, where + ": parameter " + k);
    if (inst.at("matrices").size() > kMaxCounterexampleMatrices)
      throw DataError(where + ": " + std::to_string(inst.at("matrices").size()) + " matrices (at most " +
                      std::to_string(kMaxCounterexampleMatrices) + ")");
    long long entries = 0;
    for (const auto& [name, m] : inst.at("matrices").items()) {
      const std::string label = where + ": matrix " + quote_for_message(name);
      const long long rows = integer_field(m, "rows", 0, kMaxCounterexampleDimension, label),
                      cols = integer_field(m, "cols", 0, kMaxCounterexampleDimension, label);
      entries += rows * cols;
      if (entries > kMaxCounterexampleEntries)
        throw DataError(where + ": more than " + std::to_string(kMaxCounterexampleEntries) + " matrix entries in all");
      const nlohmann::json& data = m.at("data");
      if (!data.is_array() || static_cast<long long>(data.size()) != rows * cols)
        throw DataError(label + " needs " + std::to_string(rows * cols) + " entries");
      MatD mat(rows, cols);
      for (long long r = 0; r < rows; ++r)
        for (long long col = 0; col < cols; ++col)
          mat(r, col) = exact_number(data[static_cast<std::size_t>(r * cols + col)], label + " entry");
      out.matrices[name] = std::move(mat);
    }
  } catch (const nlohmann::json::exception& e) {
    throw DataError(where + ": missing or mistyped instance field (" + std::string(e.what()).substr(0, 80) + ")");
  }
  return out;
}

namespace {

// The whole of a JSON file of at most kMaxCounterexampleBytes; DataError naming the file otherwise.
nlohmann::json read_json_file(const std::filesystem::path& path, const char* what) {
  const std::string where = path.string();
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(path, ec);
  if (!ec && bytes > kMaxCounterexampleBytes)
    throw DataError(where + ": " + std::to_string(bytes) + " bytes; a " + what + " has at most " + std::to_string(kMaxCounterexampleBytes));
  std::ifstream in(path);
  if (!in) throw DataError("cannot read " + std::string(what) + " '" + where + "'");
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw DataError(where + ": not JSON (" + std::string(e.what()).substr(0, 80) + ")");
  }
}

}  // namespace

nlohmann::json instance_file_json(const Instance& inst) {
  return {{"format", "thmcheck-instance"}, {"version", kInstanceFileVersion}, {"instance", instance_exact_json(inst)}};
}

Instance read_instance_file(const std::filesystem::path& path) {
  const std::string where = path.string();
  const nlohmann::json j = read_json_file(path, "instance file");
  if (!j.is_object()) throw DataError(where + ": not a thmcheck instance (a JSON object with format, version, instance)");
  const nlohmann::json format = j.value("format", nlohmann::json());
  if (format == "thmcheck-counterexample") return counterexample_from_json(j, where).instance;
  if (format != "thmcheck-instance") throw DataError(where + ": not a thmcheck instance or counterexample (format)");
  const nlohmann::json version = j.value("version", nlohmann::json());
  if (version != kInstanceFileVersion) throw DataError(where + ": unsupported version " + quote_for_message(version.dump()));
  if (!j.contains("instance")) throw DataError(where + ": no instance");
  return instance_from_json(j.at("instance"), where);
}

Counterexample read_counterexample(const std::filesystem::path& path) {
  return counterexample_from_json(read_json_file(path, "counterexample file"), path.string());
}

Counterexample counterexample_from_json(const nlohmann::json& j, const std::string& where) {
  try {
    if (j.value("format", "") != "thmcheck-counterexample") throw DataError(where + ": not a thmcheck counterexample (format)");
    if (j.value("version", 0) != kCounterexampleVersion)
      throw DataError(where + ": unsupported version " + quote_for_message(j.value("version", nlohmann::json(0)).dump()));
    Counterexample c;
    c.claim = j.at("claim").get<std::string>();
    bool known = false;
    for (const Claim& k : all_claims()) known = known || k.id == c.claim;
    if (!known) throw DataError(where + ": unknown claim " + quote_for_message(c.claim));
    const std::string variant = j.at("variant").get<std::string>();
    if (variant != "claim" && variant != "negative-control") throw DataError(where + ": variant must be claim or negative-control");
    c.variant = variant == "claim" ? Variant::claim : Variant::negative_control;
    if (!j.at("seed").is_number_unsigned() && !(j.at("seed").is_number_integer() && j.at("seed").get<long long>() >= 0))
      throw DataError(where + ": seed must be a whole number in [0, 2^64 - 1], got " + quote_for_message(j.at("seed").dump()));
    c.seed = j.at("seed").get<std::uint64_t>();
    c.case_index = static_cast<int>(integer_field(j, "case", -1, 100000, where));
    c.cases = static_cast<int>(integer_field(j, "cases", 0, 100000, where));
    c.precision = j.at("precision").get<std::string>();
    c.instance = instance_from_json(j.at("instance"), where);
    return c;
  } catch (const nlohmann::json::exception& e) {
    throw DataError(where + ": missing or mistyped field (" + std::string(e.what()).substr(0, 80) + ")");
  }
}

}  // namespace thm
