// Certified verdicts in the run (properties/certification.hpp): run records the certificates of the cases it reports
// (or of every judged case), the same for any number of jobs; the precision escalates while undecided. The claims'
// own certificates are tested in test_claim_certificates.cpp (the optimised build: trajectories take seconds).
#include "properties/certification.hpp"
#include "properties/runner.hpp"
#include "reports/json_reports.hpp"
#include "theorems/registry.hpp"

#include "tests/support/certifying_options.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

using namespace thm;
using thm::test::certifying;

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
  CHECK(summary_json(resolve_run(o.seed, o.variant, {all1})) == summary_json(resolve_run(o.seed, o.variant, {all3})));
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
