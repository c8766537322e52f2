// qin.pl.first_ffn_layer (derived; docs/derivations/qin.pl.first_ffn_layer.md)
//
// The full model (single layer), Zs the stacked attention output the FFN reads, Rs the stacked residual:
//   nN <= d:  ||grad_{W_1} L||_F >= sigma_{nN}(Zs) ||D||_F,  D = (Rs W_U^T W_2^T) o sigma'(Zs W_1).
// Negative control: sigma_1(Zs) in place of sigma_{nN}(Zs).
#include "numerics/activation.hpp"
#include "numerics/spectral.hpp"
#include "numerics/models/qin/transformer.hpp"
#include "theorems/qin/model_cases.hpp"
#include "theorems/qin/training.hpp"
#include "numerics/models/qin/model_instance.hpp"
#include "numerics/interval_functions.hpp"
#include "numerics/models/qin/transformer_interval.hpp"
#include "theorems/certify.hpp"
#include "theorems/register_claim.hpp"

namespace thm::qin {

struct PlFirstFfnLayer {
  static ClaimInfo info() {
    return {
        .id = "qin.pl.first_ffn_layer",
        .source = "Q",
        .provenance = Provenance::derived,
        .kind = ClaimKind::inequality,
        .statement = "nN <= d: ||grad_{W_1} L||_F >= sigma_{nN}(Zs) ||D||_F, D = (Rs W_U^T W_2^T) o sigma'(Zs W_1)",
        .negative_control = "sigma_1(Zs) in place of sigma_{nN}(Zs)",
        .default_cases = 100,
        .resolving_factor = 1.852,  // thmcheck power --claims qin.pl.first_ffn_layer --seeds 1..20
    };
  }

  // The instances it reads (numerics/instance_schema.hpp): what the generator below draws.
  static InstanceSchema schema() {
    return qin_model_schema(wide_limits(3, 4));
  }
  static Instance generate(ChoiceSource& src) {
    QModelSpec s = wide_spec(src, 3, 4);
    s.config.activation = any_activation(src);
    s.entropy = src.entropy();
    return build_qin_model(s);
  }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant variant) {
    const QModel<T> q = lift_qin_model<T>(inst);
    if (q.params.blocks.size() != 1) return Evaluation::discarded("the claim is stated for a single layer (L = 1)");
    const TransformerTrace<T> tr = transformer_forward(q.params, q.config, q.X, q.Y);
    const Mat<T> Zs = stack_rows(tr.V[0]), Rs = stack_rows(tr.residual);
    if (Zs.rows() > Zs.cols()) return Evaluation::discarded("nN > d: Zs cannot have full row rank");
    const Vec<T> s = singular_values(Zs);
    const T sigma_nN = s(Zs.rows() - 1);
    if (!(sigma_nN > singular_value_error_bound<T>(Zs.rows(), Zs.cols(), s(0))))
      return Evaluation::discarded("sigma_nN(Zs) is zero to working precision");
    const TransformerBlock<T>& b = q.params.blocks[0];
    const Activation act = q.config.activation;
    const Mat<T> D = (Rs * q.params.W_U.transpose() * b.W_2.transpose())
                         .cwiseProduct((Zs * b.W_1).unaryExpr([act](const T& x) { return activate_prime(act, x); }));
    const TransformerParams<T> g = transformer_gradient(q.params, q.config, q.X, q.Y);
    const T lhs = g.blocks[0].W_1.norm();
    const T sigma = variant == Variant::claim ? sigma_nN : s(0);
    const T rhs = sigma * D.norm();
    const T rhs_noise = rhs * detail::sigma_noise(q, Zs, s(0)) / sigma;  // as for the output layer
    Evaluation e;
    e.conditions.push_back(make_ge<T>(variant == Variant::claim ? "||grad_W_1 L||_F >= sigma_nN(Zs) ||D||_F"
                                                                : "||grad_W_1 L||_F >= sigma_1(Zs) ||D||_F",
                                      lhs, rhs, detail::model_noise(q, lhs, rhs, detail::loss_cancellation(tr, q)) + rhs_noise));
    e.observations = {{"sigma_nN(Zs)", to_double(sigma_nN)}, {"sigma_1(Zs)", to_double(s(0))}, {"||D||_F", to_double(D.norm())}};
    return e;
  }

  // The exact Zs, residual, D and gradient enclosed in MPFI (the model's own code on intervals), sigma_nN(Zs) by
  // residual and Weyl: the margin ||grad_W_1 L||_F - sigma ||D||_F enclosed.
  static Certification certify(const Instance& inst, int digits, Variant variant) {
    const IntervalPrecision guard(static_cast<unsigned>(digits));
    const QModel<mpfi_dynamic> q = interval_qin_model(inst);
    if (q.params.blocks.size() != 1) return certified_discard("the claim is stated for a single layer (L = 1)");
    const TransformerTrace<mpfi_dynamic> tr = transformer_forward(q.params, q.config, q.X, q.Y);
    const IMat Zs = stack_rows(tr.V[0]), Rs = stack_rows(tr.residual);
    if (Zs.rows() > Zs.cols()) return certified_discard("nN > d: Zs cannot have full row rank");
    const SingularValueEnclosure s = enclose_singular_values(Zs);
    const TransformerBlock<mpfi_dynamic>& b = q.params.blocks[0];
    const Activation act = q.config.activation;
    const IMat D = IMat(Rs * q.params.W_U.transpose() * b.W_2.transpose())
                       .cwiseProduct(IMat(Zs * b.W_1).unaryExpr([act](const mpfi_dynamic& x) { return activate_prime(act, x); }));
    const TransformerParams<mpfi_dynamic> g = transformer_gradient(q.params, q.config, q.X, q.Y);
    const mpfi_dynamic sigma = variant == Variant::claim ? s.sigma.back() : s.sigma.front();
    return combine({certify_le(variant == Variant::claim ? "||grad_W_1 L||_F >= sigma_nN(Zs) ||D||_F" : "||grad_W_1 L||_F >= sigma_1(Zs) ||D||_F",
                               mpfi_dynamic(sigma * frobenius(D)), frobenius(g.blocks[0].W_1))},
                   "MPFI: the model's forward pass and exact gradient on intervals; sigma(Zs) by residual + Weyl");
  }
};

}  // namespace thm::qin

THM_REGISTER_CLAIM(thm::qin::PlFirstFfnLayer)
