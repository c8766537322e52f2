// qin.gd.linear_rate_multilayer (paper-shape; docs/derivations/qin.gd.linear_rate_multilayer.md)
//
// L = 2..4 blocks, every block of every layer trained: the theorem of qin.gd.linear_rate with H the last
// block's output and a, J, Lg propagated through the layers (input-Lipschitz bounds of attention and FFN on
// the ball, docs/derivations/qin.gd.linear_rate_multilayer.md), at every iterate; per-layer sigma_min(Zs^(l)) reported.
// Negative control: the claim with alpha scaled by control_factor (the rate knob of thmcheck power; derivation).
#include "theorems/qin/linear_rate.hpp"
#include "theorems/qin/linear_rate_certificate.hpp"
#include "theorems/qin/model_cases.hpp"
#include "numerics/models/qin/model_instance.hpp"
#include "theorems/register_claim.hpp"

namespace thm::qin {

struct LinearRateMultilayer {
  static ClaimInfo info() {
    return {
        .id = "qin.gd.linear_rate_multilayer",
        .source = "Q",
        .provenance = Provenance::paper_shape,
        .kind = ClaimKind::trajectory,
        .statement = "L = 2..4 blocks, GD on every block of every layer and the head: the single-layer theorem with H the "
                     "last block's output (sigma0 = sigma_nN(H_0), alpha = sigma0^2/4, the same hypotheses) and a, J, Lg "
                     "propagated through the layers on the ball, at every iterate",
        .negative_control = "the rate constant alpha multiplied by control_factor: L_t <= (1 - eta k alpha)^t L_0",
        .uses = {"qin.pl.output_layer", "qin.gd.descent_lemma", "qin.gd.linear_rate"},
        .min_hypothesis_rate = 0.25,  // (H2) fails at the generator's small widths: 15 to 20 of 24 judged (derivation)
        .default_cases = 24,
        .ladder_checks = 2,
        .power_knob = "alpha in the certified rate (1 - eta alpha)^t",
        .control_factor = 8,
        .resolving_factor = 6.528,
    };
  }

  // The instances it reads (numerics/instance_schema.hpp): what the generator below draws.
  static InstanceSchema schema() { return qin_model_schema({2, 3, kRateMaxD, kRateMaxM, 3, 4}); }
  // The over-parameterised regime of qin.gd.linear_rate (model_cases.hpp) with L = 2..4 blocks: targets
  // independent of the model at the output scale, L_0 of order ||Y||^2. The residual branches start small
  // (value and FFN weights at scale 0.05 to 0.3, as the attention logits): at scale 1 the propagated constants
  // grow about 30-fold per layer and (H2) fails from L = 2 on (derivation, "Generator").
  static Instance generate(ChoiceSource& src) {
    QModelSpec s = overparameterised_spec(src);
    s.L = static_cast<int>(src.integer(2, 4));
    s.attn_scale = src.log_real(0.05, 0.3);
    s.value_scale = src.log_real(0.05, 0.3);
    s.ffn_scale = src.log_real(0.05, 0.3);
    s.entropy = src.entropy();
    return with_output_scale_targets(build_qin_model(s));
  }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant) {
    return detail::linear_rate<T>(inst, true, true);
  }

  // The conclusion at every computed iterate in MPFI (theorems/qin/linear_rate_certificate.hpp); the control with alpha
  // scaled by control_factor.
  static Certification certify(const Instance& inst, int digits, Variant variant) {
    return detail::certify_linear_rate(inst, true, true, digits, variant == Variant::claim ? 1.0 : info().control_factor);
  }
};

}  // namespace thm::qin

THM_REGISTER_CLAIM(thm::qin::LinearRateMultilayer)
