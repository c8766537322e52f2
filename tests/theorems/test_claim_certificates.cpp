// Every claim with an interval evaluation (Claim::certify) certifies the instances its generator draws at sizes 0, 50
// and 100 (a certified `holds`, or no violation where the double evaluation discards the case). That its negative
// control's worst case is a certified counterexample (ClaimInfo::certifies_control) is checked by claim.<id>.control_caught,
// on the run it makes anyway (tests/cli/control_caught.cmake).
#include "properties/certification.hpp"
#include "properties/runner.hpp"
#include "theorems/registry.hpp"

#include <doctest/doctest.h>

#include <vector>

using namespace thm;

namespace {

std::vector<const Claim*> certifiable() {
  std::vector<const Claim*> out;
  for (const Claim& c : all_claims())
    if (c.certify) out.push_back(&c);
  return out;
}

}  // namespace

TEST_CASE("certification: every certifiable claim certifies its generator's instances at sizes 0, 50 and 100") {
  REQUIRE(certifiable().size() >= 16);
  for (const Claim* c : certifiable())
    for (std::uint64_t seed : {5u})
      for (int size : {0, 50, 100}) {
        const Instance inst = generate_case(*c, seed, size, 101);  // case i of 101 has size i
        const Evaluation e = evaluate_case(*c, inst, Precision::float64, Variant::claim);
        const CaseCertification k = certify_case(*c, inst, Variant::claim);
        INFO(c->id << ", seed " << seed << ", size " << size << ": " << to_string(k.certification.verdict) << " at " << k.digits
                   << " digits (" << k.certification.note << ")");
        if (judge(e, 1e-16).verdict == CaseVerdict::discarded) {
          CHECK(k.certification.verdict != CertifiedVerdict::violated);
          continue;
        }
        CHECK(k.certification.verdict == CertifiedVerdict::holds);
      }
}
