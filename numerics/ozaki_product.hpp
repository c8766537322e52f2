// Matrix products of MPFR numbers from double GEMMs (the Ozaki scheme; derivation in docs/derivations/ozaki-product.md).
//
// Each row i of op(A) is scaled by 2^-mu_i (mu_i: the largest exponent in the row), each column j of op(B) by 2^-nu_j,
// and every scaled entry is cut into S digits of beta bits, truncated toward zero:
//   a_ik = 2^mu_i sum_{s=1..S} A_s(i,k) 2^(-s beta) + r_ik,   |r_ik| < 2^(mu_i - S beta),   |A_s(i,k)| < 2^beta.
// The digits are integers held in doubles; beta is chosen so that every level product
//   P_l = sum_{s+t=l} A_s B_t,   l = 2..S+1,
// is a sum of integers below 2^53 (min(l-1, S) k (2^beta - 1)^2 < 2^53), hence exact in double whatever the BLAS's
// order of summation. C = 2^(mu_i + nu_j) sum_l P_l 2^(-l beta) is then assembled exactly as an integer and rounded
// once to the working precision. With S beta >= p + 20 (p: the result's precision in bits) the error is
//   |C_ij - (AB)_ij| <= (S + 3) k 2^(mu_i + nu_j - S beta) + u |C_ij|,   u = 2^-p,
// and every entry whose first-digit magnitude product (|A_1| |B_1|)_ij 2^(-2 beta), a lower bound of
// (|A| |B|)_ij 2^-(mu_i + nu_j), falls below 2 (S + 3) k 2^(p - S beta) is recomputed as an MPFR dot product, so that
// every entry meets |C_ij - (AB)_ij| <= u (|A| |B|)_ij + u |C_ij|: within the gamma_k |A| |B| allowance of a
// recursive MPFR dot product (docs/derivations/noise-model.md), k times tighter.
#pragma once

#include <mpfr.h>

#include <cstdint>
#include <vector>

namespace thm::ozaki {

// The splitting for a result of `precision` bits and inner dimension k.
struct Plan {
  int beta = 0;    // bits per digit
  int slices = 0;  // S
};
// slices == 0 when no plan exists (an inner dimension too large for exact double sums, or a precision too high).
Plan plan(long precision, long inner);

// Whether the scheme is worth it: from 256 multiply-adds on (rows x inner x cols), where it and the MPFR loop cross
// at 50 digits (bench/bench_products.cpp, BM_ProductShape).
bool worthwhile(long rows, long cols, long inner);

// What the last products of the calling thread did (tests, benchmarks).
struct Stats {
  std::uint64_t products = 0;          // products computed by the scheme
  std::uint64_t entries = 0;           // entries assembled from the GEMMs
  std::uint64_t fallback_entries = 0;  // entries recomputed as MPFR dot products (magnitude test)
};
Stats& thread_stats();

// C = op(A) op(B) for column-major arrays of pointers: a has rows x inner entries, a[i + k rows] = op(A)(i, k);
// b has inner x cols entries, b[k + j inner] = op(B)(k, j); c[i + j rows] receives C(i, j) at its own precision
// (every c has the same precision). Returns false, writing nothing, when the scheme does not apply: a non-finite
// entry, no plan for the sizes or precision; the caller computes the product another way.
bool product(long rows, long cols, long inner, const mpfr_srcptr* a, const mpfr_srcptr* b, const mpfr_ptr* c);

// The same product as recursive MPFR dot products (c_ij = (...(a_i1 b_1j + a_i2 b_2j) + ...), each operation rounded):
// the reference, and the path where the scheme is not worthwhile or declines.
void loop_product(long rows, long cols, long inner, const mpfr_srcptr* a, const mpfr_srcptr* b, const mpfr_ptr* c);

}  // namespace thm::ozaki
