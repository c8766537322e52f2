// qin.softmax.rank_collapse (derived; docs/derivations/qin.softmax.rank_collapse.md)
//
// Softmax attention alone, A = S X W_V with S = softmax_rows(K), K = c (X W_Q)(X W_K)^T:
//   (a) every row of K constant  =>  rank(A) <= 1: sigma_2(A) at the rounding level;
//   (b) eps = max|K_jk|:  ||S - 11^T/N||_2 <= exp(2 eps) - 1  and
//                         sigma_2(A) <= (exp(2 eps) - 1) ||X W_V||_2.
// Negative control: the bounds of (b) divided by 4.
#include "numerics/interval.hpp"
#include "theorems/certify.hpp"
#include "theorems/qin/attention_cases.hpp"
#include "theorems/qin/attention_noise.hpp"
#include "theorems/qin/interval_attention.hpp"
#include "numerics/models/qin/attention_instance.hpp"
#include "theorems/register_claim.hpp"

#include <boost/math/special_functions/expm1.hpp>

#include <algorithm>
#include <cmath>

namespace thm::qin {

struct RankCollapse {
  // The factor the negative control divides the bounds of (b) by.
  static constexpr double kBrokenFactor = 4.0;
  // Share of the general branch (probability 0.7) drawn as column-sign logits, the family where (b1)
  // is tight; 0.7 * 0.4 = 0.28 of all cases, each of which violates the control (derivation,
  // "Calibration"), and eps = max|K| there is log-uniform in [1e-6, kSignPatternEpsMax].
  static constexpr double kSignPatternShare = 0.4;
  static constexpr double kSignPatternEpsMax = 0.2;

  static ClaimInfo info() {
    return {
        .id = "qin.softmax.rank_collapse",
        .source = "Q",
        .provenance = Provenance::derived,
        .kind = ClaimKind::inequality,
        .statement = "(a) row-constant logits => rank(A) <= 1; (b) eps = max|K|: ||S - 11^T/N||_2 <= exp(2 eps) - 1 and "
                     "sigma_2(A) <= (exp(2 eps) - 1) ||X W_V||_2",
        .negative_control = "the bounds of (b) divided by 4",
        .default_cases = 200,
        .resolving_factor = 2,  // thmcheck power --claims qin.softmax.rank_collapse --seeds 1..20
    };
  }

  // The instances it reads (numerics/instance_schema.hpp): what the generator below draws.
  static InstanceSchema schema() {
    return qin_attention_schema(1, kAttentionDimCap).integer("row_constant_logits", 0, 1);
  }
  static Instance generate(ChoiceSource& src) {
    QAttentionSpec s;
    s.N = sized_dimension(src, 2, kAttentionDimCap);
    s.d = sized_dimension(src, 2, kAttentionDimCap);
    s.beta = src.real(0.0, 1.0);
    draw_x_spectrum(src, s);
    s.row_constant_logits = src.coin(0.3);
    if (s.row_constant_logits) {
      s.tau = src.real(-2.0, 2.0);
      s.logit_max = src.log_real(1e-3, 1e4);  // any magnitude: S stays exactly uniform
    } else if (src.coin(kSignPatternShare)) {
      // Column-sign logits, where (b1) is tight to 1 + exp(2 eps): ||S - 11^T/N||_2 / (exp(2 eps) - 1)
      // >= 0.33 for eps <= 0.2 at every N (derivation, "Tightness"), so the control (bound / 4) fails
      // on every such case.
      s.sign_pattern_logits = true;
      s.tau = src.coin(0.5) ? src.log_real(0.1, 2.0) : -src.log_real(0.1, 2.0);
      s.logit_max = src.log_real(1e-6, kSignPatternEpsMax);
    } else {
      // Small logits (where (b) is nearly tight) and large logits (softmax near one-hot).
      s.logit_max = src.coin(0.7) ? src.log_real(1e-6, 0.5) : src.log_real(0.5, 50.0);
    }
    s.wv_norm = src.log_real(1e-2, 10.0);
    s.wv_kappa = src.log_real(1.0, 100.0);
    s.entropy = src.entropy();
    return build_qin_attention(s);
  }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant variant) {
    const QAttention<T> q = lift_qin_attention<T>(inst);
    const Mat<T>& X = q.X[0];
    const Eigen::Index N = X.rows(), d = X.cols();
    if (std::min(N, d) < 2) return Evaluation::discarded("min(N, d) < 2: sigma_2(A) does not exist");

    const AttentionForward<T> f = attention_forward(X, q.w, q.beta);
    const detail::AttentionNoise<T> noise = detail::attention_noise(X, q.w, q.beta, f);
    const Vec<T> sA = singular_values(f.A);
    const T sigma2_noise = detail::singular_value_noise(f.A, sA(0), noise.dA);

    Evaluation e;
    if (inst.param("row_constant_logits") != 0.0) {
      // (a) S = 11^T/N exactly, so A has identical rows: sigma_2(A) is pure rounding.
      e.conditions.push_back(make_le<T>("(a) sigma_2(A) <= noise(sigma_2(A))  [row-constant logits => rank(A) <= 1]",
                                        sA(1), sigma2_noise, T(0)));
    }

    // (b) eps = max |K_jk|; bound = exp(2 eps) - 1 (derivation, step 1).
    const T logit_eps = f.K.cwiseAbs().maxCoeff();
    T bound = boost::math::expm1(T(2) * logit_eps);
    if (variant == Variant::negative_control) bound /= T(kBrokenFactor);
    using std::exp;
    const T bound_noise = T(4) * epsilon<T>() * bound + T(2) * exp(T(2) * logit_eps) * noise.dK;

    const Mat<T> E = f.S - Mat<T>::Constant(N, N, T(1) / T(N));
    const T normE = spectral_norm(E);
    e.conditions.push_back(make_le<T>("(b) ||S - 11^T/N||_2 <= exp(2 eps) - 1", normE, bound,
                                      detail::singular_value_noise(E, normE, noise.dS) + bound_noise));

    const Mat<T> XV = X * q.w.W_V;
    const T normXV = spectral_norm(XV);
    const T rhs = bound * normXV;
    const T rhs_noise = bound_noise * normXV + bound * detail::singular_value_noise(XV, normXV, noise.dXV);
    e.conditions.push_back(make_le<T>("(b) sigma_2(A) <= (exp(2 eps) - 1) ||X W_V||_2", sA(1), rhs, sigma2_noise + rhs_noise));

    e.observations = {{"max_abs_logit", to_double(logit_eps)},
                      {"sigma_1(A)", to_double(sA(0))},
                      {"sigma_2(A)", to_double(sA(1))},
                      {"norm(S - 11^T/N)", to_double(normE)}};
    return e;
  }

