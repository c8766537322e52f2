// A synthetic claim for testing the machinery (runner, shrinking, tightness search): the instance carries x
// (a real choice in [lo, hi]) and, with `with_dimension`, a dimension n in [1, 9] drawn first; the condition is
// x <= 1 (x <= 0.5 for the negative control), and x < 0 is discarded.
#pragma once

#include "theorems/claim.hpp"

namespace thm::testing {

inline Claim synthetic_claim(double lo, double hi, bool with_dimension = false) {
  Claim c;
  c.id = "test.synthetic";
  c.source = "test";
  c.provenance = Provenance::derived;
  c.kind = ClaimKind::inequality;
  c.default_cases = 50;
  c.generate = [lo, hi, with_dimension](ChoiceSource& src) {
    Instance inst;
    inst.family = "test";
    if (with_dimension) inst.params["n"] = double(src.integer(1, 9));
    inst.params["x"] = src.real(lo, hi);
    return inst;
  };
  c.evaluate = [](const Instance& inst, Precision, Variant v) {
    const double x = inst.param("x");
    if (x < 0) return Evaluation::discarded("x < 0");
    Evaluation e;
    e.conditions.push_back(make_le<double>("x <= bound", x, v == Variant::claim ? 1.0 : 0.5, 1e-12));
    return e;
  };
  return c;
}

}  // namespace thm::testing
