// qin.gd.linear_rate_multilayer (paper-shape; docs/derivations/qin.gd.linear_rate_multilayer.md)
//
// L = 2..4 blocks: the theorem of qin.gd.linear_rate for (W_1, W_2) of the last block and W_U, everything
// below frozen, with Z the last block's attention output (same hypotheses, alpha, rho, eta), at every
// iterate; per-layer sigma_min(Zs^(l)) reported.
// Negative control: alpha replaced by 4 ||g_0||^2 / (2 L_0), four times the best rate the first step shows.
#include "theorems/qin/linear_rate.hpp"
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
        .statement = "L = 2..4 blocks, GD on (W_1, W_2) of the last block and W_U, everything below frozen: the "
                     "single-layer theorem with Z the last block's attention output (same hypotheses, alpha, rho, eta), "
                     "at every iterate",
        .negative_control = "alpha replaced by 4 ||g_0||^2 / (2 L_0), four times the best rate the first step shows",
        .uses = {"qin.pl.output_layer", "qin.gd.descent_lemma", "qin.gd.linear_rate"},
        .default_cases = 24,
        .mp_cases = 8,
        .ladder_checks = 3,
    };
  }

  // The instances it reads (numerics/instance_schema.hpp): what the generator below draws.
  static InstanceSchema schema() {
    return qin_model_schema(wide_limits(2, 3, 32, 4));
  }
  static Instance generate(ChoiceSource& src) {
    QModelSpec s = wide_spec(src, 2, 3);
    s.L = static_cast<int>(src.integer(2, 4));
    s.m = sized_dimension(src, 8, 32);
    s.config.beta = src.real(0.5, 1.0);
    s.config.activation = smooth_activation(src);
    s.target_noise = src.log_real(1e-9, 1e-3);
    s.entropy = src.entropy();
    return build_qin_model(s);
  }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant variant) {
    return detail::linear_rate<T>(inst, variant, true);
  }
};

}  // namespace thm::qin

THM_REGISTER_CLAIM(thm::qin::LinearRateMultilayer)
