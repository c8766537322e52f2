#include "reports/assess_json.hpp"

#include "reports/json_number.hpp"

namespace thm {

namespace {

using Json = nlohmann::ordered_json;

Json assess_number(double x) { return json_number<Json>(x); }

Json rung_json(const ExploreRung& r) {
  Json j;
  j["precision"] = r.name;
  j["digits"] = r.digits;
  j["verdict"] = std::string(to_string(r.outcome.verdict));
  j["condition"] = r.condition;  // the worst condition, or the hypothesis that failed
  const bool judged = r.outcome.worst_condition >= 0;
  j["measured"] = judged ? Json(r.measured) : Json();
  j["relation"] = judged ? Json(r.ge ? ">=" : "<=") : Json();
  j["bound"] = judged ? Json(r.bound) : Json();
  j["margin"] = judged ? assess_number(r.margin) : Json();
  j["agreeing_digits"] = r.agreeing_digits ? assess_number(*r.agreeing_digits) : Json();
  return j;
}

}  // namespace

Json assess_json(const Instance& inst, const std::vector<ClaimAssessment>& assessments) {
  Json doc;
  doc["family"] = inst.family;
  Json claims = Json::array();
  for (const ClaimAssessment& a : assessments) {
    Json c;
    c["id"] = a.claim->id;
    c["applicable"] = a.not_applicable.empty();
    if (!a.not_applicable.empty()) {
      c["not_applicable"] = a.not_applicable;
      claims.push_back(std::move(c));
      continue;
    }
    c["classification"] = std::string(to_string(a.ladder.classification));
    Json rungs = Json::array();
    for (const ExploreRung& r : a.ladder.rungs) rungs.push_back(rung_json(r));
    c["rungs"] = std::move(rungs);
    Json quantities = Json::array();
    for (const QuantityRow& q : quantity_table(a.ladder, std::size_t(-1))) {
      Json values = Json::array();
      for (const std::optional<double>& v : q.values) values.push_back(v ? assess_number(*v) : Json());
      quantities.push_back({{"name", q.name}, {"values", std::move(values)}});
    }
    c["quantities"] = std::move(quantities);
    if (a.certification) {
      const CaseCertification& cert = *a.certification;
      Json conditions = Json::array();
      for (const CertifiedCondition& k : cert.certification.conditions)
        conditions.push_back({{"name", k.name},
                              {"margin_lower", assess_number(k.margin_lower)},
                              {"margin_upper", assess_number(k.margin_upper)},
                              {"verdict", std::string(to_string(k.verdict))}});
      c["certification"] = {{"verdict", std::string(to_string(cert.certification.verdict))},
                            {"digits", cert.digits},
                            {"note", cert.certification.note},
                            {"conditions", std::move(conditions)}};
    }
    claims.push_back(std::move(c));
  }
  doc["claims"] = std::move(claims);
  return doc;
}

}  // namespace thm
