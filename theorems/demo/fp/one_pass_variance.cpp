// demo.fp.one_pass_variance (derived; docs/derivations/demo.fp.one_pass_variance.md)
//
// A claim that is true in exact arithmetic and false only in floating point: the built-in demonstration of the
// precision ladder and of interval certification. Not from either paper (source "demo").
//
//   For data x_1..x_n (exact doubles), the one-pass sum of squares S1 = sum x_i^2 - (sum x_i)^2 / n equals the
//   two-pass S2 = sum (x_i - xbar)^2; checked as |S1 - S2| <= sqrt(eps) S2, with the naive rounding allowance
//   eps S2 that ignores S1's cancellation. Exact identity, so every violation is a rounding artifact: in double
//   S1 loses about log10(mean^2 / variance) digits (Higham, Accuracy and Stability, section 1.9), and beyond
//   mean/std ~ 1e4 the loss exceeds sqrt(eps); at 50 digits it never does for these data.
//   Negative control (genuine): Bessel's correction confused, |S1 - S2 n/(n-1)| <= sqrt(eps) S2.
#include "numerics/random.hpp"
#include "theorems/certify.hpp"
#include "theorems/register_claim.hpp"

#include <cmath>

namespace thm::demo {

struct OnePassVariance {
  static ClaimInfo info() {
    return {
        .id = "demo.fp.one_pass_variance",
        .source = "demo",
        .provenance = Provenance::derived,
        .kind = ClaimKind::identity,
        .statement = "one-pass sum of squares sum x^2 - (sum x)^2/n equals the two-pass sum (x - xbar)^2, to sqrt(eps) of the "
                     "working precision (the rounding allowance ignores the cancellation: false only in floating point)",
        .negative_control = "Bessel's correction confused: S1 = S2 n/(n-1)",
        .default_cases = 40,
        .ladder_checks = 40,  // every double violation is re-checked, and called an artifact
        .resolving_factor = 1,  // thmcheck power --claims demo.fp.one_pass_variance --seeds 1..20
    };
  }

  // n in [4, 64] samples, x_i = m + s z_i with m log-uniform in [1, 1e7], s in [0.5, 2], z standard normal.
  // The instances it reads (numerics/instance_schema.hpp): what the generator below draws.
  static InstanceSchema schema() {
    InstanceSchema schema("demo.samples");
    schema.integer("n", 4, 64).real("mean").real("spread", 0.0);
    schema.matrices([](const Instance& inst) { return std::vector<MatrixShape>{{"x", static_cast<Eigen::Index>(inst.param("n")), 1}}; });
    return schema;
  }
  static Instance generate(ChoiceSource& src) {
    Instance inst;
    inst.family = "demo.samples";
    const int n = sized_dimension(src, 4, 64);
    const double m = src.log_real(1.0, 1e7), s = src.real(0.5, 2.0);
    Rng rng(src.entropy());
    MatD x(n, 1);
    for (int i = 0; i < n; ++i) x(i, 0) = m + s * rng.normal();  // rounded to double once: the exact data
    inst.params = {{"n", double(n)}, {"mean", m}, {"spread", s}};
    inst.matrices["x"] = x;
    return inst;
  }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant variant) {
    using std::abs;
    using std::sqrt;
    const MatD& xd = samples(inst);
    const Eigen::Index n = xd.rows();
    T sum = 0, sum_sq = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
      const T x = T(xd(i, 0));
      sum += x;
      sum_sq += x * x;
    }
    const T mean = sum / T(n);
    T s2 = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
      const T d = T(xd(i, 0)) - mean;
      s2 += d * d;
    }
    const T s1 = sum_sq - sum * sum / T(n);  // the textbook one-pass formula: cancels when mean^2 >> variance
    if (!(s2 > 0)) return Evaluation::discarded("the samples are all equal: S2 = 0");
    const T eps = epsilon<T>();
    const T target = variant == Variant::claim ? s2 : T(s2 * T(n) / T(n - 1));
    Evaluation e;
    // The naive rounding allowance eps S2 (it ignores the cancellation in S1; that is the demonstration).
    e.conditions.push_back(make_le<T>(condition_name(variant), T(abs(s1 - target)), T(sqrt(eps) * s2), T(eps * s2)));
    e.observations = {{"S1 (one pass)", to_double(s1)},
                      {"S2 (two pass)", to_double(s2)},
                      {"mean^2 / variance: the cancellation factor of S1", to_double(T(mean * mean / (s2 / T(n))))}};
    return e;
  }

  // The same conclusion in MPFI arithmetic on the exact data.
  static Certification certify(const Instance& inst, int digits, Variant variant) {
    const IntervalPrecision guard(static_cast<unsigned>(digits));
    const IMat x = to_interval(samples(inst));
    const Eigen::Index n = x.rows();
    mpfi_dynamic sum = 0, sum_sq = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
      sum += x(i, 0);
      sum_sq += x(i, 0) * x(i, 0);
    }
    const mpfi_dynamic mean = sum / mpfi_dynamic(n);
    mpfi_dynamic s2 = 0;
    for (Eigen::Index i = 0; i < n; ++i) s2 += (x(i, 0) - mean) * (x(i, 0) - mean);
    const mpfi_dynamic s1 = sum_sq - sum * sum / mpfi_dynamic(n);
    if (!(lower(s2) > 0)) {
      Certification c;
      c.note = "S2 = 0 not excluded: the hypothesis is not certified";
      return c;
    }
    const mpfi_dynamic target = variant == Variant::claim ? s2 : mpfi_dynamic(s2 * mpfi_dynamic(n) / mpfi_dynamic(n - 1));
    const mpfi_dynamic tol = sqrt(interval_epsilon()) * s2;
    return combine({certify_le(condition_name(variant), abs(mpfi_dynamic(s1 - target)), tol)},
                   "MPFI arithmetic on the exact data; eps of the interval precision");
  }

 private:
  static const MatD& samples(const Instance& inst) {
    const MatD& x = inst.matrix("x");
    if (x.cols() != 1 || x.rows() < 2) throw InstanceError("demo.fp.one_pass_variance needs a column of at least 2 samples");
    return x;
  }
  static const char* condition_name(Variant v) {
    return v == Variant::claim ? "|S1 - S2| <= sqrt(eps) S2" : "|S1 - S2 n/(n-1)| <= sqrt(eps) S2";
  }
};

}  // namespace thm::demo

THM_REGISTER_CLAIM(thm::demo::OnePassVariance)
