#include "properties/assess.hpp"

#include <algorithm>

namespace thm {

std::vector<ClaimAssessment> assess_instance(const Instance& inst, const std::vector<const Claim*>& claims, const AssessOptions& options,
                                             const std::function<void(const ClaimAssessment&)>& on_claim) {
  std::vector<ClaimAssessment> out;
  const int top = options.digits.empty() ? InstanceSchema::kReferenceDigits : *std::max_element(options.digits.begin(), options.digits.end());
  for (const Claim* claim : claims) {
    if (claim->schema.empty() || claim->schema.family() != inst.family) continue;
    ClaimAssessment a;
    a.claim = claim;
    try {
      claim->schema.check(inst, top, options.patient);
    } catch (const InstanceError& e) {
      a.not_applicable = e.what();
    }
    if (a.not_applicable.empty()) {
      try {
        a.ladder = explore_ladder(*claim, inst, Variant::claim, options.digits);
      } catch (const InstanceError& e) {  // something the claim reads beyond its schema; the other claims still run
        a.not_applicable = e.what();
        out.push_back(std::move(a));
        if (on_claim) on_claim(out.back());
        continue;
      }
      const bool judged = a.ladder.classification != ExploreClass::discarded;
      if (options.certify && claim->certify && judged && !oversized_for_interval(inst))
        a.certification = certify_case(*claim, inst, Variant::claim, -1, kCertifyDigits);
    }
    out.push_back(std::move(a));
    if (on_claim) on_claim(out.back());
  }
  return out;
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
