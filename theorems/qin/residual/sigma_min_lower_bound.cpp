// qin.residual.sigma_min_lower_bound (derived; docs/derivations/qin.residual.sigma_min_lower_bound.md)
//
// The residual connection Z = A + beta X of the attention block, p = min(N, d):
//   ||S||_2 <= sqrt(N)  and  sigma_p(Z) >= beta sigma_p(X) - ||S||_2 ||X||_2 ||W_V||_2
// (from qin.residual.weyl_interlacing with k = p, j = 0). Hypothesis: the bound is positive (else it is
// trivially true and the case is discarded).
// Negative control: ||S||_2 <= 1 and sigma_p(Z) >= beta sigma_p(X) (attention term dropped).
#include "numerics/interval.hpp"
#include "theorems/certify.hpp"
#include "theorems/qin/attention_cases.hpp"
#include "theorems/qin/attention_noise.hpp"
#include "theorems/qin/interval_attention.hpp"
#include "numerics/models/qin/attention_instance.hpp"
#include "theorems/register_claim.hpp"

#include <cmath>
#include <cstdio>
#include <string>

namespace thm::qin {

struct SigmaMinLowerBound {
  static ClaimInfo info() {
    return {
        .id = "qin.residual.sigma_min_lower_bound",
        .source = "Q",
        .provenance = Provenance::derived,
        .kind = ClaimKind::inequality,
        .statement = "||S||_2 <= sqrt(N) and sigma_min(Z) >= beta sigma_min(X) - ||S||_2 ||X||_2 ||W_V||_2",
        .negative_control = "||S||_2 <= 1 and sigma_min(Z) >= beta sigma_min(X) (attention term dropped)",
        .uses = {"qin.residual.weyl_interlacing"},
        .default_cases = 200,
        .resolving_factor = 1.001,  // thmcheck power --claims qin.residual.sigma_min_lower_bound --seeds 1..20
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
    // beta = 0 cannot meet the hypothesis; it is generated now and then, and honestly discarded.
    s.beta = src.coin(0.05) ? 0.0 : src.real(0.05, 1.0);
    draw_x_spectrum(src, s);
    s.logit_max = src.coin(0.5) ? src.log_real(1e-6, 1.0) : src.log_real(1.0, 50.0);
    // ||W_V||_2 = u beta sigma_min(X) / (sqrt(N) ||X||_2) with u < 1 makes the bound positive, since
    // ||S||_2 <= sqrt(N) (derivation, "Hypotheses").
    const double u = src.log_real(1e-3, 0.999);
    s.wv_norm = u * s.beta / (std::sqrt(static_cast<double>(s.N)) * s.x_kappa);
    s.wv_kappa = src.log_real(1.0, 10.0);
    s.entropy = src.entropy();
    return build_qin_attention(s);
  }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant variant) {
    using std::sqrt;
    using std::abs;
    const QAttention<T> q = lift_qin_attention<T>(inst);
    const Mat<T>& X = q.X[0];
    const AttentionForward<T> f = attention_forward(X, q.w, q.beta);
    const detail::AttentionNoise<T> noise = detail::attention_noise(X, q.w, q.beta, f);
    const Vec<T> sZ = singular_values(f.Z), sX = singular_values(X);
    const Eigen::Index p = sZ.size();
    const T normS = spectral_norm(f.S), normWV = spectral_norm(q.w.W_V);
    const T attention_term = normS * sX(0) * normWV;
    const T bound = q.beta * sX(p - 1) - attention_term;
    if (!(bound > 0))
      return Evaluation::discarded("beta sigma_min(X) <= ||S|| ||X|| ||W_V||: the bound is not positive, so trivially true");

    const T eps = epsilon<T>();
    const T nS = detail::singular_value_noise(f.S, normS, noise.dS);
    const T nX = singular_value_error_bound<T>(X.rows(), X.cols(), sX(0));
    const T nWV = singular_value_error_bound<T>(q.w.W_V.rows(), q.w.W_V.cols(), normWV);
    const T nZ = detail::singular_value_noise(f.Z, sZ(0), noise.dZ);
    const T n_attention = nS * sX(0) * normWV + normS * nX * normWV + normS * sX(0) * nWV + T(4) * eps * attention_term;

    Evaluation e;
    const T sqrtN = variant == Variant::claim ? sqrt(T(X.rows())) : T(1);
    e.conditions.push_back(make_le<T>(variant == Variant::claim ? "||S||_2 <= sqrt(N)" : "||S||_2 <= 1", normS, sqrtN,
                                      nS + T(2) * eps * sqrtN));
    if (variant == Variant::claim)
      e.conditions.push_back(make_ge<T>("sigma_min(Z) >= beta sigma_min(X) - ||S||_2 ||X||_2 ||W_V||_2", sZ(p - 1), bound,
                                        nZ + abs(q.beta) * nX + n_attention));
    else
      e.conditions.push_back(make_ge<T>("sigma_min(Z) >= beta sigma_min(X)", sZ(p - 1), T(q.beta * sX(p - 1)),
                                        nZ + abs(q.beta) * nX));
    e.observations = {{"norm(S)", to_double(normS)},
                      {"sigma_min(X)", to_double(sX(p - 1))},
                      {"norm(W_V)", to_double(normWV)},
                      {"bound/sigma_min(Z)", to_double(T(bound / sZ(p - 1)))}};
    return e;
  }

  // K, S, A, Z as interval matrices; sigma_min(Z), sigma(X), ||S||_2, ||W_V||_2 from enclose_singular_values (Weyl).
  static Certification certify(const Instance& inst, int digits, Variant variant) {
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
    if (upper(bound) <= 0) return certified_discard("beta sigma_min(X) - ||S|| ||X|| ||W_V|| <= 0 certified: the bound is trivially true");
    if (!(lower(bound) > 0)) return not_certified("the hypothesis (a positive bound) is not certified at this precision");
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
};

}  // namespace thm::qin

THM_REGISTER_CLAIM(thm::qin::SigmaMinLowerBound)
