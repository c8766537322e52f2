#include "reports/stability_json.hpp"

#include <nlohmann/json.hpp>

namespace thm {

std::string stability_json(const SeedSweep& sweep, const std::string& seeds, Variant variant, const std::string& precision) {
  nlohmann::json per_seed = nlohmann::json::array();
  for (std::size_t k = 0; k < sweep.seeds.size(); ++k) {
    nlohmann::json row = {{"seed", sweep.seeds[k]}, {"verdicts", nlohmann::json::object()}};
    for (std::size_t c = 0; c < sweep.claims.size(); ++c) row["verdicts"][sweep.claims[c]->id] = std::string(to_string(sweep.verdicts[k][c].verdict));
    per_seed.push_back(row);
  }
  nlohmann::json table = nlohmann::json::array();
  for (std::size_t c = 0; c < sweep.claims.size(); ++c) {
    nlohmann::json unexpected = nlohmann::json::array();
    for (const auto& [s, v] : sweep.unexpected(c)) unexpected.push_back({{"seed", s}, {"verdict", std::string(to_string(v))}});
    // The resolved expectation is the same on every seed (it depends on the budget), e.g. inconclusive when underpowered.
    table.push_back({{"id", sweep.claims[c]->id},
                     {"expected_verdict", std::string(to_string(sweep.verdicts.front()[c].expected))},
                     {"unexpected", unexpected}});
  }
  const nlohmann::json j = {{"seeds", seeds},
                            {"variant", std::string(to_string(variant))},
                            {"precision", precision},
                            {"claims", table},
                            {"per_seed", per_seed}};
  return j.dump(2) + "\n";
}

}  // namespace thm
