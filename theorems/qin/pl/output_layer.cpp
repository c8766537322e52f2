// qin.pl.output_layer (derived; docs/derivations/qin.pl.output_layer.md)
//
// The full model, Hs the stacked features the output layer W_U reads, L the squared loss:
//   nN <= d:  ||grad_{W_U} L||_F^2 >= 2 sigma_{nN}(Hs)^2 L.
// Negative control: sigma_1(Hs) in place of sigma_{nN}(Hs).
#include "numerics/fault.hpp"
#include "numerics/models/qin/attention.hpp"
#include "numerics/random.hpp"
#include "numerics/random_matrix.hpp"
#include "numerics/spectral.hpp"
#include "numerics/models/qin/transformer.hpp"
#include "theorems/qin/model_cases.hpp"
#include "theorems/qin/training.hpp"
#include "numerics/models/qin/model_instance.hpp"
#include "numerics/interval_functions.hpp"
#include "numerics/models/qin/transformer_interval.hpp"
#include "theorems/certify.hpp"
#include "theorems/register_claim.hpp"

#include <string>

namespace thm::qin {

struct PlOutputLayer {
  static ClaimInfo info() {
    return {
        .id = "qin.pl.output_layer",
        .source = "Q",
        .provenance = Provenance::derived,
        .kind = ClaimKind::inequality,
        .statement = "nN <= d: ||grad_{W_U} L||_F^2 >= 2 sigma_{nN}(Hs)^2 L",
        .negative_control = "sigma_1(Hs) in place of sigma_{nN}(Hs)",
        .default_cases = 100,
        .resolving_factor = 1,  // thmcheck power --claims qin.pl.output_layer --seeds 1..20
    };
  }

  // The instances it reads (numerics/instance_schema.hpp): what the generator below draws.
  static InstanceSchema schema() {
    return qin_model_schema(wide_limits(3, 4, 24, 3));
  }
  static Instance generate(ChoiceSource& src) {
    QModelSpec s = wide_spec(src, 3, 4);
    s.L = static_cast<int>(src.integer(1, 3));
    s.config.activation = any_activation(src);
    const bool adversarial = src.coin(0.3);
    const double t = src.log_real(1e-3, 10.0);
    s.entropy = src.entropy();
    Instance inst = build_qin_model(s);
    if (adversarial) {
      // Tight case: Ys = Hs W_U - t u v^T with u the bottom left singular vector of Hs, so the residual
      // lies entirely along sigma_nN(Hs) (derivation, "Tightness").
      const QModel<double> q = qin_model_double(inst);
      const TransformerTrace<double> tr = transformer_forward(q.params, q.config, q.X, q.Y);
      const MatD Hs = stack_rows(tr.H.back());
      Eigen::JacobiSVD<MatD> svd(Hs, Eigen::ComputeFullU);
      const VecD u = svd.matrixU().col(Hs.rows() - 1);
      Rng rng(s.entropy + 1);
      VecD v = gaussian_matrix(rng, s.d_y, 1);
      v /= v.norm();
      for (int i = 0; i < s.n; ++i)
        inst.matrices["Y" + std::to_string(i)] = tr.H.back()[i] * q.params.W_U - t * u.segment(i * s.N, s.N) * v.transpose();
      inst.params["adversarial_targets"] = 1;
      inst.params["adversarial_t"] = t;
    }
    return inst;
  }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant variant) {
    const QModel<T> q = lift_qin_model<T>(inst);
    const TransformerTrace<T> tr = transformer_forward(q.params, q.config, q.X, q.Y);
    const Mat<T> Hs = stack_rows(tr.H.back());
    if (Hs.rows() > Hs.cols()) return Evaluation::discarded("nN > d: Hs cannot have full row rank");
    const Vec<T> s = singular_values(Hs);
    const T sigma_nN = s(Hs.rows() - (THM_FAULT(pl_sigma_index) ? 2 : 1));
    if (!(sigma_nN > singular_value_error_bound<T>(Hs.rows(), Hs.cols(), s(0))))
      return Evaluation::discarded("sigma_nN(Hs) is zero to working precision");
    const TransformerParams<T> g = transformer_gradient(q.params, q.config, q.X, q.Y);
    const T lhs = g.W_U.squaredNorm();
    const T sigma = variant == Variant::claim ? sigma_nN : s(0);
    const T rhs = T(2) * sigma * sigma * tr.loss;
    // A computed sigma carries an absolute error of about eps ||Hs|| (SVD and the entries of Hs), so
    // sigma^2 carries the relative error 2 err / sigma: large when Hs is ill-conditioned.
    const T sigma_err = detail::sigma_noise(q, Hs, s(0));
    const T rhs_noise = rhs * (T(2) * sigma_err / sigma + sigma_err * sigma_err / (sigma * sigma));
    Evaluation e;
    e.conditions.push_back(make_ge<T>(variant == Variant::claim ? "||grad_W_U L||^2 >= 2 sigma_nN(Hs)^2 L"
                                                                : "||grad_W_U L||^2 >= 2 sigma_1(Hs)^2 L",
                                      lhs, rhs, detail::model_noise(q, lhs, rhs, detail::loss_cancellation(tr, q)) + rhs_noise));
    e.observations = {{"loss", to_double(tr.loss)},
                      {"sigma_nN(Hs)", to_double(sigma_nN)},
                      {"sigma_1(Hs)", to_double(s(0))},
                      {"PL ratio ||grad_W_U||^2 / (2 L)", to_double(T(lhs / (T(2) * tr.loss)))}};
    return e;
  }

  // The exact loss, gradient and Hs of the instance's model enclosed in MPFI (the model's own code on intervals),
  // sigma_nN(Hs) by residual and Weyl: the margin ||grad_W_U L||^2 - 2 sigma^2 L enclosed.
  static Certification certify(const Instance& inst, int digits, Variant variant) {
    const IntervalPrecision guard(static_cast<unsigned>(digits));
    const QModel<mpfi_dynamic> q = interval_qin_model(inst);
    const TransformerTrace<mpfi_dynamic> tr = transformer_forward(q.params, q.config, q.X, q.Y);
    const IMat Hs = stack_rows(tr.H.back());
    if (Hs.rows() > Hs.cols()) return certified_discard("nN > d: Hs cannot have full row rank");
    const SingularValueEnclosure s = enclose_singular_values(Hs);
    const TransformerParams<mpfi_dynamic> g = transformer_gradient(q.params, q.config, q.X, q.Y);
    const mpfi_dynamic sigma = variant == Variant::claim ? s.sigma.back() : s.sigma.front();
    return combine({certify_le(variant == Variant::claim ? "||grad_W_U L||^2 >= 2 sigma_nN(Hs)^2 L" : "||grad_W_U L||^2 >= 2 sigma_1(Hs)^2 L",
                               mpfi_dynamic(mpfi_dynamic(2) * sigma * sigma * tr.loss), squared_frobenius(g.W_U))},
                   "MPFI: the model's forward pass and exact gradient on intervals; sigma(Hs) by residual + Weyl");
  }
};

}  // namespace thm::qin

THM_REGISTER_CLAIM(thm::qin::PlOutputLayer)
