// qin.gd.descent_lemma (derived; docs/derivations/qin.gd.descent_lemma.md)
//
// GD on all six blocks of a single layer; Lg(rho0) the explicit gradient-Lipschitz bound of
// detail::all_blocks_smoothness on the ball B(theta, rho0); for eta <= min(1/Lg, rho0/||g||):
//   L(theta - eta g) <= L(theta) - (eta/2) ||g||^2,  checked at eta = eta_max, eta_max/2, eta_max/10.
// Negative control: the sufficient-decrease constant 1/2 multiplied by control_factor (thmcheck power; derivation).
#include "numerics/models/qin/transformer.hpp"
#include "theorems/qin/ffn_smoothness.hpp"
#include "theorems/qin/model_cases.hpp"
#include "theorems/qin/training.hpp"
#include "numerics/models/qin/model_instance.hpp"
#include "numerics/interval_functions.hpp"
#include "numerics/models/qin/transformer_interval.hpp"
#include "theorems/certify.hpp"
#include "theorems/register_claim.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace thm::qin {

struct DescentLemma {
  static constexpr double kRadius = 1.0;  // rho0 of the descent lemma

  static ClaimInfo info() {
    return {
        .id = "qin.gd.descent_lemma",
        .source = "Q",
        .provenance = Provenance::derived,
        .kind = ClaimKind::trajectory,
        .statement = "GD on all six blocks (single layer), eta <= min(1/Lg(rho0), rho0/||g||) with Lg an explicit "
                     "gradient-Lipschitz bound on B(theta, rho0): L(theta - eta g) <= L(theta) - (eta/2) ||g||^2",
        .negative_control = "the sufficient-decrease constant 1/2 multiplied by control_factor",
        .default_cases = 60,
        .power_knob = "the sufficient-decrease constant 1/2",
        .control_factor = 2.2,
        .resolving_factor = 2,  // thmcheck power --claims qin.gd.descent_lemma --seeds 1..20
    };
  }

  // The instances it reads (numerics/instance_schema.hpp): what the generator below draws.
  static InstanceSchema schema() {
    return qin_model_schema(wide_limits(2, 3));
  }
  static Instance generate(ChoiceSource& src) {
    QModelSpec s = wide_spec(src, 2, 3);
    s.config.activation = smooth_activation(src);
    s.y_scale = src.log_real(0.1, 10.0);
    s.entropy = src.entropy();
    return build_qin_model(s);
  }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant) {
    using std::sqrt;
    const QModel<T> q = lift_qin_model<T>(inst);
    if (const auto why = detail::ffn_claim_setting(q)) return Evaluation::discarded(*why);
    T f0 = T(0);
    TransformerParams<T> g = transformer_gradient(q.params, q.config, q.X, q.Y, &f0);
    const T g2 = params_dot(g, g);  // all six blocks
    if (!(g2 > T(0))) return Evaluation::discarded("zero gradient: nothing to descend");
    const TransformerTrace<T> tr = transformer_forward(q.params, q.config, q.X, q.Y);
    const T rho0 = T(kRadius);
    const detail::FfnSmoothness<T> sm = detail::all_blocks_smoothness(detail::all_blocks_point(q, f0), rho0);
    const T eta_max = std::min<T>(T(T(1) / sm.Lg), T(rho0 / sqrt(g2)));
    const T c = T(1) / T(2);
    const T cancellation = detail::loss_cancellation(tr, q);
    Evaluation e;
    for (int k : {1, 2, 10}) {
      const T eta = eta_max / T(k);
      const T f1 = transformer_loss(params_axpy(q.params, T(-eta), g), q.config, q.X, q.Y);
      const T rhs = f0 - c * eta * g2;
      const T noise = detail::model_noise(q, f1, rhs, cancellation);
      // Strength (thmcheck power): the largest k with L(theta - eta g) <= L(theta) - k (1/2) eta ||g||^2.
      const T scale = c * eta * g2;
      e.conditions.push_back(with_strength(make_le<T>("L(theta - eta g) <= L(theta) - 1/2 eta ||g||^2, eta = eta_max/" + std::to_string(k), f1, rhs, noise),
                                           to_double(T((f0 - f1) / scale)), to_double(T(noise / (f0 - f1)))));
    }
    e.observations = {{"Lg(rho0)", to_double(sm.Lg)},
                      {"eta_max", to_double(eta_max)},
                      {"||g||", to_double(T(sqrt(g2)))},
                      {"loss", to_double(f0)},
                      {"relative decrease at eta_max", to_double(T(eta_max * g2 / f0))}};
    return e;
  }

  // The conclusion for the exact gradient g of the instance and the steps eta_max / k, eta_max the double run's (an
  // exact double; the hypothesis eta <= 1/Lg(rho0) is the double run's choice, not re-derived): L(theta) and g
  // enclosed in MPFI, L(theta - eta g) over the box theta - eta g, each margin L(theta) - eta/2 ||g||^2 - L(theta - eta g).
  // The negative control certifies the strengthened statement, the constant 1/2 times control_factor.
  static Certification certify(const Instance& inst, int digits, Variant variant) {
    const Evaluation at_double = evaluate<double>(inst, Variant::claim);
    if (at_double.conditions.empty()) return certified_discard("the double evaluation's hypotheses fail");
    double eta_max = 0;
    for (const auto& [name, value] : at_double.observations)
      if (name == "eta_max") eta_max = value;
    const IntervalPrecision guard(static_cast<unsigned>(digits));
    const QModel<mpfi_dynamic> q = interval_qin_model(inst);
    mpfi_dynamic f0;
    const TransformerParams<mpfi_dynamic> g = transformer_gradient(q.params, q.config, q.X, q.Y, &f0);
    mpfi_dynamic g2(0);
    for (std::size_t b = 0; b < g.block_count(); ++b) g2 += squared_frobenius(g.block(b));
    const double factor = variant == Variant::claim ? 1.0 : info().control_factor;
    const std::string constant = variant == Variant::claim ? "1/2" : "(1/2 x " + exact_decimal(factor) + ")";
    std::vector<CertifiedCondition> conds;
    for (int k : {1, 2, 10}) {
      const mpfi_dynamic eta = mpfi_dynamic(eta_max) / mpfi_dynamic(k);
      const mpfi_dynamic f1 = transformer_loss(params_axpy(q.params, mpfi_dynamic(-eta), g), q.config, q.X, q.Y);
      conds.push_back(certify_le("L(theta - eta g) <= L(theta) - " + constant + " eta ||g||^2, eta = eta_max/" + std::to_string(k), f1,
                                 mpfi_dynamic(f0 - mpfi_dynamic(factor) * eta * g2 / mpfi_dynamic(2))));
    }
    return combine(std::move(conds), "MPFI: the exact gradient enclosed, the loss over the box theta - eta g; eta_max the double run's");
  }
};

}  // namespace thm::qin

THM_REGISTER_CLAIM(thm::qin::DescentLemma)
