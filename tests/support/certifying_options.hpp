// The run options of the certification tests: double only, certificates of the reported cases, no tightness probe,
// one fixed seed; `cases` -1 for the claim's default cases.
#pragma once

#include "properties/runner.hpp"

namespace thm::test {

inline RunOptions certifying(Variant v, int cases) {
  RunOptions o;
  o.precisions = {Precision::float64};
  o.cases = cases;
  o.seed = 20261203;
  o.variant = v;
  o.certify = CertifyScope::reported;
  o.tightness_probe = false;
  return o;
}

}  // namespace thm::test
