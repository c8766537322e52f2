#include "theorems/interval_certificates.hpp"

#include "numerics/interval.hpp"
#include "theorems/qin_instance.hpp"

#include <cstdio>
#include <limits>

namespace thm {

namespace {

// rhs - lhs >= 0 claimed: holds if certainly positive, violated if certainly negative.
CertifiedCondition certify_le(std::string name, const mpfi_dynamic& lhs, const mpfi_dynamic& rhs) {
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

Certification combine(std::vector<CertifiedCondition> conditions, std::string note) {
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

// The working precision's epsilon, 2^(1 - bits), as an exact interval.
mpfi_dynamic interval_epsilon() {
  return mpfi_dynamic(mpfr_dynamic(std::numeric_limits<mpfr_dynamic>::epsilon()));
}

}  // namespace

Certification certify_one_pass_variance(const Instance& inst, int digits, Variant variant) {
  const IntervalPrecision guard(static_cast<unsigned>(digits));
  const IMat x = to_interval(inst.matrix("x"));
  const Eigen::Index n = x.rows();
  if (x.cols() != 1 || n < 2) throw InstanceError("demo.fp.one_pass_variance needs a column of at least 2 samples");
  mpfi_dynamic sum = 0, sum_sq = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    sum += x(i, 0);
    sum_sq += x(i, 0) * x(i, 0);
  }
  const mpfi_dynamic mean = sum / mpfi_dynamic(n);
  mpfi_dynamic s2 = 0;
  for (Eigen::Index i = 0; i < n; ++i) s2 += (x(i, 0) - mean) * (x(i, 0) - mean);
  const mpfi_dynamic s1 = sum_sq - sum * sum / mpfi_dynamic(n);
  if (!(lower(s2) > 0)) {
    Certification c;
    c.note = "S2 = 0 not excluded: the hypothesis is not certified";
    return c;
  }
  const mpfi_dynamic target = variant == Variant::claim ? s2 : mpfi_dynamic(s2 * mpfi_dynamic(n) / mpfi_dynamic(n - 1));
  const mpfi_dynamic tol = sqrt(interval_epsilon()) * s2;
  return combine({certify_le(variant == Variant::claim ? "|S1 - S2| <= sqrt(eps) S2" : "|S1 - S2 n/(n-1)| <= sqrt(eps) S2",
                             abs(mpfi_dynamic(s1 - target)), tol)},
                 "MPFI arithmetic on the exact data; eps of the interval precision");
}

Certification certify_sigma_min_lower_bound(const Instance& inst, int digits, Variant variant) {
  const IntervalPrecision guard(static_cast<unsigned>(digits));
  const QAttentionShape shape = qin_attention_shape(inst);
  const IMat X = to_interval(inst.matrix("X0"));
  const IMat WQ = to_interval(inst.matrix("W_Q")), WK = to_interval(inst.matrix("W_K")), WV = to_interval(inst.matrix("W_V"));
  const mpfi_dynamic c = mpfi_dynamic(inst.param("c")), beta = mpfi_dynamic(inst.param("beta"));
  if (shape.n != 1) throw InstanceError("qin.residual.sigma_min_lower_bound takes one sample");
  const IMat XQ = X * WQ, XK = X * WK;
  const IMat K = c * IMat(XQ * XK.transpose());
  const IMat S = interval_softmax_rows(K);
  const IMat Z = IMat(S * IMat(X * WV)) + beta * X;
  const SingularValueEnclosure sZ = enclose_singular_values(Z), sX = enclose_singular_values(X);
  const mpfi_dynamic normS = enclose_spectral_norm(S), normWV = enclose_spectral_norm(WV);
  const mpfi_dynamic sigma_min_Z = sZ.sigma.back(), sigma_min_X = sX.sigma.back(), norm_X = sX.sigma.front();
  const mpfi_dynamic bound = beta * sigma_min_X - normS * norm_X * normWV;
  Certification out;
  if (upper(bound) <= 0) {
    out.verdict = CertifiedVerdict::discarded;
    out.note = "beta sigma_min(X) - ||S|| ||X|| ||W_V|| <= 0 certified: the bound is trivially true";
    return out;
  }
  if (!(lower(bound) > 0)) {
    out.note = "the hypothesis (a positive bound) is not certified at this precision";
    return out;
  }
  char residual[32];
  std::snprintf(residual, sizeof residual, "%.2e", upper_double(mpfi_dynamic(sZ.residual)));
  const std::string method = std::string("interval softmax and products; singular values by a posteriori enclosure (Weyl); ") +
                             "||Z - U S V^T||_F <= " + residual;
  std::vector<CertifiedCondition> conds;
  if (variant == Variant::claim) {
    conds.push_back(certify_le("||S||_2 <= sqrt(N)", normS, sqrt(mpfi_dynamic(X.rows()))));
    conds.push_back(certify_le("sigma_min(Z) >= beta sigma_min(X) - ||S||_2 ||X||_2 ||W_V||_2", bound, sigma_min_Z));
  } else {
    conds.push_back(certify_le("||S||_2 <= 1", normS, mpfi_dynamic(1)));
    conds.push_back(certify_le("sigma_min(Z) >= beta sigma_min(X)", mpfi_dynamic(beta * sigma_min_X), sigma_min_Z));
  }
  return combine(std::move(conds), method);
}

}  // namespace thm
