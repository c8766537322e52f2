// The claims not yet moved to one file each: the old catalogue's entries, kept until every claim has its
// own file (theorems/register_claim.hpp).
#pragma once

#include "theorems/register_claim.hpp"

#include <functional>
#include <string>
#include <vector>

namespace thm::legacy {


// Dispatch a templated evaluate<T> over the precision ladder.
template <Evaluation (*F64)(const Instance&, Variant), Evaluation (*F50)(const Instance&, Variant),
          Evaluation (*F100)(const Instance&, Variant)>
Evaluation by_precision(const Instance& inst, Precision p, Variant v) {
  switch (p) {
    case Precision::float64: return F64(inst, v);
    case Precision::mp50: return F50(inst, v);
    case Precision::mp100: return F100(inst, v);
  }
  throw std::invalid_argument("unknown precision");
}

#define THM_BY_PRECISION(f) by_precision<&f<double>, &f<mp50>, &f<mp100>>
#define THM_EVALUATORS(f) THM_BY_PRECISION(f), at_digits<&f<mpfr_dynamic>>

template <Evaluation (*F)(const Instance&, Variant)>
Evaluation at_digits(const Instance& inst, int digits, Variant v) {
  const DigitsGuard guard(digits);
  return F(inst, v);
}

using Generator = std::function<Instance(ChoiceSource&)>;
using Evaluator = std::function<Evaluation(const Instance&, Precision, Variant)>;
using DigitsEvaluator = std::function<Evaluation(const Instance&, int, Variant)>;

// One catalogue entry; the optional knobs (support, MP prefix) are set by the caller.
inline Claim entry(const char* id, Provenance provenance, ClaimKind kind, std::string statement, std::string negative_control,
            int default_cases, Generator generate, Evaluator evaluate, DigitsEvaluator evaluate_digits) {
  Claim c;
  c.id = id;
  c.source = "Q";
  c.provenance = provenance;
  c.kind = kind;
  c.statement = std::move(statement);
  c.negative_control = std::move(negative_control);
  c.default_cases = default_cases;
  c.generate = std::move(generate);
  c.evaluate = std::move(evaluate);
  c.evaluate_digits = std::move(evaluate_digits);
  c.derivation = "docs/derivations/" + c.id + ".md";
  return c;
}

// A documented finding: the evidence is docs/findings/<id>.md.
inline Finding finding(const std::string& id, std::string reason) { return Finding{std::move(reason), "docs/findings/" + id + ".md"}; }


void qin_claims(std::vector<Claim>& claims);
void goel_claims(std::vector<Claim>& claims);

}  // namespace thm::legacy
