// goel.finite.masked_loss (reconstruction; docs/derivations/goel.finite.masked_loss.md)
//
// The finite-data loss every Algorithm-1 claim trains on (finite_forward; docs/derivations/goel.finite_data.md) is
// the one our reading of [G] defines: token i is the query and attends over the other n - 1 tokens,
//   L_n(A, B) = 1/(2n) sum_i || A sum_{j != i} softmax_j(x_i^T B x_j) x_j - y_i ||^2,
// evaluated term by term from that formula (a loop over queries and keys, a max-shifted softmax per query) at
// 2 D + 20 digits, D the working precision's. The model's L_n at the working precision is within its first-order
// rounding bound of it (derivation, "Rounding").
// Negative control: the other reading of the definition, the query attending to itself too (j over all n tokens).
#include "numerics/models/goel/finite_attention.hpp"
#include "theorems/goel/algorithm.hpp"
#include "theorems/certify.hpp"
#include "theorems/register_claim.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace thm::goel {

struct MaskedLoss {
  static ClaimInfo info() {
    return {
        .id = "goel.finite.masked_loss",
        .source = "G",
        .provenance = Provenance::reconstruction,
        .kind = ClaimKind::identity,
        .statement = "the finite-data loss Algorithm 1 trains on is L_n = 1/(2n) sum_i ||A sum_{j != i} softmax_j(x_i^T B x_j) x_j "
                     "- y_i||^2 (query i masked from its own keys), evaluated term by term at 2D + 20 digits, to its rounding bound",
        .negative_control = "the query attending to itself too: j over all n tokens",
        .reading = reading_id(FiniteReading::one_sequence),
        .default_cases = 50,
        .resolving_factor = 305,  // thmcheck power --claims goel.finite.masked_loss --seeds 1..20
    };
  }

