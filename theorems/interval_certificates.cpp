#include "theorems/interval_certificates.hpp"

#include "numerics/interval.hpp"
#include "theorems/certify.hpp"
#include "theorems/qin_instance.hpp"
#include "theorems/qin_softmax.hpp"

#include <cstdio>
#include <limits>

namespace thm {

namespace {


// The working precision's epsilon, 2^(1 - bits), as an exact interval.
// The attention block of a one-sample [Q] instance on intervals: K, S, X W_V, A = S X W_V, Z = A + beta X.
struct IntervalAttention {
  IMat X, WV, K, S, XV, A, Z;
  mpfi_dynamic beta;
};
IntervalAttention interval_attention(const Instance& inst) {
  const QAttentionShape shape = qin_attention_shape(inst);
  if (shape.n != 1) throw InstanceError("the interval evaluation takes one sample");
  IntervalAttention a;
  a.X = to_interval(inst.matrix("X0"));
  const IMat WQ = to_interval(inst.matrix("W_Q")), WK = to_interval(inst.matrix("W_K"));
  a.WV = to_interval(inst.matrix("W_V"));
  const mpfi_dynamic c = mpfi_dynamic(inst.param("c"));
  a.beta = mpfi_dynamic(inst.param("beta"));
  const IMat XQ = a.X * WQ, XK = a.X * WK;
  a.K = c * IMat(XQ * XK.transpose());
  a.S = interval_softmax_rows(a.K);
  a.XV = a.X * a.WV;
  a.A = a.S * a.XV;
  a.Z = a.A + a.beta * a.X;
  return a;
}

// [max_jk lower|K_jk|, max_jk upper|K_jk|]: encloses max_jk |K_jk| over the box.
mpfi_dynamic enclose_max_abs(const IMat& k) {
  mpfr_dynamic lo = 0, hi = 0;
  for (Eigen::Index i = 0; i < k.rows(); ++i)
    for (Eigen::Index j = 0; j < k.cols(); ++j) {
      const mpfi_dynamic a = abs(k(i, j));
      if (lower(a) > lo) lo = lower(a);
      if (upper(a) > hi) hi = upper(a);
    }
  return make_interval(lo, hi);
}

}  // namespace

Certification certify_rank_collapse(const Instance& inst, int digits, Variant variant) {
  const IntervalPrecision guard(static_cast<unsigned>(digits));
  const IntervalAttention a = interval_attention(inst);
  const Eigen::Index N = a.X.rows();
  Certification out;
  if (std::min(a.X.rows(), a.X.cols()) < 2) {
    out.verdict = CertifiedVerdict::discarded;
    out.note = "min(N, d) < 2: sigma_2(A) does not exist";
    return out;
  }
  const SingularValueEnclosure sA = enclose_singular_values(a.A);
  std::vector<CertifiedCondition> conds;
  // (a) rank(A) <= 1 means sigma_2(A) = 0 exactly: an enclosure containing 0 never certifies it (reported).
  if (inst.param("row_constant_logits") != 0.0) conds.push_back(certify_le("(a) sigma_2(A) <= 0  [rank(A) <= 1]", sA.sigma[1], mpfi_dynamic(0)));
  mpfi_dynamic bound = exp(mpfi_dynamic(2) * enclose_max_abs(a.K)) - mpfi_dynamic(1);
  if (variant == Variant::negative_control) bound /= mpfi_dynamic(kRankCollapseBrokenFactor);
  IMat E = a.S;
  for (Eigen::Index i = 0; i < N; ++i)
    for (Eigen::Index j = 0; j < N; ++j) E(i, j) -= mpfi_dynamic(1) / mpfi_dynamic(N);
  conds.push_back(certify_le("(b) ||S - 11^T/N||_2 <= exp(2 eps) - 1", enclose_spectral_norm(E), bound));
  conds.push_back(certify_le("(b) sigma_2(A) <= (exp(2 eps) - 1) ||X W_V||_2", sA.sigma[1], mpfi_dynamic(bound * enclose_spectral_norm(a.XV))));
  return combine(std::move(conds), "interval softmax and products; singular values by a posteriori enclosure (Weyl)");
}

Certification certify_weyl_interlacing(const Instance& inst, int digits, Variant variant) {
  const IntervalPrecision guard(static_cast<unsigned>(digits));
  const IntervalAttention a = interval_attention(inst);
  const SingularValueEnclosure sZ = enclose_singular_values(a.Z), sX = enclose_singular_values(a.X), sA = enclose_singular_values(a.A);
  const int p = static_cast<int>(sZ.sigma.size());
  Certification out;
  // Hypothesis: some claimed bound beta sigma_{k+j}(X) - sigma_{j+1}(A) is positive (else trivially true).
  bool informative = false, maybe_informative = false;
  std::vector<CertifiedCondition> conds;
  for (int k = 1; k <= p; ++k)
    for (int j = 0; k + j <= p; ++j) {
      const mpfi_dynamic claimed = a.beta * sX.sigma[k + j - 1] - sA.sigma[j];
      informative = informative || lower(claimed) > 0;
      maybe_informative = maybe_informative || upper(claimed) > 0;
      if (variant == Variant::negative_control && j == 0) continue;
      const int x_index = variant == Variant::claim ? k + j : k;
      conds.push_back(certify_le("sigma_" + std::to_string(k) + "(Z) >= beta sigma_" + std::to_string(x_index) + "(X) - sigma_" +
                                     std::to_string(j + 1) + "(A)",
                                 mpfi_dynamic(a.beta * sX.sigma[x_index - 1] - sA.sigma[j]), sZ.sigma[k - 1]));
    }
  if (!maybe_informative) {
    out.verdict = CertifiedVerdict::discarded;
    out.note = "every bound beta sigma_{k+j}(X) - sigma_{j+1}(A) is certified <= 0: trivially true";
    return out;
  }
  if (!informative) {
    out.note = "no bound is certified positive: the hypothesis is not certified at this precision";
    return out;
  }
  return combine(std::move(conds), "interval softmax and products; singular values by a posteriori enclosure (Weyl)");
}

Certification certify_sigma_min_lower_bound(const Instance& inst, int digits, Variant variant) {
  const IntervalPrecision guard(static_cast<unsigned>(digits));
  const IntervalAttention a = interval_attention(inst);
  const IMat& X = a.X;
  const IMat& Z = a.Z;
  const IMat& S = a.S;
  const IMat& WV = a.WV;
  const mpfi_dynamic& beta = a.beta;
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