  // The same block on intervals; exp(2 max|K|) - 1 with MPFI's exp, singular values by a posteriori enclosure.
  static Certification certify(const Instance& inst, int digits, Variant variant) {
    const IntervalPrecision guard(static_cast<unsigned>(digits));
    const IntervalAttention a = interval_attention(inst);
    const Eigen::Index N = a.X.rows();
    if (std::min(a.X.rows(), a.X.cols()) < 2) return certified_discard("min(N, d) < 2: sigma_2(A) does not exist");
    const SingularValueEnclosure sA = enclose_singular_values(a.A);
    std::vector<CertifiedCondition> conds;
    // (a) rank(A) <= 1 means sigma_2(A) = 0 exactly, which no enclosure of sigma_2 can certify. It is proved exactly
    // instead: when the rows of X W_K are equal real numbers (zero-width enclosures, equal endpoints: the products of
    // doubles are exact at this precision), K_jl = c (X W_Q)_j . (X W_K)_l does not depend on l, so S = 11^T/N and
    // A = 1 (1^T X W_V / N) has rank <= 1 (margin reported as [0, 0]). Otherwise the enclosure is tried (and fails).
    if (inst.param("row_constant_logits") != 0.0) {
      const IMat XK = a.X * to_interval(inst.matrix("W_K"));
      bool exact_rows = true;
      for (Eigen::Index j = 0; j < XK.rows() && exact_rows; ++j)
        for (Eigen::Index l = 0; l < XK.cols() && exact_rows; ++l)
          exact_rows = width(XK(j, l)) == 0 && lower(XK(j, l)) == lower(XK(0, l));
      if (exact_rows) {
        CertifiedCondition c;
        c.name = "(a) rank(A) <= 1: the rows of X W_K are exactly equal, so S = 11^T/N exactly";
        c.verdict = CertifiedVerdict::holds;
        conds.push_back(c);
      } else {
        conds.push_back(certify_le("(a) sigma_2(A) <= 0  [rank(A) <= 1]", sA.sigma[1], mpfi_dynamic(0)));
      }
    }
    mpfi_dynamic bound = exp(mpfi_dynamic(2) * enclose_max_abs(a.K)) - mpfi_dynamic(1);
    if (variant == Variant::negative_control) bound /= mpfi_dynamic(kBrokenFactor);
    IMat E = a.S;
    for (Eigen::Index i = 0; i < N; ++i)
      for (Eigen::Index j = 0; j < N; ++j) E(i, j) -= mpfi_dynamic(1) / mpfi_dynamic(N);
    conds.push_back(certify_le("(b) ||S - 11^T/N||_2 <= exp(2 eps) - 1", enclose_spectral_norm(E), bound));
    conds.push_back(certify_le("(b) sigma_2(A) <= (exp(2 eps) - 1) ||X W_V||_2", sA.sigma[1],
                               mpfi_dynamic(bound * enclose_spectral_norm(a.XV))));
    return combine(std::move(conds), "interval softmax and products; singular values by a posteriori enclosure (Weyl)");
  }

 private:
  // [max_jk lower|K_jk|, max_jk upper|K_jk|]: encloses max_jk |K_jk| over the box.
  static mpfi_dynamic enclose_max_abs(const IMat& k) {
    mpfr_dynamic lo = 0, hi = 0;
    for (Eigen::Index i = 0; i < k.rows(); ++i)
      for (Eigen::Index j = 0; j < k.cols(); ++j) {
        const mpfi_dynamic a = abs(k(i, j));
        if (lower(a) > lo) lo = lower(a);
        if (upper(a) > hi) hi = upper(a);
      }
    return make_interval(lo, hi);
  }
};

}  // namespace thm::qin

THM_REGISTER_CLAIM(thm::qin::RankCollapse)
