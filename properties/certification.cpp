#include "properties/certification.hpp"

#include "numerics/instance.hpp"

#include <stdexcept>

namespace thm {

CaseCertification certify_case(const Claim& claim, const Instance& inst, Variant variant, int index, int digits, int attempts) {
  if (!claim.certify) throw std::logic_error("certify_case: " + claim.id + " has no interval evaluation");
  CaseCertification out;
  out.index = index;
  for (int attempt = 0; attempt < attempts && (attempt == 0 || digits <= kCertifyMaxDigits); ++attempt, digits *= 2) {
    Certification cert;
    try {
      cert = claim.certify(inst, digits, variant);
    } catch (const InstanceError&) {
      throw;
    } catch (const std::exception& e) {  // e.g. "approximate SVD too inaccurate to certify"
      cert = Certification{};
      cert.note = e.what();
    }
    out.digits = digits;
    out.certification = cert;
    out.attempts.emplace_back(digits, std::move(cert));
    if (out.decided() || out.certification.verdict == CertifiedVerdict::discarded) break;
  }
  return out;
}

}  // namespace thm
