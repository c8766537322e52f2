// goel.finite.prompts_loss (reconstruction; docs/derivations/goel.finite.prompts_loss.md)
//
// The second reading's finite-data loss (prompt_attention.hpp; docs/derivations/goel.finite_data_prompts.md), the one
// the prompts claims train on: n prompts, prompt p of T context tokens x_{p,1..T} and a query q_p with label y_p; the
// query attends over its own prompt's T context tokens,
//   L_{n,T}(A, B) = 1/(2n) sum_p || A sum_{t=1..T} softmax_t(q_p^T B x_{p,t}) x_{p,t} - y_p ||^2,
// evaluated term by term from that formula (a loop over prompts and their tokens, a max-shifted softmax per prompt) at
// 2 D + 20 digits, D the working precision's. The model's L_{n,T} at the working precision is within its first-order
// rounding bound of it (goel.finite.masked_loss's, with the T keys of a prompt for the n - 1 of a sequence).
// Negative control: the query among its own keys too (T + 1 keys), the one-sequence reading's unmasked variant.
#include "numerics/models/goel/prompt_attention.hpp"
#include "theorems/goel/algorithm.hpp"
#include "theorems/register_claim.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

namespace thm::goel {

struct PromptsLoss {
  static ClaimInfo info() {
    return {
        .id = "goel.finite.prompts_loss",
        .source = "G",
        .provenance = Provenance::reconstruction,
        .kind = ClaimKind::identity,
        .statement = "the prompts reading's loss is L_{n,T} = 1/(2n) sum_p ||A sum_{t=1..T} softmax_t(q_p^T B x_{p,t}) x_{p,t} - y_p||^2 "
                     "(each query over its own prompt's T context tokens), evaluated term by term at 2D + 20 digits, to its rounding bound",
        .negative_control = "the query among its own keys too (T + 1 keys)",
        .reading = reading_id(FiniteReading::prompts),
        .default_cases = 50,
        .ladder_checks = 0,  // a statement about the working precision's own evaluation: no rung re-judges it
        .resolving_factor = 192,  // thmcheck power --claims goel.finite.prompts_loss --seeds 1..20
    };
  }