  static InstanceSchema schema() { return finite_schema(4).integer("n", 8, 64).real("b_gain", 0.0, 100.0); }
  // finite_spec's problems (d <= 4, kappa(Sigma) <= 100), A and B Gaussian, B scaled by b_gain in [0.1, 10] so that
  // the softmax runs from nearly uniform to nearly one-hot; n from 2 d + 2 (at least 8) to 64 tokens.
  static Instance generate(ChoiceSource& src) {
    Instance inst = detail::random_point_finite_instance(src, 64);
    inst.params["b_gain"] = src.log_real(0.1, 10.0);
    return inst;
  }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant variant) {
    using std::abs;
    using std::sqrt;
    const int n = int_param(inst, "n", 8, 64);
    const FiniteProblem<T> f = finite_problem<T>(inst, n, data_seed(inst, n, 0));
    const T gain(inst.param("b_gain"));
    const Mat<T> B = gain * f.g.B;  // exact only up to one rounding: the definition below reads this same B
    const FiniteForward<T> model = finite_forward(f.g.A, B, f.X, f.Y, true);

    // The definition, at 2 D + 20 digits on the exact data (the same doubles, lifted), then rounded to T once the
    // guard is gone (inside it, an mpfr_dynamic T would keep the wide precision).
    std::optional<mpfr_dynamic> wide;
    {
      using R = mpfr_dynamic;
      const DigitsGuard guard(2 * decimal_digits<T>() + 20);
      const Mat<R> X = f.X.template cast<R>(), Y = f.Y.template cast<R>(), A = f.g.A.template cast<R>(), Bw = B.template cast<R>();
      R sum = 0;
      for (int i = 0; i < n; ++i) {
        const Vec<R> q = Bw.transpose() * X.row(i).transpose();  // x_i^T B x_j = (B^T x_i) . x_j
        R top = -std::numeric_limits<double>::infinity();
        std::vector<R> logit(static_cast<std::size_t>(n));
        for (int j = 0; j < n; ++j) {
          logit[j] = q.dot(X.row(j).transpose());
          if (j != i || variant == Variant::negative_control) top = std::max(top, logit[j]);
        }
        R mass = 0;
        Vec<R> h = Vec<R>::Zero(X.cols());
        for (int j = 0; j < n; ++j) {
          if (j == i && variant == Variant::claim) continue;  // the mask: no key j = i
          const R w = exp(R(logit[j] - top));
          mass += w;
          h += w * X.row(j).transpose();
        }
        sum += (A * Vec<R>(h / mass) - Y.row(i).transpose()).squaredNorm();
      }
      wide.emplace(sum / R(2 * n));
    }
    const T defined = T(*wide);

    // First-order rounding bound of the model's evaluation (derivation, "Rounding"), doubled for second order:
    //   |dK| <= g_{2d} |X||B||X|^T,  |dS_ij| <= S_ij ((n + 4) eps + 2 max_j |dK_ij|),  |dH| <= |dS||X| + g_n |S||X|,
    //   |dR| <= |dH||A|^T + g_{d+1} (|H||A|^T + |Y|),  |dL| <= (||R|| ||dR|| + ||dR||^2 / 2) / n + g_{nk+2} L.
    const T eps = epsilon<T>();
    const auto g = [&](int m) { return T(m) * eps; };
    const int d = static_cast<int>(f.X.cols()), k = static_cast<int>(f.Y.cols());
    const Mat<T> aX = f.X.cwiseAbs();
    const Mat<T> dK = g(2 * d) * (aX * B.cwiseAbs() * aX.transpose());
    Mat<T> dS(n, n);
    for (int i = 0; i < n; ++i) {
      T row = 0;
      for (int j = 0; j < n; ++j)
        if (j != i) row = std::max(row, dK(i, j));
      dS.row(i) = model.S.row(i) * (T(n + 4) * eps + T(2) * row);
    }
    const Mat<T> dH = dS * aX + g(n) * (model.S * aX);
    const Mat<T> dR = dH * f.g.A.cwiseAbs().transpose() + g(d + 1) * (model.H.cwiseAbs() * f.g.A.cwiseAbs().transpose() + f.Y.cwiseAbs());
    const T nR = model.R.norm(), ndR = dR.norm();
    const T bound = T(2) * ((nR * ndR + ndR * ndR / T(2)) / T(n) + g(n * k + 2) * model.loss);

    Evaluation e;
    e.conditions.push_back(make_le<T>(variant == Variant::claim ? "|L_n (model) - L_n (definition, j != i)| <= rounding"
                                                                : "|L_n (model) - L_n (definition, j over all n)| <= rounding",
                                      T(abs(model.loss - defined)), bound, T(eps * bound)));
    T logit = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        if (j != i) logit = std::max<T>(logit, abs(T((f.X.row(i) * B * f.X.row(j).transpose()).value())));
    e.observations = {{"n", double(n)}, {"L_n", to_double(model.loss)}, {"max |logit|", to_double(logit)},
                      {"rounding bound / L_n", to_double(T(bound / model.loss))}};
    return e;
  }

  // The definition enclosed in MPFI in place of the 2 D + 20 digit evaluation (each softmax shifted by its largest
  // midpoint logit: any constant leaves it unchanged), against the double model's L_n (an exact double): the exact
  // difference certified against the allowance the double evaluation states.
  static Certification certify(const Instance& inst, int digits, Variant variant) {
    const Evaluation at_double = evaluate<double>(inst, variant);
    double model_loss = 0;
    for (const auto& [name, value] : at_double.observations)
      if (name == "L_n") model_loss = value;
    const int n = int_param(inst, "n", 8, 64);
    const FiniteProblem<double> f = finite_problem<double>(inst, n, data_seed(inst, n, 0));
    const MatD Bd = inst.param("b_gain") * f.g.B;  // the same rounding as the double evaluation's B
    const IntervalPrecision guard(static_cast<unsigned>(digits));
    const IMat X = to_interval(f.X), Y = to_interval(f.Y), A = to_interval(f.g.A), B = to_interval(Bd);
    mpfi_dynamic sum(0);
    for (int i = 0; i < n; ++i) {
      const IVec q = B.transpose() * X.row(i).transpose();
      IVec logit(n);
      mpfr_dynamic top = -std::numeric_limits<double>::infinity();
      for (int j = 0; j < n; ++j) {
        logit(j) = q.dot(X.row(j).transpose());
        if (j != i || variant == Variant::negative_control) top = std::max(top, midpoint(logit(j)));
      }
      mpfi_dynamic mass(0);
      IVec h = IVec::Zero(X.cols());
      for (int j = 0; j < n; ++j) {
        if (j == i && variant == Variant::claim) continue;
        const mpfi_dynamic w = exp(mpfi_dynamic(logit(j) - mpfi_dynamic(top)));
        mass += w;
        h += w * IVec(X.row(j).transpose());
      }
      sum += squared_frobenius(IMat(A * IVec(h / mass) - IVec(Y.row(i).transpose())));
    }
    return combine(certify_within_allowance(at_double, {mpfi_dynamic(mpfi_dynamic(model_loss) - sum / mpfi_dynamic(2 * n))}),
                   "MPFI: the masked definition enclosed; the double model's L_n against it");
  }
};

}  // namespace thm::goel

THM_REGISTER_CLAIM(thm::goel::MaskedLoss)
