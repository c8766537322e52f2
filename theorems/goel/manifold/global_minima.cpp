// goel.manifold.global_minima (derived; docs/derivations/goel.manifold.global_minima.md)
//
// The manifold S of global minima of the population objective in (P, Q) coordinates,
// f = 1/2 ||P Q^T - Z*||_F^2 + lambda/8 ||P^T P - Q^T Q||_F^2 (docs/spec/claims.md, "Model [G]").
//
//   At a point of S: L = L*, R = 0 (both regularisers), grad Qobj = 0 (both); the projection onto S is
//   idempotent and is the nearest point: O_hat^T W*^T W is symmetric (Procrustes optimality), and no
//   random orthogonal O, no small rotation Cayley(+-eps K) O_hat (eps = 1e-3), gives a point of S closer.
//   Negative control: the projection replaced by the polar factor of P*^T P alone (not the nearest point).
#include "numerics/models/goel/factor_manifold.hpp"
#include "numerics/spectral.hpp"
#include "numerics/models/goel/detail/population_instance_impl.hpp"
#include "theorems/goel/generators.hpp"
#include "theorems/goel/noise.hpp"
#include "theorems/goel/one_point_interval.hpp"
#include "theorems/register_claim.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace thm::goel {

inline constexpr double kNearestRotation = 1e-3;  // eps of the Cayley rotations in the nearest-point check

struct GlobalMinima {
  static ClaimInfo info() {
    return {
        .id = "goel.manifold.global_minima",
        .source = "G",
        .provenance = Provenance::derived,
        .kind = ClaimKind::identity,
        .statement = "on S: L = L*, R = 0, grad Qobj = 0 (both regularisers); proj_S idempotent and nearest (O_hat^T W*^T W "
                     "symmetric; no random O, no rotation Cayley(+-1e-3 K) O_hat does better)",
        .negative_control = "the projection replaced by the polar factor of P*^T P alone",
        .uses = {"goel.population.matrix_factorization"},
        .default_cases = 100,
        .resolving_factor = 1,  // thmcheck power --claims goel.manifold.global_minima --seeds 1..20
    };
  }

