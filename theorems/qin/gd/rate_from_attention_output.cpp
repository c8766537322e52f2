// qin.gd.rate_from_attention_output (derived; docs/derivations/qin.gd.rate_from_attention_output.md)
//
// [Q]'s rate is set by the singular values of the attention output. The linear-rate claims take theirs from the
// block output H = Z + F (gamma = 1), F = sigma(Z W_1) W_2 the FFN branch, alpha = sigma_nN(Hs)^2 / 4. By Weyl's
// inequality, through the FFN's residual path:
//   sigma_nN(Hs) >= gamma sigma_nN(Zs) - ||Fs||_2,
// so alpha >= alpha_Z = max(0, gamma sigma_nN(Zs) - ||Fs||_2)^2 / 4: the rate 1 - eta alpha_Z in the attention
// output's terms. F is computed from its definition (activation and weights), not from the forward's H, so the
// inequality checks that H is what the model says it is. Instances: qin.gd.linear_rate's, at initialisation, with the
// FFN scaled down; a case where the bound is not positive is discarded as vacuous, and counted.
// Negative control: the FFN branch dropped from the bound, sigma_nN(Hs) >= gamma sigma_nN(Zs).
#include "numerics/activation.hpp"
#include "numerics/spectral.hpp"
#include "numerics/models/qin/transformer.hpp"
#include "numerics/models/qin/model_instance.hpp"
#include "theorems/qin/linear_rate.hpp"
#include "theorems/qin/model_cases.hpp"
#include "theorems/qin/training.hpp"
#include "numerics/interval_functions.hpp"
#include "numerics/models/qin/transformer_interval.hpp"
#include "theorems/certify.hpp"
#include "theorems/register_claim.hpp"

#include <algorithm>
#include <vector>

namespace thm::qin {

struct RateFromAttentionOutput {
  static ClaimInfo info() {
    return {
        .id = "qin.gd.rate_from_attention_output",
        .source = "Q",
        .provenance = Provenance::derived,
        .kind = ClaimKind::inequality,
        .statement = "qin.gd.linear_rate's instances at initialisation, Zs the attention output (with residual), Fs = sigma(Zs W_1) "
                     "W_2: sigma_nN(Hs) >= gamma sigma_nN(Zs) - ||Fs||_2, so alpha >= max(0, gamma sigma_nN(Zs) - ||Fs||_2)^2 / 4",
        .negative_control = "the FFN branch dropped from the bound: sigma_nN(Hs) >= gamma sigma_nN(Zs)",
        .default_cases = 100,
        .resolving_factor = 1.006,  // thmcheck power --claims qin.gd.rate_from_attention_output --seeds 1..20
    };
  }

