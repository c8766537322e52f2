// Tests of the verifier itself: the explicit constants a (sup ||dYhat||), J (sup ||dH||) and Lg (sup
// |d^2 L|) that qin.gd.linear_rate and qin.gd.descent_lemma rest on must bound what the model does
// on the ball. Random points of the ball, random unit directions, derivatives by central
// differences at mp50 (step 1e-15: error about 1e-20 relative).
#include "tests/support/mp50.hpp"
#include "numerics/models/qin/attention.hpp"
#include "numerics/random.hpp"
#include "numerics/random_matrix.hpp"
#include "numerics/spectral.hpp"
#include "properties/runner.hpp"
#include "theorems/qin/linear_rate.hpp"
#include "theorems/qin/training.hpp"
#include "numerics/models/qin/model_instance.hpp"
#include "theorems/registry.hpp"

#include <doctest/doctest.h>

#include <cmath>

using namespace thm;
using T = mp50;

namespace {

TransformerParams<T> random_direction(const TransformerParams<T>& like, Rng& rng, const std::vector<bool>& blocks) {
  TransformerParams<T> v = like;
  T n2 = 0;
  for (std::size_t k = 0; k < v.block_count(); ++k) {
    Mat<T>& b = v.block(k);
    for (Eigen::Index i = 0; i < b.size(); ++i) b.data()[i] = blocks[k] ? T(rng.normal()) : T(0);
    n2 += b.squaredNorm();
  }
  const T s = T(1) / sqrt(n2);
  for (std::size_t k = 0; k < v.block_count(); ++k) v.block(k) *= s;
  return v;
}

struct Derivatives {
  T dY, dH, d2f;  // ||dYhat[E]||, ||dH[E]||, d^2 L[E, E]
};

Derivatives derivatives(const QModel<T>& q, const TransformerParams<T>& theta, const TransformerParams<T>& e, std::size_t layer = 0) {
  const T h("1e-15");
  const auto plus = transformer_forward(params_axpy(theta, h, e), q.config, q.X, q.Y);
  const auto minus = transformer_forward(params_axpy(theta, T(-h), e), q.config, q.X, q.Y);
  const auto mid = transformer_forward(theta, q.config, q.X, q.Y);
  T dY2 = 0, dH2 = 0;
  for (std::size_t i = 0; i < q.X.size(); ++i) {
    dY2 += ((plus.residual[i] - minus.residual[i]) / (T(2) * h)).squaredNorm();  // Y cancels
    dH2 += ((plus.H[layer][i] - minus.H[layer][i]) / (T(2) * h)).squaredNorm();
  }
  return {sqrt(dY2), sqrt(dH2), (plus.loss - T(2) * mid.loss + minus.loss) / (h * h)};
}

// Worst observed ratio (derivative / bound) over points of the ball and directions.
void check_bounds(bool all_blocks) {
  const Claim& c = *select_claims("qin.gd.linear_rate").front();
  double worst_a = 0, worst_J = 0, worst_Lg = 0;
  int checked = 0;
  for (int i = 0; i < 12; ++i) {
    const QModel<T> q = lift_qin_model<T>(generate_case(c, 7, i, 12));
    const TransformerBlock<T>& b = q.params.blocks[0];
    const TransformerTrace<T> tr = transformer_forward(q.params, q.config, q.X, q.Y);
    const T rho = T(0.05);
    detail::FfnSmoothness<T> sm;
    std::vector<bool> blocks(6, true);
    if (all_blocks) {
      sm = detail::all_blocks_smoothness(detail::all_blocks_point(q, tr.loss), rho);
    } else {
      detail::FfnPoint<T> p;
      const Mat<T> Zs = stack_rows(tr.V[0]);
      p.z = spectral_norm(Zs);
      p.w1_fro = b.W_1.norm();
      p.w2 = spectral_norm(b.W_2);
      p.wU = spectral_norm(q.params.W_U);
      p.f0 = tr.loss;
      p.gamma = T(q.config.ffn_residual);
      p.rows_m = T(double(Zs.rows()) * double(b.W_1.cols()));
      p.activation = q.config.activation;
      sm = detail::ffn_smoothness(p, rho);
      blocks = {false, false, false, true, true, true};
    }
    Rng rng(100 + i);
    for (int point = 0; point < 4; ++point) {
      // A point of the ball: theta0 + r u, |u| = 1, r in [0, rho].
      const TransformerParams<T> theta =
          params_axpy(q.params, T(rho * T(rng.uniform01())), random_direction(q.params, rng, blocks));
      for (int dir = 0; dir < 4; ++dir) {
        const Derivatives d = derivatives(q, theta, random_direction(q.params, rng, blocks));
        using std::abs;
        worst_a = std::max(worst_a, to_double(T(d.dY / sm.a)));
        worst_J = std::max(worst_J, to_double(T(d.dH / sm.J)));
        worst_Lg = std::max(worst_Lg, to_double(T(abs(d.d2f) / sm.Lg)));
        ++checked;
      }
    }
  }
  MESSAGE((all_blocks ? "all blocks" : "FFN + head") << ": worst observed / bound: a " << worst_a << ", J " << worst_J
                                                    << ", Lg " << worst_Lg << " over " << checked << " (point, direction) pairs");
  CHECK(checked == 12 * 16);
  CHECK(worst_a <= 1.0);
  CHECK(worst_J <= 1.0);
  CHECK(worst_Lg <= 1.0);
  CHECK(worst_a > 0.0);  // the check measured something
}

}  // namespace

