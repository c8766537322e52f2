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