  static InstanceSchema schema() { return qin_model_schema({2, 3, kRateMaxD, kRateMaxM, 3, 1}); }
  // qin.gd.linear_rate's generator (the over-parameterised regime, model_cases.hpp), with the FFN's weights scaled by
  // kFfnScale..1 (log-uniform; 1 is linear_rate's): at 1 the FFN branch outweighs sigma_nN(Zs) and the bound is
  // vacuous (derivation, "When it says something").
  static constexpr double kFfnScale = 0.03;
  static Instance generate(ChoiceSource& src) {
    QModelSpec s = overparameterised_spec(src);
    s.ffn_scale = src.log_real(kFfnScale, 1.0);
    s.entropy = src.entropy();
    return with_output_scale_targets(build_qin_model(s));
  }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant variant) {
    const QModel<T> q = lift_qin_model<T>(inst);
    const TransformerTrace<T> tr = transformer_forward(q.params, q.config, q.X, q.Y);
    const Mat<T> Zs = stack_rows(tr.V.front()), Hs = stack_rows(tr.H.front());
    if (Hs.rows() > Hs.cols()) return Evaluation::discarded("nN > d: sigma_nN(Hs) is not the smallest of a full row rank");
    // Fs from its definition: sigma applied entrywise to Zs W_1, times W_2.
    const TransformerBlock<T>& b = q.params.blocks.front();
    const Activation act = q.config.activation;
    const Mat<T> Fs = Mat<T>((Zs * b.W_1).unaryExpr([act](const T& x) { return activate(act, x); })) * b.W_2;
    const Vec<T> sh = singular_values(Hs), sz = singular_values(Zs);
    const T sigma_h = sh(Hs.rows() - 1), sigma_z = sz(Zs.rows() - 1), f = spectral_norm(Fs);
    const T gamma = T(q.config.ffn_residual);
    if (!(gamma * sigma_z > f)) return Evaluation::discarded("vacuous: ||Fs||_2 >= gamma sigma_nN(Zs), the bound on alpha is 0");
    const T bound = variant == Variant::claim ? T(gamma * sigma_z - f) : T(gamma * sigma_z);
    // The noise of three computed singular values (detail::sigma_noise: the SVD and the entries' rounding).
    const T noise = detail::sigma_noise(q, Hs, sh(0)) + gamma * detail::sigma_noise(q, Zs, sz(0)) + detail::sigma_noise(q, Fs, f);
    Evaluation e;
    e.conditions.push_back(make_ge<T>(variant == Variant::claim ? "sigma_nN(Hs) >= gamma sigma_nN(Zs) - ||Fs||_2"
                                                                : "sigma_nN(Hs) >= gamma sigma_nN(Zs)",
                                      sigma_h, bound, noise));
    using std::max;
    const T alpha = sigma_h * sigma_h / T(4), floor_z = max(T(0), T(gamma * sigma_z - f));
    e.observations = {{"sigma_nN(Zs), the attention output", to_double(sigma_z)},
                      {"||Fs||_2, the FFN branch", to_double(f)},
                      {"sigma_nN(Hs)", to_double(sigma_h)},
                      {"alpha = sigma_nN(Hs)^2 / 4", to_double(alpha)},
                      {"alpha_Z = max(0, gamma sigma_nN(Zs) - ||Fs||)^2 / 4", to_double(T(floor_z * floor_z / T(4)))}};
    return e;
  }

  // Zs, Hs and Fs of the exact model enclosed in MPFI, their singular values by residual and Weyl; the hypothesis
  // gamma sigma_nN(Zs) > ||Fs||_2 certified (or the case a certified discard) before the margin is judged.
  static Certification certify(const Instance& inst, int digits, Variant variant) {
    const IntervalPrecision guard(static_cast<unsigned>(digits));
    const QModel<mpfi_dynamic> q = interval_qin_model(inst);
    const TransformerTrace<mpfi_dynamic> tr = transformer_forward(q.params, q.config, q.X, q.Y);
    const IMat Zs = stack_rows(tr.V.front()), Hs = stack_rows(tr.H.front());
    if (Hs.rows() > Hs.cols()) return certified_discard("nN > d: sigma_nN(Hs) is not the smallest of a full row rank");
    const TransformerBlock<mpfi_dynamic>& b = q.params.blocks.front();
    const Activation act = q.config.activation;
    const IMat Fs = IMat(IMat(Zs * b.W_1).unaryExpr([act](const mpfi_dynamic& x) { return activate(act, x); })) * b.W_2;
    const mpfi_dynamic sigma_h = enclose_singular_values(Hs).sigma.back(), sigma_z = enclose_singular_values(Zs).sigma.back();
    const mpfi_dynamic f = enclose_spectral_norm(Fs), gamma(q.config.ffn_residual);
    const mpfi_dynamic gap = gamma * sigma_z - f;
    if (upper(gap) <= 0) return certified_discard("vacuous: ||Fs||_2 >= gamma sigma_nN(Zs) certified");
    if (!(lower(gap) > 0)) return not_certified("the hypothesis gamma sigma_nN(Zs) > ||Fs||_2 is not decided at this precision");
    return combine({certify_le(variant == Variant::claim ? "sigma_nN(Hs) >= gamma sigma_nN(Zs) - ||Fs||_2" : "sigma_nN(Hs) >= gamma sigma_nN(Zs)",
                               variant == Variant::claim ? gap : mpfi_dynamic(gamma * sigma_z), sigma_h)},
                   "MPFI: the model's forward pass on intervals; singular values by residual + Weyl");
  }
};

}  // namespace thm::qin

THM_REGISTER_CLAIM(thm::qin::RateFromAttentionOutput)