// The sharper constants (docs/derivations/qin.gd.linear_rate.md, "Sharper constants"): all six blocks of one
// layer (qin.gd.linear_rate) or the last block's FFN and the head of an L-block stack (qin.gd.linear_rate_multilayer),
// on the ball of radius 0.05 and of the claim's own radius rho*. Also reports how much smaller they are than the
// products of norms (all blocks).
void check_sharp_bounds(const char* id, bool all_blocks) {
  const Claim& c = *select_claims(id).front();
  double worst_a = 0, worst_J = 0, worst_Lg = 0, gain_a = 0, gain_J = 0, gain_Lg = 0;
  int checked = 0, compared = 0;
  for (int i = 0; i < 12; ++i) {
    const QModel<T> q = lift_qin_model<T>(generate_case(c, 7, i, 12));
    const std::size_t L = q.params.blocks.size();
    const TransformerTrace<T> tr = transformer_forward(q.params, q.config, q.X, q.Y);
    const detail::SharpPoint<T> point = detail::sharp_point(q, tr, all_blocks);
    const RateSetup<T> setup = rate_setup(q, tr, all_blocks);
    const std::vector<bool> blocks = all_blocks ? std::vector<bool>(5 * L + 1, true) : detail::ffn_and_head_blocks(L);
    for (const T& rho : {T(0.05), setup.rho_star}) {
      const detail::FfnSmoothness<T> sm = detail::sharp_smoothness(point, rho);
      if (all_blocks && L == 1) {
        const detail::FfnSmoothness<T> old = detail::all_blocks_smoothness(detail::all_blocks_point(q, tr.loss), rho);
        gain_a = std::max(gain_a, to_double(T(old.a / sm.a)));
        gain_J = std::max(gain_J, to_double(T(old.J / sm.J)));
        gain_Lg = std::max(gain_Lg, to_double(T(old.Lg / sm.Lg)));
        CHECK(sm.J <= old.J);
        ++compared;
      }
      Rng rng(200 + i);
      for (int point_index = 0; point_index < 4; ++point_index) {
        const TransformerParams<T> theta =
            params_axpy(q.params, T(rho * T(rng.uniform01())), random_direction(q.params, rng, blocks));
        for (int dir = 0; dir < 4; ++dir) {
          const Derivatives d = derivatives(q, theta, random_direction(q.params, rng, blocks), L - 1);
          using std::abs;
          worst_a = std::max(worst_a, to_double(T(d.dY / sm.a)));
          worst_J = std::max(worst_J, to_double(T(d.dH / sm.J)));
          worst_Lg = std::max(worst_Lg, to_double(T(abs(d.d2f) / sm.Lg)));
          ++checked;
        }
      }
    }
  }
  MESSAGE((std::string(id) + (all_blocks ? ", sharp, all blocks" : ", sharp, FFN + head of the last block")) << ": worst observed / bound: a " << worst_a
          << ", J " << worst_J << ", Lg " << worst_Lg << " over " << checked << " (point, direction) pairs");
  if (compared > 0)
    MESSAGE("products of norms / sharp, largest: a " << gain_a << ", J " << gain_J << ", Lg " << gain_Lg << " (" << compared << " radii)");
  CHECK(checked == 12 * 2 * 16);
  CHECK(worst_a <= 1.0);
  CHECK(worst_J <= 1.0);
  CHECK(worst_Lg <= 1.0);
  CHECK(worst_a > 0.0);
}

TEST_CASE("verifier: the sharper all-blocks constants a, J, Lg bound the model on the ball (qin.gd.linear_rate)") {
  check_sharp_bounds("qin.gd.linear_rate", true);
}

TEST_CASE("verifier: the sharper constants propagated through 2-4 layers, all trained, bound the stack on the ball (qin.gd.linear_rate_multilayer)") {
  check_sharp_bounds("qin.gd.linear_rate_multilayer", true);
}

TEST_CASE("verifier: the sharper FFN + head constants bound the last block of a stack on the ball (attention frozen)") {
  check_sharp_bounds("qin.gd.linear_rate_multilayer", false);
}

TEST_CASE("verifier: the FFN + head constants a, J, Lg bound the model on the ball (qin.gd.linear_rate_multilayer)") {
  check_bounds(false);
}

TEST_CASE("verifier: the all-blocks constants a, J, Lg bound the model on the ball (qin.gd.linear_rate, descent_lemma)") {
  check_bounds(true);
}
