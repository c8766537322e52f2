// A claim that is true in exact arithmetic and false only in floating point: the built-in demonstration
// of the precision ladder and of interval certification. Not from either paper (source "demo").
//
//   demo.fp.one_pass_variance (derived; docs/derivations/demo.fp.one_pass_variance.md)
//     For data x_1..x_n (exact doubles), the one-pass sum of squares S1 = sum x_i^2 - (sum x_i)^2 / n equals the
//     two-pass S2 = sum (x_i - xbar)^2; checked as |S1 - S2| <= sqrt(eps) S2, with the naive rounding allowance
//     eps S2 that ignores S1's cancellation. Exact identity, so every violation is a rounding artifact: in double
//     S1 loses about log10(mean^2 / variance) digits (Higham, Accuracy and Stability, section 1.9), and beyond
//     mean/std ~ 1e4 the loss exceeds sqrt(eps); at 50 digits it never does for these data.
//     Negative control (genuine): Bessel's correction confused, |S1 - S2 n/(n-1)| <= sqrt(eps) S2.
#pragma once

#include "theorems/claim.hpp"

namespace thm {

inline constexpr const char* kOnePassVarianceId = "demo.fp.one_pass_variance";

// n in [4, 64] tokens, x_i = m + s z_i with m log-uniform in [1, 1e7], s in [0.5, 2], z standard normal.
Instance generate_one_pass_variance(ChoiceSource& src);

template <class T>
Evaluation evaluate_one_pass_variance(const Instance& inst, Variant variant);

#define THM_DEMO_EXTERN(T) extern template Evaluation evaluate_one_pass_variance<T>(const Instance&, Variant);
THM_DEMO_EXTERN(double)
THM_DEMO_EXTERN(mp50)
THM_DEMO_EXTERN(mp100)
THM_DEMO_EXTERN(mpfr_dynamic)
#undef THM_DEMO_EXTERN

}  // namespace thm
