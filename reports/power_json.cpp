#include "reports/power_json.hpp"

#include <nlohmann/json.hpp>

#include <cmath>

namespace thm {

namespace {
// JSON has no infinity: +inf (no factor catches it) becomes the string "inf".
nlohmann::ordered_json number(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return x;
}
}  // namespace

std::string power_json(const std::vector<ClaimPower>& results, const PowerOptions& options) {
  nlohmann::ordered_json j;
  j["seeds"] = options.seeds;
  std::vector<std::string> precisions;
  for (Precision p : options.run.precisions) precisions.emplace_back(precision_name(p));
  j["precisions"] = precisions;
  j["resolving_power"] = kResolvingPower;
  j["control_power"] = kControlPower;
  nlohmann::ordered_json claims = nlohmann::ordered_json::array();
  for (const ClaimPower& p : results) {
    nlohmann::ordered_json c;
    c["id"] = p.claim->id;
    c["status"] = p.status;
    c["knob"] = p.knob;
    if (p.status == "measured") {
      c["tightness"] = number(p.tightness);
      c["resolving_factor"] = number(p.resolving_factor);
      c["factor_0999"] = number(p.factor_999);
      c["judged_per_run"] = p.judged_per_run;
      nlohmann::ordered_json runs = nlohmann::ordered_json::array();
      for (double t : p.run_tightness) runs.push_back(number(t));
      c["run_tightness"] = runs;
      nlohmann::ordered_json grid = nlohmann::ordered_json::array();
      for (const PowerPoint& g : p.grid) grid.push_back({{"factor", g.factor}, {"power", g.power}, {"seeds_caught", g.seeds_caught}});
      c["grid"] = grid;
      if (p.control_factor > 0) c["control"] = {{"factor", p.control_factor}, {"power", p.control_power}};
    }
    claims.push_back(c);
  }
  j["claims"] = claims;
  return j.dump(1) + "\n";
}

}  // namespace thm
