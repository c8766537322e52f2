#include "reports/fault_matrix_json.hpp"

#include <nlohmann/json.hpp>

namespace thm {

std::string fault_matrix_json(const FaultMatrix& m) {
  using nlohmann::json;
  json out;
  out["seed"] = m.seed;
  json precisions = json::array();
  for (Precision p : m.precisions) precisions.push_back(std::string(precision_name(p)));
  out["precisions"] = precisions;
  out["cases"] = m.cases ? json(*m.cases) : json("default: a quarter of each claim's budget, 1 to 10");
  json claims = json::array();
  for (const Claim* c : m.claims) claims.push_back(c->id);
  out["claims"] = claims;
  json unexpected = json::array();
  for (const FaultCell& cell : m.baseline) {
    if (cell.as_expected()) continue;
    json u{{"id", cell.claim->id}};
    if (cell.verdict) u["verdict"] = std::string(to_string(*cell.verdict));
    else u["exception"] = cell.exception;
    unexpected.push_back(u);
  }
  out["baseline_unexpected"] = unexpected;
  json faults = json::array();
  for (const FaultOutcome& f : m.faults) {
    json caught = json::array(), exceptions = json::array();
    for (const Claim* c : f.caught_by) caught.push_back(c->id);
    for (const FaultCell& cell : f.cells)
      if (!cell.verdict) exceptions.push_back({{"id", cell.claim->id}, {"what", cell.exception}});
    faults.push_back({{"name", std::string(f.fault.name)},
                      {"where", std::string(f.fault.where)},
                      {"description", std::string(f.fault.description)},
                      {"caught_by", caught},
                      {"exceptions", exceptions}});
  }
  out["faults"] = faults;
  out["caught"] = m.caught();
  out["total"] = static_cast<int>(m.faults.size());
  return out.dump(2) + "\n";
}

}  // namespace thm
