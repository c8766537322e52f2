// goel.init.spectral_exact (derived; docs/derivations/goel.init.spectral_exact.md)
//
// Algorithm 1's spectral start is exact on the empirical objective (the finite-data setting:
// docs/derivations/goel.finite_data.md).
//
//   A_0 Sigma_hat B_0^T = M_hat, P_0^T P_0 = Q_0^T Q_0, P_0 Q_0^T = Z_hat, each to a rounding bound.
//   Negative control: the SVD of M_hat itself (Sigma_hat ignored).
#include "numerics/models/goel/algorithm1.hpp"
#include "numerics/spectral.hpp"
#include "theorems/goel/algorithm.hpp"
#include "theorems/goel/noise.hpp"
#include "numerics/interval_functions.hpp"
#include "theorems/certify.hpp"
#include "theorems/register_claim.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace thm::goel {

struct SpectralExact {
  static ClaimInfo info() {
    return {
        .id = "goel.init.spectral_exact",
        .source = "G",
        .provenance = Provenance::derived,
        .kind = ClaimKind::identity,
        .statement = "spectral start from the SVD of M_hat Sigma_hat^{1/2}: A_0 Sigma_hat B_0^T = M_hat, P_0^T P_0 = Q_0^T Q_0, "
                     "P_0 Q_0^T = Z_hat, each to a rounding bound",
        .negative_control = "the SVD of M_hat itself (Sigma_hat ignored)",
        .reading = kEveryReading,
        .default_cases = 50,
        .resolving_factor = 34.07,  // thmcheck power --claims goel.init.spectral_exact --seeds 1..20
    };
  }

  // The instances it reads (numerics/instance_schema.hpp): what the generator below draws.
  static InstanceSchema schema() {
    return finite_schema(4).integer("n", 8, 64);
  }
  static Instance generate(ChoiceSource& src) { return detail::spectral_start_instance(src); }

  // The start judged: Algorithm 1's spectral start, or for the control the factors of M_hat itself (Sigma_hat = I).
  template <class T>
  static ParamPair<T> start(const FiniteProblem<T>& f, Variant variant) {
    const int r = std::min(f.g.k, f.g.d);
    if (variant == Variant::claim) return spectral_init(f.moments, r);
    const FactorManifold<T> S = factor_manifold(f.moments.M_hat, r);
    return {S.star.P, S.star.Q};
  }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant variant) {
    using std::sqrt;
    const int n = int_param(inst, "n", 2, 1 << 16);
    const FiniteProblem<T> f = finite_problem<T>(inst, n, data_seed(inst, n, 0));
    const SymmetricRoots<T> hat = symmetric_roots(f.moments.Sigma_hat);
    const Mat<T> Zhat = f.moments.M_hat * hat.sqrt;
    const ParamPair<T> init = start(f, variant);
    const Factors<T> p = to_factors(init.A, init.B, hat);
    const Vec<T> ev = hat.eigenvalues;
    const T kappa = ev(ev.size() - 1) / ev(0);
    const T ce = detail::chain_eps<T>(f.g.k + f.g.d) * kappa;
    const T pq = p.P.norm() * p.Q.norm();
    Evaluation e;
    e.conditions.push_back(make_le<T>("||A_0 Sigma_hat B_0^T - M_hat||_F <= rounding", T((init.A * f.moments.Sigma_hat * init.B.transpose() - f.moments.M_hat).norm()),
                                      T(ce * (Zhat.norm() + pq) * hat.inv_sqrt.norm()), T(0)));
    e.conditions.push_back(make_le<T>("balanced: ||P_0^T P_0 - Q_0^T Q_0||_F <= rounding", T((p.P.transpose() * p.P - p.Q.transpose() * p.Q).norm()),
                                      T(ce * (p.P.squaredNorm() + p.Q.squaredNorm())), T(0)));
    e.conditions.push_back(make_le<T>("empirical factor loss: ||P_0 Q_0^T - Z_hat||_F <= rounding", T((p.P * p.Q.transpose() - Zhat).norm()),
                                      T(ce * (Zhat.norm() + pq)), T(0)));
    e.observations = {{"n", double(n)}, {"kappa(Sigma_hat)", to_double(kappa)}, {"||M_hat||", to_double(T(f.moments.M_hat.norm()))}};
    return e;
  }

  // The start computed in double (exact points) against the exact moments of the double tokens: Sigma_hat = X^T X / n
  // and M_hat = ((X^T X)^{-1} X^T Y)^T enclosed, Sigma_hat^{1/2} enclosed (numerics/interval_functions.hpp); each
  // residual's exact norm certified against the allowance the double evaluation states.
  static Certification certify(const Instance& inst, int digits, Variant variant) {
    const Evaluation at_double = evaluate<double>(inst, variant);
    const int n = int_param(inst, "n", 2, 1 << 16);
    const FiniteProblem<double> f = finite_problem<double>(inst, n, data_seed(inst, n, 0));
    const ParamPair<double> init = start(f, variant);
    const IntervalPrecision guard(static_cast<unsigned>(digits));
    const IMat X = to_interval(f.X), Y = to_interval(f.Y);
    const IMat G = X.transpose() * X;
    const IMat Sigma = G / mpfi_dynamic(n), M = IMat(enclose_inverse(G) * IMat(X.transpose() * Y)).transpose();
    const IntervalRoots hat = enclose_spd_roots(Sigma);
    const IMat A = to_interval(init.A), B = to_interval(init.B);
    const IMat P = A * hat.sqrt, Q = hat.sqrt * B * hat.sqrt;
    return combine(certify_within_allowance(at_double, {frobenius(IMat(A * Sigma * B.transpose() - M)),
                                                        frobenius(IMat(P.transpose() * P - Q.transpose() * Q)),
                                                        frobenius(IMat(P * Q.transpose() - M * hat.sqrt))}),
                   "MPFI: the exact moments of the double tokens and Sigma_hat^{1/2} enclosed; the double start's exact residuals");
  }
};

}  // namespace thm::goel

THM_REGISTER_CLAIM(thm::goel::SpectralExact)
