// qin.residual.weyl_interlacing (derived; docs/derivations/qin.residual.weyl_interlacing.md)
//
// The residual connection Z = A + beta X of the attention block, p = min(N, d):
//   sigma_k(Z) >= beta sigma_{k+j}(X) - sigma_{j+1}(A)  for k >= 1, j >= 0, k + j <= p.
// Hypothesis: some claimed bound is positive beyond the noise (else the case is trivially true and discarded).
// Negative control: the index shift dropped, sigma_k(Z) >= beta sigma_k(X) - sigma_{j+1}(A), j >= 1.
#include "numerics/interval.hpp"
#include "theorems/certify.hpp"
#include "theorems/qin/attention_cases.hpp"
#include "theorems/qin/attention_noise.hpp"
#include "theorems/qin/interval_attention.hpp"
#include "numerics/models/qin/attention_instance.hpp"
#include "theorems/register_claim.hpp"

#include <cmath>
#include <algorithm>
#include <string>

namespace thm::qin {

struct WeylInterlacing {
  static ClaimInfo info() {
    return {
        .id = "qin.residual.weyl_interlacing",
        .source = "Q",
        .provenance = Provenance::derived,
        .kind = ClaimKind::inequality,
        .statement = "sigma_k(Z) >= beta sigma_{k+j}(X) - sigma_{j+1}(A) for k >= 1, j >= 0, k + j <= min(N, d)",
        .negative_control = "the index shift dropped: sigma_k(Z) >= beta sigma_k(X) - sigma_{j+1}(A) for j >= 1",
        .default_cases = 200,
        .resolving_factor = 1,  // thmcheck power --claims qin.residual.weyl_interlacing --seeds 1..20
    };
  }

  // The instances it reads (numerics/instance_schema.hpp): what the generator below draws.
  static InstanceSchema schema() {
    return qin_attention_schema(1, kAttentionDimCap);
  }
  static Instance generate(ChoiceSource& src) {
    QAttentionSpec s;
    s.N = sized_dimension(src, 2, kAttentionDimCap);
    s.d = sized_dimension(src, 2, kAttentionDimCap);
    s.beta = src.coin(0.2) ? 1.0 : src.real(0.0, 1.0);
    draw_x_spectrum(src, s);
    s.logit_max = src.log_real(1e-6, 30.0);
    // W_V = 0 makes A = 0 and the j = 0 inequalities equalities: the tight boundary.
    s.wv_norm = src.coin(0.1) ? 0.0 : src.log_real(1e-3, 10.0);
    s.wv_kappa = src.log_real(1.0, 100.0);
    s.entropy = src.entropy();
    return build_qin_attention(s);
  }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant variant) {
    const QAttention<T> q = lift_qin_attention<T>(inst);
    const Mat<T>& X = q.X[0];
    const AttentionForward<T> f = attention_forward(X, q.w, q.beta);
    const detail::AttentionNoise<T> noise = detail::attention_noise(X, q.w, q.beta, f);
    const Vec<T> sZ = singular_values(f.Z), sX = singular_values(X), sA = singular_values(f.A);
    using std::abs;
    const T nZ = detail::singular_value_noise(f.Z, sZ(0), noise.dZ);
    const T nA = detail::singular_value_noise(f.A, sA(0), noise.dA);
    const T nX = abs(q.beta) * singular_value_error_bound<T>(X.rows(), X.cols(), sX(0));
    const int p = static_cast<int>(sZ.size());

    const T bound_noise = nZ + nX + nA;
    Evaluation e;
    bool informative = false;  // some claimed lower bound is positive beyond the noise
    // 1-based k, j as in the statement; the vectors are 0-based.
    for (int k = 1; k <= p; ++k)
      for (int j = 0; k + j <= p; ++j) {
        informative = informative || q.beta * sX(k + j - 1) - sA(j) > bound_noise;
        if (variant == Variant::negative_control && j == 0) continue;
        const int x_index = variant == Variant::claim ? k + j : k;  // the broken variant drops the shift
        const T lhs = q.beta * sX(x_index - 1) - sA(j);
        e.conditions.push_back(make_ge<T>("sigma_" + std::to_string(k) + "(Z) >= beta sigma_" + std::to_string(x_index) +
                                              "(X) - sigma_" + std::to_string(j + 1) + "(A)",
                                          sZ(k - 1), lhs, bound_noise));
      }
    // Hypothesis (shared by the claim and its control): a case whose every claimed bound is <= 0 is
    // trivially true and says nothing; it is discarded, never counted as a pass.
    if (!informative) return Evaluation::discarded("every bound beta sigma_{k+j}(X) - sigma_{j+1}(A) is <= noise: trivially true");
    if (e.conditions.empty()) return Evaluation::discarded("no index pair (k, j) in range");
    e.observations = {{"kappa(Z)", to_double(condition_number(sZ))},
                      {"kappa(X)", to_double(condition_number(sX))},
                      {"sigma_1(A)", to_double(sA(0))}};
    return e;
  }

  // The same block on intervals; singular values by a posteriori enclosure (Weyl).
  static Certification certify(const Instance& inst, int digits, Variant variant) {
    const IntervalPrecision guard(static_cast<unsigned>(digits));
    const IntervalAttention a = interval_attention(inst);
    const SingularValueEnclosure sZ = enclose_singular_values(a.Z), sX = enclose_singular_values(a.X),
                                 sA = enclose_singular_values(a.A);
    const int p = static_cast<int>(sZ.sigma.size());
    // W_V = 0 exactly (the generator's tight boundary): A = 0 and Z = beta X exactly, so sigma_k(Z) = beta sigma_k(X) >=
    // beta sigma_{k+j}(X) = the bound, for beta >= 0: proved without arithmetic (the j = 0 cases are equalities, which no
    // enclosure can certify). The margin beta (sigma_k(X) - sigma_{k+j}(X)) is reported, never below 0.
    if (inst.matrix("W_V").isZero(0.0) && lower(a.beta) >= 0) {
      std::vector<CertifiedCondition> exact;
      for (int k = 1; k <= p; ++k)
        for (int j = variant == Variant::claim ? 0 : 1; k + j <= p; ++j) {
          const int x_index = variant == Variant::claim ? k + j : k;
          CertifiedCondition c;
          c.name = "sigma_" + std::to_string(k) + "(Z) >= beta sigma_" + std::to_string(x_index) + "(X) - sigma_" + std::to_string(j + 1) +
                   "(A)  [W_V = 0: A = 0, Z = beta X exactly]";
          const mpfi_dynamic margin = a.beta * (sX.sigma[k - 1] - sX.sigma[x_index - 1]);
          c.margin_lower = x_index == k ? 0.0 : std::max(0.0, lower_double(margin));
          c.margin_upper = x_index == k ? 0.0 : upper_double(margin);
          c.verdict = CertifiedVerdict::holds;
          exact.push_back(c);
        }
      return combine(std::move(exact), "exact: W_V = 0 gives A = 0 and Z = beta X; singular values are ordered");
    }
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
    if (!maybe_informative) return certified_discard("every bound beta sigma_{k+j}(X) - sigma_{j+1}(A) is certified <= 0: trivially true");
    if (!informative) return not_certified("no bound is certified positive: the hypothesis is not certified at this precision");
    return combine(std::move(conds), "interval softmax and products; singular values by a posteriori enclosure (Weyl)");
  }
};

}  // namespace thm::qin

THM_REGISTER_CLAIM(thm::qin::WeylInterlacing)
