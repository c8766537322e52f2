// Interval certification of reported cases (Claim::certify): the claim's conditions enclosed in MPFI for the real
// numbers the instance defines, at the interval precision where the enclosures decide them. `run` certifies the
// cases it reports (the worst case, the ladder's cases), `--certify all` every judged case; `explore --interval` one
// instance (docs/verdicts.md, "Certified verdicts").
#pragma once

#include "theorems/claim.hpp"

#include <utility>
#include <vector>

namespace thm {

// The first interval precision tried, in decimal digits: twice double's, so that a margin double resolves is not lost
// to the enclosures' own rounding. Each retry doubles it.
inline constexpr int kCertifyDigits = 32;
inline constexpr int kCertifyAttempts = 3;
inline constexpr int kCertifyMaxDigits = 2000;

struct CaseCertification {
  int index = 0;  // the case (-1: an instance from outside a run)
  int digits = 0;  // the precision of the last attempt
  Certification certification;
  // Every attempt (digits, outcome), in order: the precision escalates while the outcome is not_certified.
  std::vector<std::pair<int, Certification>> attempts;
  bool decided() const {
    return certification.verdict == CertifiedVerdict::holds || certification.verdict == CertifiedVerdict::violated;
  }
};

// claim.certify at `digits`, then at twice and four times as many (retries up to kCertifyMaxDigits) while it is not
// certified. A computation that cannot certify (an approximate factorisation too inaccurate, a hypothesis the interval
// evaluation cannot settle) is `not certified` with the reason in the note; an InstanceError propagates (bad input).
// Precondition: claim.certify is set.
CaseCertification certify_case(const Claim& claim, const Instance& inst, Variant variant, int index = -1,
                               int digits = kCertifyDigits, int attempts = kCertifyAttempts);

}  // namespace thm
