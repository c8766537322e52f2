// qin.model.matches_definition (derived; docs/derivations/qin.model.matches_definition.md)
//
// Every [Q] claim reads the transformer through the model code it checks (transformer_forward, attention_forward), so
// a mistake made the same way in the forward and the backward pass (a logit scale 1/d, beta applied twice) passes every
// gradient check. This claim compares the model with [Q]'s definition (docs/derivations/qin.model.md), written out
// below in plain loops that share nothing with numerics/ but the storage:
//   K = c (U W_Q)(U W_K)^T, c = 1/sqrt(d),  S = softmax_rows(K),  V = S U W_V + beta U,
//   H = sigma(V W_1) W_2 + gamma V  (block l + 1 takes U = H),   R_i = H_L W_U - Y_i,   L = 1/2 sum_i ||R_i||^2,
// evaluated at 2 D + 20 digits (D the working precision's) on the same double inputs. Every block's V and H, every
// residual R_i, the loss and the attention-only block Z = S X W_V + beta X of the residual claims (on block 1's input)
// are each within
//   tol = 64 (L + 1) k max(kappa, 1) eps
// of the definition, relative, k the largest inner dimension, kappa the quantity's relative condition under random
// relative perturbations of every input (the conformance rule, docs/derivations/conformance.md). Half the cases have
// logits past exp's range at double (|K| > 709), where only a max-shifted softmax stays finite.
// Negative control: the definition with the other common logit scale, c = 1/d.
#include "numerics/models/qin/attention.hpp"
#include "numerics/models/qin/model_instance.hpp"
#include "numerics/models/qin/transformer.hpp"
#include "numerics/random.hpp"
#include "theorems/qin/model_cases.hpp"
#include "theorems/register_claim.hpp"

#include <boost/math/constants/constants.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace thm::qin {

namespace definition {

using R = mpfr_dynamic;

// C = A B, entry by entry.
inline Mat<R> times(const Mat<R>& A, const Mat<R>& B) {
  Mat<R> C(A.rows(), B.cols());
  for (Eigen::Index i = 0; i < A.rows(); ++i)
    for (Eigen::Index j = 0; j < B.cols(); ++j) {
      R s = 0;
      for (Eigen::Index k = 0; k < A.cols(); ++k) s += A(i, k) * B(k, j);
      C(i, j) = s;
    }
  return C;
}

// sigma(x) for the four activations of qin.model.md; GELU's constants exact at every precision.
inline R sigma(Activation a, const R& x) {
  switch (a) {
    case Activation::softplus:
      return x > 0 ? R(x + log(R(1) + exp(R(-x)))) : R(log(R(1) + exp(x)));
    case Activation::tanh:
      return tanh(x);
    case Activation::gelu: {
      const R k = sqrt(R(2) / boost::math::constants::pi<R>());
      return x / 2 * (R(1) + tanh(R(k * (x + R(44715) / R(1000000) * x * x * x))));
    }
    case Activation::relu:
      return x > 0 ? x : R(0);
  }
  return x;
}

// Every quantity the claim compares, in a fixed order: V[l][i], H[l][i] by block and sample, R_i, the loss (1 x 1),
// and the attention-only block's Z_i on block 1's input.
struct Quantities {
  std::vector<std::pair<std::string, Mat<R>>> q;
  double max_logit = 0;
};

// The definition on the inputs times (1 + delta s), s = +-1 drawn from `rng` entry by entry (delta = 0: the inputs).
inline Quantities evaluate(const QModel<double>& m, bool logit_scale_1_over_d, Rng& rng, const R& delta) {
  const auto input = [&](const MatD& a) {
    Mat<R> r(a.rows(), a.cols());
    for (Eigen::Index e = 0; e < a.size(); ++e) {
      const R sign = delta == 0 ? R(0) : R(rng.bernoulli(0.5) ? -1 : 1);
      r.data()[e] = R(a.data()[e]) * (R(1) + delta * sign);
    }
    return r;
  };
  const auto scalar = [&](double a) { return input(MatD::Constant(1, 1, a))(0, 0); };
  const R beta = scalar(m.config.beta), gamma = scalar(m.config.ffn_residual);
  const std::size_t layers = m.params.blocks.size(), samples = m.X.size();
  struct Block {
    Mat<R> W_Q, W_K, W_V, W_1, W_2;
  };
  std::vector<Block> blocks;
  for (const auto& b : m.params.blocks) blocks.push_back({input(b.W_Q), input(b.W_K), input(b.W_V), input(b.W_1), input(b.W_2)});
  const Mat<R> W_U = input(m.params.W_U);
  Quantities out;
  std::vector<Mat<R>> V(layers * samples), H(layers * samples), Res(samples), Z(samples);
  R loss = 0;
  for (std::size_t i = 0; i < samples; ++i) {
    Mat<R> U = input(m.X[i]);
    const Mat<R> Y = input(m.Y[i]);
    const Eigen::Index N = U.rows(), d = U.cols();
    const R c = logit_scale_1_over_d ? R(R(1) / R(d)) : R(R(1) / sqrt(R(d)));
    for (std::size_t l = 0; l < layers; ++l) {
      const Block& b = blocks[l];
      const Mat<R> XQ = times(U, b.W_Q), XK = times(U, b.W_K), XV = times(U, b.W_V);
      Mat<R> S(N, N);
      for (Eigen::Index r = 0; r < N; ++r) {
        std::vector<R> logit(static_cast<std::size_t>(N));
        R top = 0;
        for (Eigen::Index s = 0; s < N; ++s) {
          R k = 0;
          for (Eigen::Index j = 0; j < d; ++j) k += XQ(r, j) * XK(s, j);
          logit[s] = c * k;
          top = s == 0 ? logit[s] : std::max(top, logit[s]);
          out.max_logit = std::max(out.max_logit, static_cast<double>(abs(logit[s])));
        }
        R mass = 0;
        for (Eigen::Index s = 0; s < N; ++s) mass += exp(R(logit[s] - top));
        for (Eigen::Index s = 0; s < N; ++s) S(r, s) = exp(R(logit[s] - top)) / mass;
      }
      Mat<R> Vl = times(S, XV);
      for (Eigen::Index e = 0; e < Vl.size(); ++e) Vl.data()[e] += beta * U.data()[e];
      Mat<R> Phi = times(Vl, b.W_1);
      for (Eigen::Index e = 0; e < Phi.size(); ++e) Phi.data()[e] = sigma(m.config.activation, Phi.data()[e]);
      Mat<R> Hl = times(Phi, b.W_2);
      for (Eigen::Index e = 0; e < Hl.size(); ++e) Hl.data()[e] += gamma * Vl.data()[e];
      if (l == 0) Z[i] = Vl;
      V[l * samples + i] = Vl;
      H[l * samples + i] = Hl;
      U = Hl;
    }
    Mat<R> Ri = times(U, W_U);
    for (Eigen::Index e = 0; e < Ri.size(); ++e) {
      Ri.data()[e] -= Y.data()[e];
      loss += Ri.data()[e] * Ri.data()[e] / 2;
    }
    Res[i] = Ri;
  }
  for (std::size_t l = 0; l < layers; ++l)
    for (std::size_t i = 0; i < samples; ++i) out.q.emplace_back("V", V[l * samples + i]);
  for (std::size_t l = 0; l < layers; ++l)
    for (std::size_t i = 0; i < samples; ++i) out.q.emplace_back("H", H[l * samples + i]);
  for (std::size_t i = 0; i < samples; ++i) out.q.emplace_back("R", Res[i]);
  out.q.emplace_back("L", Mat<R>::Constant(1, 1, loss));
  for (std::size_t i = 0; i < samples; ++i) out.q.emplace_back("Z", Z[i]);
  return out;
}

}  // namespace definition

