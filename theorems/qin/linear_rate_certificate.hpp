// The interval certificate of the linear-rate theorem (qin.gd.linear_rate, qin.gd.linear_rate_multilayer;
// docs/derivations/qin.gd.linear_rate.md, "Certificate"). What it proves is about the double run's computed iterates
// theta_t, exact points: for every t, L(theta_t) <= (1 - eta k alpha)^t L(theta_0), sigma_nN(H(theta_t)) >= sigma0 / 2
// and ||theta_t - theta_0|| <= rho, with eta and rho the run's (exact doubles), sigma0 = sigma_nN(H(theta_0)) and
// alpha = sigma0^2 / 4 exact (enclosed), k = 1 for the claim and control_factor for its control. The hypotheses (H1),
// (H2) are the double run's. The note bounds how far each computed step is from the exact GD step from the same
// iterate, max_t ||theta_{t+1} - (theta_t - eta grad L(theta_t))||, enclosed too: the sequence proved about is within
// that of exact GD step by step.
#pragma once

#include "numerics/interval_functions.hpp"
#include "numerics/models/qin/transformer_interval.hpp"
#include "theorems/certify.hpp"
#include "theorems/qin/linear_rate.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace thm::detail {

inline Certification certify_linear_rate(const Instance& inst, bool multilayer, bool all_blocks, int digits, double factor) {
  const RateTrajectory<double> traj = rate_trajectory<double>(inst, multilayer, all_blocks);
  if (traj.discard) return certified_discard("the double run's hypotheses: " + *traj.discard);
  if (traj.run.stop == GdStop::diverged) return not_certified("the double run diverged: no finite iterates to certify");
  using I = mpfi_dynamic;
  const IntervalPrecision guard(static_cast<unsigned>(digits));
  const QModel<I> q = interval_qin_model(inst);
  const auto lifted = [](const TransformerParams<double>& p) {
    TransformerParams<I> out;
    for (const TransformerBlock<double>& b : p.blocks)
      out.blocks.push_back({to_interval(b.W_Q), to_interval(b.W_K), to_interval(b.W_V), to_interval(b.W_1), to_interval(b.W_2)});
    out.W_U = to_interval(p.W_U);
    return out;
  };
  const I eta(traj.setup.eta), rho(traj.setup.rho);
  const std::vector<TransformerParams<double>>& path = traj.run.path;
  const std::string scaled = factor == 1.0 ? "" : "[alpha x " + exact_decimal(factor) + "] ";
  std::vector<CertifiedCondition> conds;
  I sigma0, contraction, bound, f0;
  mpfr_dynamic step_error(0);
  std::vector<I> losses(path.size());
  for (std::size_t t = 0; t < path.size(); ++t) {
    const TransformerParams<I> theta = lifted(path[t]);
    I loss;
    TransformerParams<I> g = transformer_gradient(theta, q.config, q.X, q.Y, &loss);
    const I sigma_t = enclose_singular_values(stack_rows(transformer_forward(theta, q.config, q.X, q.Y).H.back())).sigma.back();
    if (t == 0) {
      sigma0 = sigma_t;
      f0 = loss;
      contraction = I(1) - eta * I(factor) * sigma0 * sigma0 / I(4);
      bound = f0;
    } else {
      bound *= contraction;
      const std::string ts = std::to_string(t);
      conds.push_back(certify_le(scaled + "L_" + ts + " <= (1 - eta alpha)^" + ts + " L_0", loss, bound));
      conds.push_back(certify_le("sigma_nN(H_" + ts + ") >= sigma0 / 2", I(sigma0 / I(2)), sigma_t));
      I dist2(0);
      for (std::size_t k = 0; k < theta.block_count(); ++k) dist2 += squared_frobenius(IMat(theta.block(k) - to_interval(path[0].block(k))));
      conds.push_back(certify_le("||theta_" + ts + " - theta_0|| <= rho", I(sqrt(dist2)), rho));
    }
    if (t + 1 < path.size()) {  // the computed step against the exact GD step from theta_t
      I e2(0);
      for (std::size_t k = 0; k < theta.block_count(); ++k) {
        const IMat exact = k < traj.trainable.size() && traj.trainable[k] ? IMat(theta.block(k) - eta * g.block(k)) : theta.block(k);
        e2 += squared_frobenius(IMat(to_interval(path[t + 1].block(k)) - exact));
      }
      step_error = std::max(step_error, upper(I(sqrt(e2))));
    }
  }
  char note[160];
  std::snprintf(note, sizeof note, "MPFI at every computed iterate (%zu); each computed step within %.2e of the exact GD step",
                path.size(), upper_double(I(step_error)));
  return combine(std::move(conds), note);
}

}  // namespace thm::detail
