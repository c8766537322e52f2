// Every claim with an interval evaluation (Claim::certify) certifies the instances its generator draws at sizes 0, 50
// and 100 (a certified `holds`, or no violation where the double evaluation discards the case), and its negative
// control's worst case at its default budget (where the control's power is at least 0.999) is a certified counterexample
// (where the claim certifies its control: ClaimInfo::certifies_control).
#include "properties/certification.hpp"
#include "properties/runner.hpp"
#include "theorems/registry.hpp"

#include "tests/certifying_options.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

using namespace thm;
using thm::test::certifying;

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

TEST_CASE("certification: every certifiable claim's negative control has a certified counterexample as its worst case") {
  for (const Claim* c : certifiable()) {
    if (!c->certifies_control) continue;  // the claim only (its derivation says why)
    const std::vector<ClaimRun> rows = run_claim(*c, certifying(Variant::negative_control, -1));  // the default budget: the control's power >= 0.999
    REQUIRE(rows.size() == 1);
    const ClaimRun& r = rows.front();
    INFO(c->id);
    REQUIRE(r.worst_case);
    const auto it = std::find_if(r.certifications.begin(), r.certifications.end(),
                                 [&](const CaseCertification& k) { return k.index == *r.worst_case; });
    REQUIRE(it != r.certifications.end());
    INFO("worst case " << *r.worst_case << ": " << it->certification.note);
    CHECK(it->certification.verdict == CertifiedVerdict::violated);
  }
}

