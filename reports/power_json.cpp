#include "reports/power_json.hpp"
#include "reports/json_number.hpp"

#include <nlohmann/json.hpp>

namespace thm {

namespace {
nlohmann::ordered_json power_number(double x) { return json_number<nlohmann::ordered_json>(x); }
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
    // An empirical trend's named alternative and a default run's power against it (computed from the registry).
    if (p.claim->alternative_support > 0)
      c["alternative"] = {{"support", p.claim->alternative_support}, {"power", power_number(alternative_power(*p.claim))}};
    if (p.status == "measured") {
      c["strength"] = power_number(p.strength);
      c["resolving_factor"] = power_number(p.resolving_factor);
      c["factor_0999"] = power_number(p.factor_999);
      c["judged_per_run"] = p.judged_per_run;
      nlohmann::ordered_json runs = nlohmann::ordered_json::array();
      for (double t : p.run_strength) runs.push_back(power_number(t));
      c["run_strength"] = runs;
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
