// Interval certification of a claim's conditions (Claim::certify): a condition's margin rhs - lhs, enclosed with
// MPFI (numerics/interval.hpp), is certified positive (holds), negative (violated) or neither (not certified).
#pragma once

#include "numerics/interval.hpp"
#include "theorems/claim.hpp"

#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace thm {

// The unit roundoff of the interval precision in force (IntervalPrecision).
inline mpfi_dynamic interval_epsilon() { return mpfi_dynamic(mpfr_dynamic(std::numeric_limits<mpfr_dynamic>::epsilon())); }

inline mpfi_dynamic frobenius(const IMat& m) { return sqrt(squared_frobenius(m)); }

// A certification that did not judge: the instance fails a hypothesis (certified), or the hypothesis is undecided.
inline Certification certified_discard(std::string why) {
  Certification out;
  out.verdict = CertifiedVerdict::discarded;
  out.note = std::move(why);
  return out;
}
inline Certification not_certified(std::string why) {
  Certification out;
  out.note = std::move(why);
  return out;
}

// rhs - lhs >= 0 claimed: holds if certainly positive, violated if certainly negative.
inline CertifiedCondition certify_le(std::string name, const mpfi_dynamic& lhs, const mpfi_dynamic& rhs) {
  const mpfi_dynamic margin = rhs - lhs;
  CertifiedCondition c;
  c.name = std::move(name);
  c.margin_lower = lower_double(margin);
  c.margin_upper = upper_double(margin);
  if (lower(margin) > 0)
    c.verdict = CertifiedVerdict::holds;
  else if (upper(margin) < 0)
    c.verdict = CertifiedVerdict::violated;
  return c;
}

// An identity's conditions `|difference| <= allowance` certified against the allowance its double evaluation states
// (Condition::rhs, an exact double): the enclosed exact difference, condition by condition, in order. For an identity of
// exact arithmetic the enclosure contains 0 and is far narrower than the allowance (holds); a broken identity's
// difference is certified above it (a certified counterexample).
inline std::vector<CertifiedCondition> certify_within_allowance(const Evaluation& at_double, const std::vector<mpfi_dynamic>& differences) {
  if (at_double.conditions.size() != differences.size())
    throw std::runtime_error("the interval evaluation and the double one judge different conditions");
  std::vector<CertifiedCondition> out;
  for (std::size_t i = 0; i < differences.size(); ++i)
    out.push_back(certify_le(at_double.conditions[i].name, abs(differences[i]), mpfi_dynamic(at_double.conditions[i].rhs)));
  return out;
}

inline Certification combine(std::vector<CertifiedCondition> conditions, std::string note) {
  Certification out;
  out.conditions = std::move(conditions);
  out.note = std::move(note);
  bool all_hold = !out.conditions.empty(), any_violated = false;
  for (const CertifiedCondition& c : out.conditions) {
    all_hold = all_hold && c.verdict == CertifiedVerdict::holds;
    any_violated = any_violated || c.verdict == CertifiedVerdict::violated;
  }
  out.verdict = any_violated ? CertifiedVerdict::violated : all_hold ? CertifiedVerdict::holds : CertifiedVerdict::not_certified;
  return out;
}

}  // namespace thm
