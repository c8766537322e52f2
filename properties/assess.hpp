// One instance from outside the suite (a user's weights and data: thmcheck assess, thmcheck.assess in Python) judged by
// every claim that reads its family: the claim's schema first (a claim whose limits or parameters the instance does not
// meet says why it does not apply), then the precision ladder of `explore` (properties/explore.hpp) and, where the
// claim has an interval evaluation, its certificate (properties/certification.hpp).
#pragma once

#include "properties/certification.hpp"
#include "properties/explore.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace thm {

struct AssessOptions {
  std::vector<int> digits{50, 100};  // the rungs above double, in decimal digits
  bool certify = true;               // the interval certificate, where the claim has one
  bool patient = false;              // lift the claims' limits on the work (InstanceSchema::check), never the shapes
};

struct ClaimAssessment {
  const Claim* claim = nullptr;
  std::string not_applicable;  // the schema's one-line refusal; empty when the claim judged the instance
  ExploreResult ladder;
  std::optional<CaseCertification> certification;  // certify asked for, the claim certifiable and the instance judged
};

// The claims of `claims` whose schema reads inst.family, in order; each assessed as above, `on_claim` called as each
// is done (progress on long ladders). A claim that refuses the instance (its schema, or a parameter it reads beyond it:
// InstanceError) does not apply and the others still run. std::invalid_argument, before any work, when no claim of
// `claims` reads the family.
std::vector<ClaimAssessment> assess_instance(const Instance& inst, const std::vector<const Claim*>& claims, const AssessOptions& options,
                                             const std::function<void(const ClaimAssessment&)>& on_claim = {});

// How many of `assessments` applied and came out `c`.
std::size_t count(const std::vector<ClaimAssessment>& assessments, ExploreClass c);

std::string_view to_string(ExploreClass c);

}  // namespace thm