  // The instances it reads (numerics/instance_schema.hpp): what the generator below draws.
  static InstanceSchema schema() {
    return goel_population_schema({detail::kDimCap, detail::kDimCap, false, true});
  }
  static Instance generate(ChoiceSource& src) {
    GSpec s;
    s.d = sized_dimension(src, 1, detail::kDimCap);
    s.k = sized_dimension(src, 1, detail::kDimCap);
    s.rank = static_cast<int>(src.integer(1, std::min(s.k, s.d)));
    detail::draw_problem(src, s);
    s.point = GPoint::random_direction;
    s.delta = src.log_real(0.01, 1.0) * std::sqrt(s.z_max);
    s.gauges = true;
    s.gauge_kappa = src.log_real(1.0, 10.0);
    s.entropy = src.entropy();
    return build_goel(s);
  }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant variant) {
    using std::sqrt;
    const GProblem<T> g = lift_goel<T>(inst);
    const FactorManifold<T> S = factor_manifold(g.task.Z, g.rank);
    const T s1 = S.sigma(0), sr = S.sigma(g.rank - 1);
    const T ce = detail::chain_eps<T>(g.k + g.d);
    // Gauges orthogonal to working precision (the stored doubles are orthogonal only to 1e-16).
    // Every auxiliary matrix is d x d; checked before any arithmetic.
    for (const char* name : {"O_gauge", "O_random0", "O_random1", "O_random2", "K"}) (void)inst.matrix(name, g.d, g.d);
    const Factors<T> star = manifold_point(S, polar_factor<T>(lift<T>(inst.matrix("O_gauge"))));
    const ParamPair<T> ab = from_factors(star, g.task.roots);
    const T r = g.task.roots.sqrt.norm(), ri = g.task.roots.inv_sqrt.norm();
    const T p = star.P.norm(), q = star.Q.norm();

    Evaluation e;
    // L - L* = 1/2 ||E||^2 with E = (A Sigma B^T - M) Sigma^{1/2}: ||E|| within the rounding of the chain
    // (A, B) = (P Sigma^{-1/2}, Sigma^{-1/2} Q Sigma^{-1/2}) -> A Sigma B^T Sigma^{1/2}, plus the SVD's.
    const T normE = sqrt(T(2) * population_excess(ab.A, ab.B, g.task));
    const T tolE = ce * (p * q * ri * ri * ri * g.task.Sigma.norm() * r + g.task.M.norm() * r + s1 * sqrt(s1 / sr));
    e.conditions.push_back(make_le<T>("at a point of S: sqrt(2 (L - L*)) = ||(A Sigma B^T - M) Sigma^{1/2}||_F <= rounding", normE, tolE, T(0)));
    const T tolN = ce * (p * p + q * q + s1 * sqrt(s1 / sr));
    for (Regularizer kind : {Regularizer::balancing, Regularizer::scale_invariant}) {
      const char* name = kind == Regularizer::balancing ? "balancing" : "scale-invariant";
      const T R = regularizer(star, kind, g.lambda);
      e.conditions.push_back(make_le<T>(std::string("at a point of S: sqrt(8 R / lambda) <= rounding (") + name + ")",
                                        T(sqrt(T(8) * R / g.lambda)), tolN, T(0)));
      const T gn = sqrt(squared_norm(factor_gradient(star, g.task.Z, kind, g.lambda)));
      e.conditions.push_back(make_le<T>(std::string("at a point of S: ||grad Qobj||_{P^-1} <= rounding (") + name + ")", gn,
                                        T(detail::gradient_noise(g, star) + ce * (T(1) + g.lambda) * (p + q) * s1 * sqrt(s1 / sr)),
                                        T(0)));
    }

    // Projection of theta = (A, B) near S: idempotent, and the nearest point.
    const ProcrustesTarget target = variant == Variant::claim ? ProcrustesTarget::both_factors : ProcrustesTarget::factor_p_only;
    const Factors<T> theta = to_factors(g.A, g.B, g.task.roots);
    const Projection<T> pr = project_onto_manifold(S, theta, target);
    const Projection<T> again = project_onto_manifold(S, pr.point, target);
    const T e_w = detail::factor_noise(g, g.A, g.B, s1, sr);
    e.conditions.push_back(make_le<T>("idempotence: ||proj_S(proj_S theta) - proj_S theta||_P <= rounding",
                                      T(sqrt(squared_norm(again.point - pr.point))), T(ce * sqrt(s1) * s1 / sr), T(0)));
    // Procrustes optimality (first order): O_hat^T W*^T W is symmetric (it is the PSD factor H of the
    // polar decomposition W*^T W = O_hat H). A non-nearest gauge leaves a skew part.
    const Mat<T> H = pr.O.transpose() * (S.star.P.transpose() * theta.P + S.star.Q.transpose() * theta.Q);
    e.conditions.push_back(make_le<T>("Procrustes: ||skew(O_hat^T W*^T W)||_F <= rounding", T((H - H.transpose()).norm() / T(2)),
                                      T(ce * (S.star.P.norm() * theta.P.norm() + S.star.Q.norm() * theta.Q.norm()) * sqrt(s1 / sr)), T(0)));
    const T dist_noise = T(2) * e_w + ce * (pr.distance + sqrt(squared_norm(theta)));
    for (int i = 0; i < 3; ++i) {
      const T di = sqrt(squared_norm(theta - manifold_point(S, polar_factor<T>(lift<T>(inst.matrix("O_random" + std::to_string(i)))))));
      e.conditions.push_back(make_ge<T>("nearest: dist_P(theta, W* O_random" + std::to_string(i) + ") >= dist_P(theta, proj_S theta)",
                                        di, pr.distance, dist_noise));
    }
    // Small rotations of the gauge: Cayley(+-eps K') O_hat, K' = K without its block on the columns
    // beyond the rank (there W* is zero and the rotation does not move the point).
    Mat<T> K = lift<T>(inst.matrix("K"));
    for (int i = S.rank; i < g.d; ++i)
      for (int j = S.rank; j < g.d; ++j) K(i, j) = 0;
    // (For d = 1, or K' = 0, there is no rotation to try: O(1) = {+-1} is covered by the random O.)
    for (int sign : {+1, -1}) {
      if (!(K.norm() > 0)) break;
      const Mat<T> R = cayley_rotation<T>(T(sign * kNearestRotation) * K);
      const T dr = sqrt(squared_norm(theta - manifold_point(S, Mat<T>(R * pr.O))));
      e.conditions.push_back(make_ge<T>(std::string("nearest: dist_P(theta, W* Cayley(") + (sign > 0 ? "+" : "-") +
                                            "1e-3 K) O_hat) >= dist_P(theta, proj_S theta)",
                                        dr, pr.distance, dist_noise));
    }
    e.observations = {{"dist_P(theta, S)", to_double(pr.distance)},
                      {"sigma_1(Z*)", to_double(s1)},
                      {"sigma_r(Z*)", to_double(sr)},
                      {"rank", double(S.rank)},
                      {"||E|| at S / rounding", to_double(T(normE / tolE))}};
    return e;
  }

  // S as the balanced factorisations of the exact Z* at its rank (theorems/goel/one_point_interval.hpp): an exact point
  // of S (the stored gauge's polar factor), the projection by the enclosed Procrustes gauge (completed to an orthogonal
  // matrix for the rotations). The identities at S (exactly 0) are certified against the allowances the double
  // evaluation states; the nearest-point comparisons exactly. The base point of S is not the double run's (that one
  // comes from Z*'s singular vectors): the random and rotated points of S compared with are others, equally of S.
  static Certification certify(const Instance& inst, int digits, Variant variant) {
    using I = mpfi_dynamic;
    const Evaluation at_double = evaluate<double>(inst, variant);
    const IntervalPrecision guard(static_cast<unsigned>(digits));
    const GProblem<I> g = interval_goel(inst);
    const detail::IntervalManifold S = detail::interval_manifold(inst, g);
    const Factors<I> star = detail::manifold_point(S, enclose_polar_factor(to_interval(inst.matrix("O_gauge", g.d, g.d))));
    const ParamPair<I> ab = from_factors(star, g.task.roots);
    std::vector<I> at_S{frobenius(IMat((ab.A * g.task.Sigma * ab.B.transpose() - g.task.M) * g.task.roots.sqrt))};
    for (Regularizer kind : {Regularizer::balancing, Regularizer::scale_invariant}) {
      at_S.push_back(sqrt(I(I(8) * nonnegative_part(regularizer(star, kind, g.lambda)) / g.lambda)));
      at_S.push_back(sqrt(detail::factor_squared_norm(factor_gradient(star, g.task.Z, kind, g.lambda))));
    }
    const bool p_only = variant != Variant::claim;
    const Factors<I> theta = to_factors(g.A, g.B, g.task.roots);
    const detail::IntervalProjection pr = detail::interval_projection(S, theta, p_only);
    const detail::IntervalProjection again = detail::interval_projection(S, pr.point, p_only);
    at_S.push_back(sqrt(detail::factor_squared_norm(again.point - pr.point)));
    const IMat H = pr.gauge.transpose() * IMat(S.P.transpose() * theta.P + S.Q.transpose() * theta.Q);
    at_S.push_back(I(frobenius(IMat(H - H.transpose())) / I(2)));
    if (at_double.conditions.size() < at_S.size()) return not_certified("the double evaluation judged fewer conditions");
    std::vector<CertifiedCondition> conds;
    for (std::size_t i = 0; i < at_S.size(); ++i)
      conds.push_back(certify_le(at_double.conditions[i].name, abs(at_S[i]), I(at_double.conditions[i].rhs)));
    const auto distance = [&](const Factors<I>& p) { return sqrt(detail::factor_squared_norm(theta - p)); };
    // d = 1: O(1) = {+1, -1}, so a random gauge is either the projection's (the same point of S: an exact tie, which
    // no enclosure of the difference certifies, proved by the signs instead) or its reflection.
    const IMat K1 = S.P.transpose() * theta.P + (p_only ? IMat(IMat::Zero(S.P.cols(), theta.P.cols())) : IMat(S.Q.transpose() * theta.Q));
    for (int i = 0; i < 3; ++i) {
      const MatD Oi = inst.matrix("O_random" + std::to_string(i), g.d, g.d);
      const std::string& name = at_double.conditions[at_S.size() + static_cast<std::size_t>(i)].name;
      if (g.d == 1 && Oi(0, 0) != 0 && (lower(K1(0, 0)) > 0 || upper(K1(0, 0)) < 0) && (Oi(0, 0) > 0) == (lower(K1(0, 0)) > 0)) {
        CertifiedCondition tie;
        tie.name = name + "  [d = 1: the same point of S, an exact tie]";
        tie.verdict = CertifiedVerdict::holds;
        conds.push_back(tie);
        continue;
      }
      conds.push_back(certify_le(name, pr.distance, distance(detail::manifold_point(S, enclose_polar_factor(to_interval(Oi))))));
    }
    MatD K = inst.matrix("K", g.d, g.d);
    for (int i = S.rank; i < g.d; ++i)
      for (int j = S.rank; j < g.d; ++j) K(i, j) = 0;
    std::size_t next = at_S.size() + 3;
    if (K.norm() > 0) {
      const IMat O_hat = detail::complete_orthonormal(pr.gauge);
      for (int sign : {+1, -1}) {
        const IMat half = I(sign * kNearestRotation / 2) * to_interval(K), Id = IMat::Identity(g.d, g.d);
        const IMat R = enclose_inverse(IMat(Id - half)) * IMat(Id + half);  // Cayley: orthogonal exactly
        if (next >= at_double.conditions.size()) return not_certified("the double evaluation judged fewer conditions");
        conds.push_back(certify_le(at_double.conditions[next++].name, pr.distance, distance(detail::manifold_point(S, IMat(R * O_hat)))));
      }
    }
    return combine(std::move(conds), "MPFI: S = the balanced factorisations of Z* (nested SPD roots), the Procrustes gauge enclosed");
  }
};

}  // namespace thm::goel

THM_REGISTER_CLAIM(thm::goel::GlobalMinima)
