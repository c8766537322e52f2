// qin.softmax.rounding_allowance (derived; docs/derivations/qin.softmax.rounding_allowance.md)
//
// The rounding allowance every [Q] attention claim judges its margins against (theorems/qin/attention_noise.hpp;
// docs/derivations/noise-model.md) is sound: the attention block computed at the working precision is within it of
// the exact block, computed at 2 D + 20 digits (D the working precision's), component by component:
//   max_jk |K_computed - K|_jk <= dK,   ||S_computed - S||_2 <= dS,   ||XV_computed - XV||_2 <= dXV,
//   ||A_computed - A||_2 <= dA,          ||Z_computed - Z||_2 <= dZ,
//   max_k |sigma_k(Z_computed) (computed) - sigma_k(Z)| <= dZ + singular_value_error_bound (the form the claims use).
// The suite's own statement, not [Q]'s: the attention claims' verdicts are only as good as it is. Its strength on an
// instance is allowance / error, the factor the allowance could be divided by and still hold.
// Negative control: every allowance divided by control_factor (derivation, "Control").
#include "theorems/qin/attention_cases.hpp"
#include "theorems/qin/attention_noise.hpp"
#include "numerics/models/qin/attention_instance.hpp"
#include "theorems/certify.hpp"
#include "theorems/qin/interval_attention.hpp"
#include "theorems/register_claim.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace thm::qin {

struct RoundingAllowance {
  // The control divides every allowance by this (k(0.999) = 16.3: derivation, "Control").
  static constexpr double kControlFactor = 20;

  static ClaimInfo info() {
    return {
        .id = "qin.softmax.rounding_allowance",
        .source = "Q",
        .provenance = Provenance::derived,
        .kind = ClaimKind::inequality,
        .statement = "the [Q] attention block at the working precision is within the attention claims' rounding allowance "
                     "of the exact block (2D + 20 digits): max|dK| <= dK, ||dS||, ||d(XV)||, ||dA||, ||dZ||_2 within theirs, "
                     "and every computed sigma_k(Z) within dZ + the SVD's bound",
        .negative_control = "every allowance divided by control_factor",
        .default_cases = 100,
        // A statement about the working precision's own rounding: a double violation is not re-judged at 50 digits,
        // where the allowance is another number (the ladder would call every one an artifact).
        .ladder_checks = 0,
        .power_knob = "bound",
        .control_factor = kControlFactor,
        .resolving_factor = 14.77,  // thmcheck power --claims qin.softmax.rounding_allowance --seeds 1..20
    };
  }

