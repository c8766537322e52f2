// qin.gd.gradient_step (derived; docs/derivations/qin.gd.gradient_step.md)
//
// Every rate claim of [Q] is about GD, theta_{t+1} = theta_t - eta grad L(theta_t), with the gradient written out
// block by block (W_U, then W_2, W_1, W_V, W_Q, W_K of each layer, back through the attention and FFN residuals).
// This is the statement those claims stand on: the step GD takes is -eta times the derivative of the loss.
//
//   For every block b of every layer and a random unit direction V_b on it, with D = (theta_0 - theta_1) / eta the
//   step of one GD iteration:  | <D_b, V_b> - d/ds L(theta_0 + s V_b) at s = 0 | <= tol_b,
//   the derivative from loss values alone (central differences at h and h/2, one Richardson step), tol_b its
//   estimated truncation plus the rounding of the losses and of D (derivation, "Tolerance"). Sharpens with the digits.
// Negative control: the gradient of the same transformer without its attention residual (beta = 0 in the gradient,
// not in the loss): the formulas of the residual-free model, which hold where the residual carries nothing.
#include "numerics/directional_derivative.hpp"
#include "numerics/models/qin/gd.hpp"
#include "numerics/models/qin/model_instance.hpp"
#include "numerics/models/qin/transformer.hpp"
#include "numerics/random_matrix.hpp"
#include "theorems/qin/model_cases.hpp"
#include "theorems/qin/training.hpp"
#include "theorems/register_claim.hpp"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace thm::qin {

struct GradientStep {
  static constexpr int kMaxLayers = 3;

  static ClaimInfo info() {
    return {
        .id = "qin.gd.gradient_step",
        .source = "Q",
        .provenance = Provenance::derived,
        .kind = ClaimKind::identity,
        .statement = "one GD step theta_1 = theta_0 - eta D on every block of L = 1..3 layers: for every block b and a "
                     "random unit direction V_b, <D_b, V_b> = d/ds L(theta_0 + s V_b) at s = 0 (Richardson central "
                     "differences), within their truncation and rounding",
        .negative_control = "D from the gradient of the transformer without its attention residual (beta = 0 in the gradient only)",
        .default_cases = 40,
        .resolving_factor = 7131,  // thmcheck power --claims qin.gd.gradient_step --seeds 1..20
    };
  }

  static InstanceSchema schema() {
    return qin_model_schema(wide_limits(2, 3, 12, kMaxLayers)).real("eta", 1e-3, 1.0);
  }
  static Instance generate(ChoiceSource& src) {
    QModelSpec s = wide_spec(src, 2, 3);
    s.m = static_cast<int>(src.integer(2, 12));
    s.L = static_cast<int>(src.integer(1, kMaxLayers));
    s.config.beta = src.real(0.25, 1.0);  // the control's power: beta's term must matter (derivation, "Control")
    s.config.activation = smooth_activation(src);
    s.y_scale = src.log_real(0.1, 10.0);
    s.entropy = src.entropy();
    Instance inst = build_qin_model(s);
    inst.params["eta"] = src.log_real(1e-2, 1.0);
    return inst;
  }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant variant) {
    using std::abs;
    using std::sqrt;
    const QModel<T> q = lift_qin_model<T>(inst);
    const T eta(inst.param("eta"));
    GdOptions opt;
    opt.max_steps = 1;
    opt.record_spectra = false;
    opt.divergence_factor = 1e300;
    const GdRun<T> run = gradient_descent(q.params, q.config, q.X, q.Y, opt, eta, true);
    if (run.path.size() != 2) return Evaluation::discarded("GD did not take its step (non-finite loss)");
    TransformerParams<T> D = params_axpy(q.params, T(-1), run.path[1]);  // theta_0 - theta_1 = eta grad L
    if (variant == Variant::negative_control) {
      TransformerConfig without = q.config;
      without.beta = 0;
      D = transformer_gradient(q.params, without, q.X, q.Y);
      D = params_axpy(D, T(eta - T(1)), D);  // eta times it, as the step holds
    }
    const TransformerTrace<T> tr = transformer_forward(q.params, q.config, q.X, q.Y);
    const T cancellation = detail::loss_cancellation(tr, q);
    const T u = epsilon<T>();
    const T size = T(64.0 * detail::model_size(q) * double(q.params.blocks.size()));
    const T delta = size * u * tr.loss * (T(1) + cancellation);  // rounding of one loss value (noise-model.md)
    const std::vector<std::string> names = transformer_block_names(q.params.blocks.size());
    Rng rng(static_cast<std::uint64_t>(inst.param("entropy")) + 2);  // directions: a stream apart from the weights
    Evaluation e;
    for (std::size_t b = 0; b < q.params.block_count(); ++b) {
      const Mat<T>& theta_b = q.params.block(b);
      MatD v = gaussian_matrix(rng, static_cast<int>(theta_b.rows()), static_cast<int>(theta_b.cols()));
      v /= v.norm();
      const Mat<T> V = lift<T>(v);
      const T h = sqrt(sqrt(u)) * std::max<T>(T(1), T(theta_b.norm()));
      const auto loss_along = [&](const T& s) {
        TransformerParams<T> p = q.params;
        p.block(b) += s * V;
        return transformer_loss(p, q.config, q.X, q.Y);
      };
      const DirectionalDerivative<T> dd = directional_derivative<T>(loss_along, h);
      const T step = D.block(b).cwiseProduct(V).sum() / eta;  // <D_b, V_b>
      const T step_noise = size * u * (D.block(b).norm() / eta * (T(1) + cancellation) + (theta_b.norm() + run.path[1].block(b).norm()) / eta);
      const T tol = dd.truncation + directional_rounding(delta, h) + step_noise;
      e.conditions.push_back(make_le<T>("|<D, V> - dL/ds| on " + names[b], T(abs(T(step - dd.value))), tol, T(0)));
      e.add_point("|<D, V>| by block", "block", double(b), to_double(T(abs(step))));
      e.add_point("tolerance by block", "block", double(b), to_double(tol));
    }
    e.observations = {{"L", double(q.params.blocks.size())}, {"loss", to_double(tr.loss)}, {"eta", to_double(eta)},
                      {"||D||", to_double(T(sqrt(params_dot(D, D)) / eta))}};
    return e;
  }
};

}  // namespace thm::qin

THM_REGISTER_CLAIM(thm::qin::GradientStep)