  static InstanceSchema schema() { return finite_schema(4).integer("n", 8, 64).integer("tokens", 2, 16).real("b_gain", 0.0, 100.0); }
  // goel.finite.masked_loss's problems and points (d <= 4, kappa(Sigma) <= 100, A and B Gaussian, B scaled by b_gain in
  // [0.1, 10]); n = 2 d + 2 (at least 8) to 64 prompts of T = 2..16 context tokens.
  static Instance generate(ChoiceSource& src) {
    Instance inst = detail::random_point_finite_instance(src, 64);
    inst.params["tokens"] = static_cast<double>(src.integer(2, 16));
    inst.params["b_gain"] = src.log_real(0.1, 10.0);
    return inst;
  }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant variant) {
    using std::abs;
    const int n = int_param(inst, "n", 8, 64), tokens = int_param(inst, "tokens", 2, 16);
    const GProblem<T> g = lift_goel<T>(inst);
    const PromptSet<double> pd = draw_goel_prompts(inst, n, tokens, data_seed(inst, n, 0));
    const PromptSet<T> data = lift_prompts<T>(pd);
    const T gain(inst.param("b_gain"));
    const Mat<T> B = gain * g.B;  // exact only up to one rounding: the definition below reads this same B
    const T model = prompt_loss(g.A, B, data);
    const int d = static_cast<int>(data.Qry.cols()), k = static_cast<int>(data.Y.cols());
    const bool control = variant == Variant::negative_control;

    // The definition, at 2 D + 20 digits on the exact data (the same doubles, lifted); the softmax weights S, the
    // attention outputs H and the residuals it finds, rounded to T once the guard is gone, size the rounding bound.
    const int keys = control ? tokens + 1 : tokens;
    Mat<T> S(n, keys), H(n, d), Res(n, k);
    std::optional<mpfr_dynamic> wide;
    double max_logit = 0;
    {
      using R = mpfr_dynamic;
      const DigitsGuard guard(2 * decimal_digits<T>() + 20);
      const Mat<R> X = data.X.template cast<R>(), Q = data.Qry.template cast<R>(), Y = data.Y.template cast<R>(),
                   A = g.A.template cast<R>(), Bw = B.template cast<R>();
      R sum = 0;
      for (int p = 0; p < n; ++p) {
        std::vector<Vec<R>> key;  // the prompt's context tokens, then (control) its query
        for (int t = 0; t < tokens; ++t) key.push_back(X.row(p * tokens + t).transpose());
        if (control) key.push_back(Q.row(p).transpose());
        std::vector<R> logit(key.size());
        R top = -std::numeric_limits<double>::infinity();
        for (std::size_t j = 0; j < key.size(); ++j) {
          R s = 0;
          for (int a = 0; a < d; ++a)
            for (int b = 0; b < d; ++b) s += Q(p, a) * Bw(a, b) * key[j](b);
          logit[j] = s;
          top = std::max(top, s);
          max_logit = std::max(max_logit, static_cast<double>(abs(s)));
        }
        R mass = 0;
        for (const R& z : logit) mass += exp(R(z - top));
        Vec<R> h = Vec<R>::Zero(d);
        for (std::size_t j = 0; j < key.size(); ++j) {
          const R w = exp(R(logit[j] - top)) / mass;
          S(p, static_cast<Eigen::Index>(j)) = T(w);
          h += w * key[j];
        }
        for (int c = 0; c < k; ++c) {
          R r = -Y(p, c);
          for (int a = 0; a < d; ++a) r += A(c, a) * h(a);
          Res(p, c) = T(r);
          sum += r * r;
        }
        for (int a = 0; a < d; ++a) H(p, a) = T(h(a));
      }
      wide.emplace(sum / R(2 * n));
    }
    const T defined = T(*wide);

    // First-order rounding bound of the model's evaluation (goel.finite.masked_loss.md, "Rounding", with T keys per query),
    // doubled for second order:
    //   |dK| <= g_{2d} |q||B||x|,  |dS_pt| <= S_pt ((T + 4) eps + 2 max_t |dK_pt|),  |dH| <= |dS||X_p| + g_T |S||X_p|,
    //   |dR| <= |dH||A|^T + g_{d+1} (|H||A|^T + |Y|),  |dL| <= (||R|| ||dR|| + ||dR||^2 / 2) / n + g_{nk+2} L.
    const T eps = epsilon<T>();
    const auto gm = [&](int m) { return T(m) * eps; };
    const Mat<T> aB = B.cwiseAbs(), aA = g.A.cwiseAbs();
    Mat<T> dH(n, d), aH(n, d);
    for (int p = 0; p < n; ++p) {
      Mat<T> Xp(keys, d);
      Xp.topRows(tokens) = data.X.middleRows(p * tokens, tokens).cwiseAbs();
      if (control) Xp.row(tokens) = data.Qry.row(p).cwiseAbs();
      const Vec<T> dK = gm(2 * d) * (Xp * (aB.transpose() * data.Qry.row(p).cwiseAbs().transpose()));
      const Vec<T> dS = S.row(p).transpose() * T(T(keys + 4) * eps + T(2) * dK.maxCoeff());
      dH.row(p) = (Xp.transpose() * dS + gm(keys) * (Xp.transpose() * S.row(p).transpose())).transpose();
      aH.row(p) = H.row(p).cwiseAbs();
    }
    const Mat<T> dR = dH * aA.transpose() + gm(d + 1) * (aH * aA.transpose() + data.Y.cwiseAbs());
    const T nR = Res.norm(), ndR = dR.norm();
    const T bound = T(2) * ((nR * ndR + ndR * ndR / T(2)) / T(n) + gm(n * k + 2) * defined);

    Evaluation e;
    e.conditions.push_back(make_le<T>(control ? "|L_{n,T} (model) - L_{n,T} (definition, T + 1 keys with the query)| <= rounding"
                                              : "|L_{n,T} (model) - L_{n,T} (definition, the T context tokens)| <= rounding",
                                      T(abs(T(model - defined))), bound, T(eps * bound)));
    e.observations = {{"n", double(n)},
                      {"T", double(tokens)},
                      {"L_{n,T}", to_double(model)},
                      {"max |logit|", max_logit},
                      {"rounding bound / L_{n,T}", to_double(T(bound / defined))}};
    return e;
  }
};

}  // namespace thm::goel

THM_REGISTER_CLAIM(thm::goel::PromptsLoss)