  static InstanceSchema schema() { return qin_attention_schema(1, kAttentionDimCap); }
  // The attention claims' own instances, widened where rounding is largest: logits up to 50 (softmax near one-hot),
  // W_V over four decades, X up to kappa 100, beta in [0, 1].
  static Instance generate(ChoiceSource& src) {
    QAttentionSpec s;
    s.N = sized_dimension(src, 2, kAttentionDimCap);
    s.d = sized_dimension(src, 2, kAttentionDimCap);
    s.beta = src.real(0.0, 1.0);
    draw_x_spectrum(src, s);
    s.logit_max = src.log_real(1e-3, 50.0);
    s.wv_norm = src.log_real(1e-2, 100.0);
    s.wv_kappa = src.log_real(1.0, 100.0);
    s.entropy = src.entropy();
    return build_qin_attention(s);
  }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant variant) {
    using std::abs;
    using R = mpfr_dynamic;
    const QAttention<T> q = lift_qin_attention<T>(inst);
    const Mat<T>& X = q.X[0];
    const AttentionForward<T> f = attention_forward(X, q.w, q.beta);
    const Mat<T> XV = X * q.w.W_V;
    const detail::AttentionNoise<T> noise = detail::attention_noise(X, q.w, q.beta, f);
    const Vec<T> sZ = singular_values(f.Z);
    const T dsigma = detail::singular_value_noise(f.Z, sZ(0), noise.dZ);
    const T divisor = variant == Variant::claim ? T(1) : T(kControlFactor);

    // The exact block, to 2 D + 20 digits: its own error is 10^-(D + 20) of the allowances' scale, far inside the
    // noise below. Every error is formed and measured at that precision, then rounded to T once the guard is gone
    // (inside it, an mpfr_dynamic T would keep the wide precision).
    std::vector<R> wide;  // eK, eS, eXV, eA, eZ, esigma
    {
      const DigitsGuard guard(2 * decimal_digits<T>() + 20);
      const QAttention<R> r = lift_qin_attention<R>(inst);
      const AttentionForward<R> g = attention_forward(r.X[0], r.w, r.beta);
      const Mat<R> XVr = r.X[0] * r.w.W_V;
      const auto lifted = [](const Mat<T>& m) { return Mat<R>(m.template cast<R>()); };
      const auto gap = [&](const Mat<T>& computed, const Mat<R>& exact) { return R(spectral_norm(Mat<R>(lifted(computed) - exact))); };
      const Vec<R> sZr = singular_values(g.Z);
      wide = {R(Mat<R>(lifted(f.K) - g.K).cwiseAbs().maxCoeff()), gap(f.S, g.S), gap(XV, XVr), gap(f.A, g.A), gap(f.Z, g.Z),
              R(Vec<R>(sZ.template cast<R>() - sZr).cwiseAbs().maxCoeff())};
    }
    const T eK(wide[0]), eS(wide[1]), eXV(wide[2]), eA(wide[3]), eZ(wide[4]), esigma(wide[5]);

    Evaluation e;
    // The margin's noise: the reference's own error and the rounding of the error to T, below eps of the allowance.
    const auto within = [&](const char* name, const T& error, const T& allowance) {
      const T bound = allowance / divisor;
      e.conditions.push_back(make_le<T>(name, error, bound, T(epsilon<T>() * bound)));
    };
    within("max|K_computed - K| <= dK", eK, noise.dK);
    within("||S_computed - S||_2 <= dS", eS, noise.dS);
    within("||XV_computed - XV||_2 <= dXV", eXV, noise.dXV);
    within("||A_computed - A||_2 <= dA", eA, noise.dA);
    within("||Z_computed - Z||_2 <= dZ", eZ, noise.dZ);
    within("max_k |sigma_k(Z) computed - sigma_k(Z)| <= dZ + SVD bound", esigma, dsigma);
    const auto ratio = [](const T& error, const T& allowance) { return allowance > T(0) ? to_double(T(error / allowance)) : 0.0; };
    e.observations = {{"error / allowance, K", ratio(eK, noise.dK)},   {"error / allowance, S", ratio(eS, noise.dS)},
                      {"error / allowance, XV", ratio(eXV, noise.dXV)}, {"error / allowance, A", ratio(eA, noise.dA)},
                      {"error / allowance, Z", ratio(eZ, noise.dZ)},    {"error / allowance, sigma(Z)", ratio(esigma, dsigma)},
                      {"max|K|", to_double(T(f.K.cwiseAbs().maxCoeff()))}};
    return e;
  }

  // The double block's errors against the exact block enclosed in MPFI (theorems/qin/interval_attention.hpp) in
  // place of the 2 D + 20 digit reference: each error's exact value certified against the allowance the double
  // evaluation states (divided by kControlFactor for the control).
  static Certification certify(const Instance& inst, int digits, Variant variant) {
    const Evaluation at_double = evaluate<double>(inst, variant);
    const QAttention<double> q = lift_qin_attention<double>(inst);
    const AttentionForward<double> f = attention_forward(q.X[0], q.w, q.beta);
    const MatD XV = q.X[0] * q.w.W_V;
    const VecD sZ = singular_values(f.Z);
    const IntervalPrecision guard(static_cast<unsigned>(digits));
    const IntervalAttention a = interval_attention(inst);
    const auto gap = [](const MatD& computed, const IMat& exact) { return enclose_spectral_norm(IMat(to_interval(computed) - exact)); };
    // max_i |x_i| over intervals: [max of the lower ends, max of the upper ends] of |x_i|.
    const auto max_abs = [](const std::vector<mpfi_dynamic>& xs) {
      mpfr_dynamic lo(0), hi(0);
      for (const mpfi_dynamic& x : xs) {
        const mpfi_dynamic ax = abs(x);
        lo = std::max(lo, lower(ax));
        hi = std::max(hi, upper(ax));
      }
      return make_interval(lo, hi);
    };
    std::vector<mpfi_dynamic> dK, dsigma;
    const IMat K = IMat(to_interval(f.K) - a.K);
    for (Eigen::Index i = 0; i < K.size(); ++i) dK.push_back(K(i));
    const SingularValueEnclosure exact_sZ = enclose_singular_values(a.Z);
    for (Eigen::Index k = 0; k < sZ.size(); ++k) dsigma.push_back(mpfi_dynamic(sZ(k)) - exact_sZ.sigma[static_cast<std::size_t>(k)]);
    return combine(certify_within_allowance(at_double, {max_abs(dK), gap(f.S, a.S), gap(XV, a.XV), gap(f.A, a.A), gap(f.Z, a.Z), max_abs(dsigma)}),
                   "MPFI: the exact block enclosed; each error of the double block against the stated allowance");
  }
};

}  // namespace thm::qin

THM_REGISTER_CLAIM(thm::qin::RoundingAllowance)
