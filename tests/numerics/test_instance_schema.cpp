// Instance schemas (numerics/instance_schema.hpp): every claim accepts what its generator draws, at every size and
// budget, and refuses, with one line naming what is wrong, each declared matrix misshapen or missing, an
// undeclared matrix, a non-integral count and a size beyond its limits.
#include "numerics/choice_source.hpp"
#include "numerics/instance_schema.hpp"
#include "numerics/random.hpp"
#include "theorems/registry.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace thm;

namespace {

InstanceSchema toy_schema() {
  InstanceSchema s("toy");
  s.integer("n", 1, 8).real("scale", 0.0);
  s.matrices([](const Instance& inst) {
    const auto n = static_cast<Eigen::Index>(inst.param("n"));
    return std::vector<MatrixShape>{{"X", n, 2}, {"W", 2, 2}};
  });
  return s;
}

Instance toy_instance(int n) {
  Instance inst;
  inst.family = "toy";
  inst.params = {{"n", double(n)}, {"scale", 1.0}, {"note", 3.5}};
  inst.matrices["X"] = MatD::Ones(n, 2);
  inst.matrices["W"] = MatD::Identity(2, 2);
  return inst;
}

// The one-line message of the InstanceError `check` throws, or "" when it accepts.
std::string refusal(const InstanceSchema& s, const Instance& inst, int digits = InstanceSchema::kReferenceDigits, bool patient = false) {
  try {
    s.check(inst, digits, patient);
  } catch (const InstanceError& e) {
    const std::string what = e.what();
    CHECK(what.find('\n') == std::string::npos);
    return what;
  }
  return "";
}

bool mentions(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("schema: a well-formed instance passes, extra parameters are allowed, extra matrices are not") {
  const InstanceSchema s = toy_schema();
  CHECK(refusal(s, toy_instance(3)).empty());
  Instance extra = toy_instance(3);
  extra.matrices["Z"] = MatD::Zero(1, 1);
  CHECK(mentions(refusal(s, extra), "matrix 'Z' (1 x 1) is not one this claim reads"));
}

TEST_CASE("schema: a misshapen matrix is named with both shapes, a missing one with its shape") {
  const InstanceSchema s = toy_schema();
  Instance bad = toy_instance(3);
  bad.matrices["X"] = MatD::Ones(4, 2);
  CHECK(mentions(refusal(s, bad), "matrix 'X' is 4 x 2, the parameters make it 3 x 2"));
  bad = toy_instance(3);
  bad.matrices.erase("W");
  CHECK(mentions(refusal(s, bad), "matrix 'W' (2 x 2) is missing"));
}

TEST_CASE("schema: counts must be integers, and every parameter within its range and finite") {
  const InstanceSchema s = toy_schema();
  Instance bad = toy_instance(3);
  bad.params["n"] = 2.7;
  CHECK(mentions(refusal(s, bad), "parameter 'n' = 2.7 must be an integer"));
  bad.params["n"] = 9;
  bad.matrices["X"] = MatD::Ones(9, 2);
  CHECK(mentions(refusal(s, bad), "parameter 'n' = 9 is outside [1, 8], the range this claim evaluates within a minute"));
  CHECK(refusal(s, bad, InstanceSchema::kReferenceDigits, true) == "");  // --patient lifts the limit on the work ...
  bad.params["n"] = 0;
  bad.matrices["X"] = MatD::Ones(0, 2);
  CHECK(mentions(refusal(s, bad, InstanceSchema::kReferenceDigits, true), "parameter 'n' = 0 is outside [1, 8]"));  // ... not the range
  bad = toy_instance(3);
  bad.params["scale"] = -1;
  CHECK(mentions(refusal(s, bad), "parameter 'scale'"));
  bad = toy_instance(3);
  bad.params.erase("scale");
  CHECK(mentions(refusal(s, bad), "no parameter 'scale'"));
  bad = toy_instance(3);
  bad.params["note"] = std::numeric_limits<double>::infinity();
  CHECK(mentions(refusal(s, bad), "parameter 'note' is not finite"));
  bad = toy_instance(3);
  bad.matrices["W"](1, 0) = std::nan("");
  CHECK(mentions(refusal(s, bad), "matrix 'W' has a NaN or infinite entry"));
  bad = toy_instance(3);
  bad.family = "other";
  CHECK(mentions(refusal(s, bad), "family 'other'"));
}

TEST_CASE("schema: above the reference digits an instance is accepted while its estimated time stays within a minute") {
  InstanceSchema s = toy_schema();
  s.seconds_at_limits(15);  // at 200 digits, n = 8 (20 entries): 15 s
  CHECK(s.largest_entries() == 8 * 2 + 4);
  const int ref = InstanceSchema::kReferenceDigits;
  CHECK(refusal(s, toy_instance(8), ref) == "");
  CHECK(refusal(s, toy_instance(8), 2 * ref) == "");  // 15 s x 4 = 60 s: still within
  CHECK(mentions(refusal(s, toy_instance(8), 3 * ref), "at " + std::to_string(3 * ref) + " digits this instance would take about 135 s"));
  CHECK(refusal(s, toy_instance(8), 3 * ref, true) == "");  // --patient
  // n = 3: 10 entries, (1/2)^1.5 of the work: 15 x 9 x 0.354 = 48 s at 600 digits.
  CHECK(refusal(s, toy_instance(3), 3 * ref) == "");
}

TEST_CASE("schema: every claim accepts what its generator draws, at sizes 0, 50 and 100 and both budgets") {
  for (const Claim& c : all_claims()) {
    CAPTURE(c.id);
    REQUIRE_FALSE(c.schema.empty());
    for (const StudyBudget budget : {StudyBudget::standard, StudyBudget::full})
      for (const int size : {0, 50, 100}) {
        Rng rng(Rng::derive(20261201, c.id, static_cast<std::uint64_t>(size)).next_u64());
        RngChoices src(rng, size, budget);
        const Instance inst = c.generate(src);
        // The full budget may draw work beyond the one-minute limits (the risk claims' grid to n = 4096): accepted
        // with --patient, and its shapes checked all the same.
        CHECK(refusal(c.schema, inst, InstanceSchema::kReferenceDigits, budget == StudyBudget::full) == "");
      }
  }
}

TEST_CASE("schema: every claim refuses each of its matrices misshapen or missing, an extra matrix and a fractional count") {
  for (const Claim& c : all_claims()) {
    CAPTURE(c.id);
    Rng rng(Rng::derive(20261201, c.id, 7).next_u64());
    RngChoices src(rng, 100);
    const Instance inst = c.generate(src);
    const std::vector<MatrixShape> shapes = c.schema.shapes(inst);
    REQUIRE_FALSE(shapes.empty());
    for (const MatrixShape& m : shapes) {
      CAPTURE(m.name);
      Instance bad = inst;
      bad.matrices[m.name] = MatD::Zero(m.rows + 1, m.cols);
      CHECK(mentions(refusal(c.schema, bad), "matrix '" + m.name + "' is " + std::to_string(m.rows + 1) + " x " + std::to_string(m.cols)));
      bad.matrices.erase(m.name);
      const std::string missing = refusal(c.schema, bad);
      CHECK(!missing.empty());
    }
    Instance extra = inst;
    extra.matrices["stray"] = MatD::Zero(2, 2);
    CHECK(mentions(refusal(c.schema, extra), "'stray'"));
    for (const char* count : {"n", "d", "N", "k"})
      if (inst.params.count(count)) {
        Instance bad = inst;
        bad.params[count] += 0.5;
        CHECK(mentions(refusal(c.schema, bad), "must be an integer"));
      }
  }
}
