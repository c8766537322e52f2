#include "reports/fault_matrix_json.hpp"

#include "reports/atomic_write.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace thm {

namespace {

nlohmann::json ids(const std::vector<const Claim*>& claims) {
  nlohmann::json out = nlohmann::json::array();
  for (const Claim* c : claims) out.push_back(c->id);
  return out;
}

nlohmann::json unexpected(const std::vector<FaultCell>& cells) {
  nlohmann::json out = nlohmann::json::array();
  for (const FaultCell& cell : cells) {
    if (cell.as_expected()) continue;
    nlohmann::json u{{"id", cell.claim->id}};
    if (cell.verdict) u["verdict"] = std::string(to_string(*cell.verdict));
    else u["exception"] = cell.exception;
    out.push_back(u);
  }
  return out;
}

}  // namespace

std::string fault_matrix_json(const FaultMatrix& m) {
  using nlohmann::json;
  json out;
  out["seed"] = m.seed;
  json precisions = json::array();
  for (Precision p : m.precisions) precisions.push_back(std::string(precision_name(p)));
  out["precisions"] = precisions;
  out["cases"] = m.cases ? json(*m.cases) : json("default: a quarter of each claim's default cases, 1 to 10");
  out["claims"] = ids(m.claims);
  out["baseline_unexpected"] = unexpected(m.baseline);
  out["control_baseline_unexpected"] = unexpected(m.control_baseline);
  json faults = json::array();
  for (const FaultOutcome& f : m.faults) {
    json exceptions = json::array();
    for (const auto* cells : {&f.cells, &f.control_cells})
      for (const FaultCell& cell : *cells)
        if (!cell.verdict) exceptions.push_back({{"id", cell.claim->id}, {"what", cell.exception}});
    faults.push_back({{"name", std::string(f.fault.name)},
                      {"kind", std::string(to_string(f.fault.kind))},
                      {"description", std::string(f.fault.description)},
                      {"location", std::string(f.fault.location)},
                      {"written_for", std::string(f.fault.written_for)},
                      {"checks", std::string(f.fault.checks)},
                      {"reached_by", ids(f.reached_by)},
                      {"caught_by", ids(f.caught_by)},
                      {"caught_by_control", ids(f.caught_by_control)},
                      {"caught_by_general", ids(f.caught_by_general())},
                      {"exceptions", exceptions}});
  }
  out["faults"] = faults;
  out["caught"] = m.caught();
  out["total"] = static_cast<int>(m.faults.size());
  for (FaultKind k : {FaultKind::model, FaultKind::checker})
    out[std::string(to_string(k))] = {{"caught", m.caught(k)}, {"total", m.total(k)}};
  return out.dump(2) + "\n";
}

std::string fault_matrix_table(const std::string& matrix_json) {
  using nlohmann::json;
  json m;
  std::map<std::string, json> measured;
  try {
    m = json::parse(matrix_json);
    for (const json& f : m.at("faults")) measured[f.at("name").get<std::string>()] = f;
  } catch (const json::exception& e) {
    throw ReportError(std::string("not a fault matrix (thmcheck faults --out): ") + e.what());
  }
  const auto join = [](const json& list, const std::string& suffix) {
    std::string s;
    for (const json& id : list) s += (s.empty() ? "" : ", ") + ("`" + id.get<std::string>() + "`" + suffix);
    return s;
  };
  std::string out;
  try {
    std::string precisions;
    for (const json& p : m.at("precisions")) precisions += (precisions.empty() ? "" : " and ") + p.get<std::string>();
    out = "**Model faults caught: " + std::to_string(m.at("model").at("caught").get<int>()) + " of " +
          std::to_string(m.at("model").at("total").get<int>()) + "; checker faults: " + std::to_string(m.at("checker").at("caught").get<int>()) +
          " of " + std::to_string(m.at("checker").at("total").get<int>()) + "** (every fault against " + std::to_string(m.at("claims").size()) +
          " claims, seed " + std::to_string(m.at("seed").get<std::uint64_t>()) + ", " + precisions + ").";
    // A measured fault no claim caught still counts as caught by the test its `checks` names: each such test activates the
    // fault and requires its comparison to fail (FaultInfo::checks).
    int with_checks[2] = {0, 0}, measured_total[2] = {0, 0};
    for (const FaultInfo& f : all_faults()) {
      const auto it = measured.find(std::string(f.name));
      if (it == measured.end()) continue;
      const int k = f.kind == FaultKind::model ? 0 : 1;
      ++measured_total[k];
      with_checks[k] += !it->second.at("caught_by").empty() || !it->second.at("caught_by_control").empty() || !f.checks.empty();
    }
    out += " With the tests of the `checks` column as well: model faults " + std::to_string(with_checks[0]) + " of " +
           std::to_string(measured_total[0]) + ", checker faults " + std::to_string(with_checks[1]) + " of " +
           std::to_string(measured_total[1]) + ".\n\n";
  } catch (const json::exception& e) {
    throw ReportError(std::string("not a fault matrix (thmcheck faults --out): ") + e.what());
  }
  out += "| fault | kind | what it breaks | in | caught by |\n|---|---|---|---|---|\n";
  for (const FaultInfo& f : all_faults()) {
    // The files of its points (path:line, comma-separated), each once: lines move with every edit, files rarely.
    std::set<std::string> files;
    std::string loc(f.location);
    for (std::size_t at = 0; at < loc.size();) {
      const std::size_t end = std::min(loc.find(", ", at), loc.size());
      const std::string site = loc.substr(at, end - at);
      files.insert(site.substr(0, site.rfind(':')));
      at = end + 2;
    }
    std::string in;
    for (const std::string& file : files) in += (in.empty() ? "" : ", ") + ("`" + file + "`");
    std::string by;
    const auto it = measured.find(std::string(f.name));
    if (it == measured.end()) {
      by = "not measured";
    } else {
      const json& r = it->second;
      json general = json::array(), own = json::array();
      const json& general_ids = r.at("caught_by_general");
      for (const json& id : r.at("caught_by"))
        (std::find(general_ids.begin(), general_ids.end(), id) != general_ids.end() ? general : own).push_back(id);
      std::vector<std::string> parts;
      if (!general.empty()) parts.push_back(join(general, ""));
      if (!own.empty()) parts.push_back(join(own, " (written for it)"));
      if (!r.at("caught_by_control").empty()) parts.push_back(join(r.at("caught_by_control"), " (its control)"));
      for (const std::string& p : parts) by += (by.empty() ? "" : ", ") + p;
      const std::size_t n = r.at("reached_by").size();
      const std::string reached = "(reached by " + std::to_string(n) + (n == 1 ? " claim)" : " claims)");
      if (by.empty()) by = f.checks.empty() ? "**not caught** " + reached : "no claim " + reached;
    }
    if (!f.checks.empty()) by += "; caught by the " + std::string(f.checks) + " test";
    std::string description(f.description);
    for (std::size_t at = 0; (at = description.find('|', at)) != std::string::npos; at += 2) description.replace(at, 1, "\\|");
    out += "| `" + std::string(f.name) + "` | " + std::string(to_string(f.kind)) + " | " + description + " | " + in + " | " + by + " |\n";
  }
  return out;
}

}  // namespace thm
