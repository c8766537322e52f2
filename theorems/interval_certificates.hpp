// Interval evaluations of claims' conclusions (numerics/interval.hpp): the same instance, every
// quantity enclosed with MPFI at `digits` decimal digits, each condition's margin rhs - lhs certified
// positive (holds), negative (violated) or neither (not certified). Only products, sums, exp and the
// a posteriori singular-value enclosures run on intervals; nothing pivots on them.
//
//   qin.softmax.rank_collapse, qin.residual.weyl_interlacing: the same block; exp(2 max|K|) - 1 with MPFI's exp.
//   qin.residual.sigma_min_lower_bound: K = c (X W_Q)(X W_K)^T, S = softmax_rows(K), A = S X W_V, Z = A + beta X
//     as interval matrices; sigma_min(Z), sigma(X), ||S||_2, ||W_V||_2 from enclose_singular_values (Weyl).
#pragma once

#include "theorems/claim.hpp"

namespace thm {

Certification certify_sigma_min_lower_bound(const Instance& inst, int digits, Variant variant);
Certification certify_rank_collapse(const Instance& inst, int digits, Variant variant);
Certification certify_weyl_interlacing(const Instance& inst, int digits, Variant variant);

}  // namespace thm
