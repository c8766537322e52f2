// Certified verdicts (properties/certification.hpp): every claim with an interval evaluation certifies the instances
// its generator draws at sizes 0, 50 and 100 (a certified `holds`, or a certified discard where the hypotheses fail),
// and its negative control's worst case is a certified counterexample; run records the certificates of the cases it
// reports, the same for any number of jobs.
#include "properties/certification.hpp"
#include "properties/runner.hpp"
#include "reports/summary_json.hpp"
#include "theorems/registry.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

using namespace thm;

namespace {

std::vector<const Claim*> certifiable() {
  std::vector<const Claim*> out;
  for (const Claim& c : all_claims())
    if (c.certify) out.push_back(&c);
  return out;
}

RunOptions certifying(Variant v, int cases) {
  RunOptions o;
  o.precisions = {Precision::float64};
  o.cases = cases;
  o.seed = 20261203;
  o.variant = v;
  o.certify = CertifyScope::reported;
  o.tightness_probe = false;
  return o;
}

}  // namespace

TEST_CASE("certification: every certifiable claim certifies its generator's instances at sizes 0, 50 and 100") {
  REQUIRE(certifiable().size() >= 7);
  for (const Claim* c : certifiable())
    for (std::uint64_t seed : {5u, 6u})
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
    const std::vector<ClaimRun> rows = run_claim(*c, certifying(Variant::negative_control, 40));
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

TEST_CASE("certification: run certifies the reported cases, or every judged case, with the same JSON for 1 and 3 jobs") {
  const Claim& c = *select_claims("qin.pl.output_layer").front();
  RunOptions o = certifying(Variant::claim, 30);
  const ClaimRun reported = run_claim(c, o).front();
  CHECK(!reported.certifications.empty());
  CHECK(reported.certifications.size() < 30);
  o.certify = CertifyScope::all;
  const ClaimRun all1 = run_claim(c, o).front();
  CHECK(static_cast<int>(all1.certifications.size()) == all1.cases_run - all1.cases_discarded);
  CHECK(all1.cases_certified() == static_cast<int>(all1.certifications.size()));
  o.jobs = 3;
  const ClaimRun all3 = run_claim(c, o).front();
  CHECK(summary_json(o.seed, o.variant, {all1}) == summary_json(o.seed, o.variant, {all3}));
  o.certify = CertifyScope::none;
  CHECK(run_claim(c, o).front().certifications.empty());
}

TEST_CASE("certification: the precision escalates while an enclosure is too wide, and stops once decided") {
  const Claim& c = *select_claims("qin.pl.output_layer").front();
  const Instance inst = generate_case(c, 1, 10, 101);
  const CaseCertification k = certify_case(c, inst, Variant::claim, 10, 32);
  CHECK(k.decided());
  CHECK(k.attempts.size() == 1);
  CHECK(k.digits == 32);
  // At 4 digits the enclosures cannot decide a margin double resolves at 1e-16; the retries reach 16 digits.
  const CaseCertification low = certify_case(c, inst, Variant::claim, 10, 4, 3);
  CHECK(low.attempts.size() >= 1);
  CHECK(low.attempts.front().first == 4);
  for (std::size_t i = 1; i < low.attempts.size(); ++i) CHECK(low.attempts[i].first == 2 * low.attempts[i - 1].first);
}
