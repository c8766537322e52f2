#include "properties/assess.hpp"

#include <algorithm>
#include <stdexcept>

namespace thm {

std::vector<ClaimAssessment> assess_instance(const Instance& inst, const std::vector<const Claim*>& claims, const AssessOptions& options,
                                             const std::function<void(const ClaimAssessment&)>& on_claim) {
  const auto reads = [&](const Claim* c) { return !c->schema.empty() && c->schema.family() == inst.family; };
  if (std::none_of(claims.begin(), claims.end(), reads))
    throw std::invalid_argument("no selected claim reads instances of family '" + inst.family + "'");
  std::vector<ClaimAssessment> out;
  const int top = options.digits.empty() ? InstanceSchema::kReferenceDigits : *std::max_element(options.digits.begin(), options.digits.end());
  for (const Claim* claim : claims) {
    if (!reads(claim)) continue;
    ClaimAssessment a;
    a.claim = claim;
    try {
      claim->schema.check(inst, top, options.patient);
      a.ladder = explore_ladder(*claim, inst, Variant::claim, options.digits);
    } catch (const InstanceError& e) {  // the schema's refusal, or something the claim reads beyond it
      a.not_applicable = e.what();
    }
    if (a.not_applicable.empty() && options.certify && claim->certify && a.ladder.classification != ExploreClass::discarded &&
        !oversized_for_interval(inst))
      a.certification = certify_case(*claim, inst, Variant::claim, -1, kCertifyDigits);
    out.push_back(std::move(a));
    if (on_claim) on_claim(out.back());
  }
  return out;
}

std::size_t count(const std::vector<ClaimAssessment>& assessments, ExploreClass c) {
  return static_cast<std::size_t>(std::count_if(assessments.begin(), assessments.end(), [&](const ClaimAssessment& a) {
    return a.not_applicable.empty() && a.ladder.classification == c;
  }));
}

std::string_view to_string(ExploreClass c) {
  switch (c) {
    case ExploreClass::discarded: return "discarded";
    case ExploreClass::genuine: return "genuine";
    case ExploreClass::rounding_artifact: return "rounding_artifact";
    case ExploreClass::holds: return "holds";
    case ExploreClass::undecided: break;
  }
  return "undecided";
}

}  // namespace thm
