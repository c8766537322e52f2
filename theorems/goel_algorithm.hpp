// [G] claims about Algorithm 1 not yet in their own file (the shared machinery: theorems/goel/algorithm.hpp).
#pragma once

#include "theorems/claim.hpp"
#include "theorems/goel/algorithm.hpp"
#include "theorems/goel/protocol.hpp"

namespace thm {

inline constexpr int kRateIterationsMpCap = 6000;
inline constexpr double kRateInsensitive = 1.1, kRateSlowdown = 1.25;
// The tail window of the geometric fit: the last 4 decades above 1e3 times the rounding floor.
inline constexpr double kRateTailDecades = 4.0;
inline constexpr int kBaselineIterationsMp = 20;

template <class T>
Evaluation evaluate_geometric_in_m(const Instance& inst, Variant variant);
template <class T>
Evaluation evaluate_excess_bound_v1(const Instance& inst, Variant variant);
template <class T>
Evaluation evaluate_excess_bound_1_over_n(const Instance& inst, Variant variant);
template <class T>
Evaluation evaluate_baseline(const Instance& inst, Variant variant);

#define THM_GOEL_ALGORITHM_EXTERN(T)                                                       \
  extern template Evaluation evaluate_geometric_in_m<T>(const Instance&, Variant);         \
  extern template Evaluation evaluate_excess_bound_v1<T>(const Instance&, Variant);        \
  extern template Evaluation evaluate_excess_bound_1_over_n<T>(const Instance&, Variant);  \
  extern template Evaluation evaluate_baseline<T>(const Instance&, Variant);
THM_GOEL_ALGORITHM_EXTERN(double)
THM_GOEL_ALGORITHM_EXTERN(mp50)
THM_GOEL_ALGORITHM_EXTERN(mp100)
THM_GOEL_ALGORITHM_EXTERN(mpfr_dynamic)
#undef THM_GOEL_ALGORITHM_EXTERN

}  // namespace thm
