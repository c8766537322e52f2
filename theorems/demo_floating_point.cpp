#include "theorems/demo_floating_point.hpp"

#include "numerics/random.hpp"

#include <cmath>

namespace thm {

Instance generate_one_pass_variance(ChoiceSource& src) {
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
Evaluation evaluate_one_pass_variance(const Instance& inst, Variant variant) {
  using std::abs;
  using std::sqrt;
  const MatD& xd = inst.matrix("x");
  const Eigen::Index n = xd.rows();
  if (xd.cols() != 1 || n < 2) throw InstanceError("demo.fp.one_pass_variance needs a column of at least 2 samples");
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
  e.conditions.push_back(make_le<T>(variant == Variant::claim ? "|S1 - S2| <= sqrt(eps) S2" : "|S1 - S2 n/(n-1)| <= sqrt(eps) S2",
                                    T(abs(s1 - target)), T(sqrt(eps) * s2), T(eps * s2)));
  e.observations = {{"S1 (one pass)", to_double(s1)},
                    {"S2 (two pass)", to_double(s2)},
                    {"mean^2 / variance: the cancellation factor of S1", to_double(T(mean * mean / (s2 / T(n))))}};
  return e;
}

template Evaluation evaluate_one_pass_variance<double>(const Instance&, Variant);
template Evaluation evaluate_one_pass_variance<mp50>(const Instance&, Variant);
template Evaluation evaluate_one_pass_variance<mp100>(const Instance&, Variant);
template Evaluation evaluate_one_pass_variance<mpfr_dynamic>(const Instance&, Variant);

}  // namespace thm