struct MatchesDefinition {
  static constexpr int kMaxLayers = 3;
  static constexpr int kPerturbations = 3;

  static ClaimInfo info() {
    return {
        .id = "qin.model.matches_definition",
        .source = "Q",
        .provenance = Provenance::derived,
        .kind = ClaimKind::identity,
        .statement = "the transformer of L = 1..3 blocks computes [Q]'s definition: every block's attention output V = "
                     "softmax_rows(c U W_Q (U W_K)^T) U W_V + beta U and output H = sigma(V W_1) W_2 + gamma V, every residual "
                     "H_L W_U - Y_i, the loss, and the attention-only block, against the definition in plain loops at 2D + 20 "
                     "digits, within 64 (L + 1) k kappa eps, logits up to past exp's range",
        .negative_control = "the definition with the logit scale c = 1/d instead of 1/sqrt(d)",
        .default_cases = 40,
        .ladder_checks = 0,  // a statement about the working precision's own evaluation: no rung re-judges it
        .resolving_factor = 1315,  // thmcheck power --claims qin.model.matches_definition --seeds 1..20
    };
  }

  static InstanceSchema schema() { return qin_model_schema({2, 4, 8, 8, 3, kMaxLayers}); }
  // n = 1..2 samples of N = 2..4 tokens, d = 2..8, FFN width m = 2..8, d_y = 1..3, L = 1..3 blocks, any activation,
  // beta in [0, 1], and W_Q, W_K scaled by a gain: with probability 1/2 log-uniform in [0.1, 3] (softmax rows from
  // nearly uniform to peaked), otherwise in [30, 300] (one-hot rows, logits past exp's range at double; derivation,
  // "Hypotheses and generator").
  static Instance generate(ChoiceSource& src) {
    QModelSpec s;
    s.n = static_cast<int>(src.integer(1, 2));
    s.N = static_cast<int>(src.integer(2, 4));
    s.d = static_cast<int>(src.integer(2, 8));
    s.m = static_cast<int>(src.integer(2, 8));
    s.d_y = static_cast<int>(src.integer(1, 3));
    s.L = static_cast<int>(src.integer(1, kMaxLayers));
    s.config.activation = any_activation(src);
    s.config.beta = src.real(0.0, 1.0);
    s.attn_scale = src.coin(0.5) ? src.log_real(0.1, 3.0) : src.log_real(30.0, 300.0);
    s.entropy = src.entropy();
    return build_qin_model(s);
  }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant variant) {
    using definition::R;
    const QModel<double> qd = qin_model_double(inst);
    const QModel<T> q = lift_model<T>(qd);
    const std::size_t layers = q.params.blocks.size(), samples = q.X.size();
    const TransformerTrace<T> tr = transformer_forward(q.params, q.config, q.X, q.Y);
    std::vector<Mat<T>> got;
    for (std::size_t l = 0; l < layers; ++l)
      for (std::size_t i = 0; i < samples; ++i) got.push_back(tr.V[l][i]);
    for (std::size_t l = 0; l < layers; ++l)
      for (std::size_t i = 0; i < samples; ++i) got.push_back(tr.H[l][i]);
    for (std::size_t i = 0; i < samples; ++i) got.push_back(tr.residual[i]);
    got.push_back(Mat<T>::Constant(1, 1, tr.loss));
    const auto& b0 = q.params.blocks.front();
    for (std::size_t i = 0; i < samples; ++i) {
      using std::sqrt;
      const AttentionWeights<T> w{b0.W_Q, b0.W_K, b0.W_V, T(T(1) / sqrt(T(static_cast<double>(q.X[i].cols()))))};
      got.push_back(attention_forward(q.X[i], w, T(q.config.beta)).Z);
    }

    const int d = static_cast<int>(qd.X.front().cols()), N = static_cast<int>(qd.X.front().rows());
    const int inner = std::max({d, N, static_cast<int>(qd.params.blocks.front().W_1.cols())});
    const double eps = to_double(epsilon<T>());
    const int D = decimal_digits<T>();
    std::vector<double> err(got.size()), kappa(got.size(), 0.0);
    std::vector<std::string> names;
    double max_logit = 0;
    {
      const DigitsGuard guard(2 * D + 20);
      const bool control = variant == Variant::negative_control;
      // The perturbations: a stream apart from the weights (an instance from outside the suite has no entropy: stream 0).
      Rng rng(static_cast<std::uint64_t>(inst.has_param("entropy") ? inst.param("entropy") : 0) + 7);
      const definition::Quantities want = definition::evaluate(qd, control, rng, R(0));
      max_logit = want.max_logit;
      const R delta = pow(R(10), -(D + 8));  // second order ~ delta kappa^2, the wide evaluation's rounding 1e-(D + 12) of it
      for (int p = 0; p < kPerturbations; ++p) {
        const definition::Quantities moved = definition::evaluate(qd, control, rng, delta);
        for (std::size_t k = 0; k < got.size(); ++k) {
          const R scale = want.q[k].second.norm();
          if (scale > 0) kappa[k] = std::max(kappa[k], static_cast<double>(R((moved.q[k].second - want.q[k].second).norm() / (scale * delta))));
        }
      }
      for (std::size_t k = 0; k < got.size(); ++k) {
        const Mat<R> g = got[k].template cast<R>();
        const R scale = want.q[k].second.norm();
        const R diff = (g - want.q[k].second).norm();
        err[k] = static_cast<double>(scale > 0 ? R(diff / scale) : diff);
        if (!(err[k] <= std::numeric_limits<double>::max())) err[k] = std::numeric_limits<double>::infinity();  // NaN: violated
        names.push_back(want.q[k].first);
      }
    }

    // One condition per kind of quantity: its member with the largest error / tolerance.
    Evaluation e;
    const std::vector<std::pair<std::string, std::string>> kinds = {
        {"V", "attention outputs V (every block, sample)"}, {"H", "block outputs H (every block, sample)"},
        {"R", "residuals H_L W_U - Y_i"},                   {"L", "loss"},
        {"Z", "attention-only block Z on block 1's input"}};
    double worst_ratio = 0, worst_kappa = 0;
    for (const auto& [tag, label] : kinds) {
      double lhs = 0, rhs = 1, ratio = -1;
      for (std::size_t k = 0; k < got.size(); ++k) {
        if (names[k] != tag) continue;
        const double tol = 64.0 * double(layers + 1) * inner * std::max(kappa[k], 1.0) * eps;
        if (err[k] / tol > ratio) {
          ratio = err[k] / tol;
          lhs = err[k];
          rhs = tol;
        }
        worst_kappa = std::max(worst_kappa, kappa[k]);
      }
      worst_ratio = std::max(worst_ratio, ratio);
      e.conditions.push_back(make_le<T>("relative error of the " + label + " <= 64 (L + 1) k kappa eps", T(lhs), T(rhs), T(0)));
    }
    e.observations = {{"L", double(layers)}, {"d", double(d)}, {"max |logit|", max_logit}, {"largest kappa", worst_kappa},
                      {"error / tolerance (worst)", worst_ratio}};
    return e;
  }
};

}  // namespace thm::qin

THM_REGISTER_CLAIM(thm::qin::MatchesDefinition)
