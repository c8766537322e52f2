// The Jonckheere-Terpstra test for an increasing trend across ordered groups, with its exact null distribution
// (used by the [G] risk claims: does excess / b(n) grow with n?). Generic statistics: no model, no claim.
#pragma once

#include "numerics/fault.hpp"

#include <boost/math/distributions/normal.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace thm {

// The Jonckheere-Terpstra statistic of ordered groups: pairs (i in an earlier group, j in a later one) with x_j > x_i.
inline int jonckheere(const std::vector<std::vector<double>>& groups) {
  int s = 0;
  for (std::size_t a = 0; a < groups.size(); ++a)
    for (std::size_t b = a + 1; b < groups.size(); ++b)
      for (double x : groups[a])
        for (double y : groups[b]) s += y > x ? 1 : 0;
  return s;
}

// Its upper tail by the normal approximation with continuity correction (Jonckheere 1954): under exchangeability
// E J = (N^2 - sum s_g^2) / 4 and Var J = (N^2 (2N + 3) - sum s_g^2 (2 s_g + 3)) / 72, N = sum s_g; J is a sum of
// Mann-Whitney statistics of independent pairs of blocks, and its law is platykurtic, so the normal tail is the heavier.
inline double jonckheere_upper_tail_normal(const std::vector<int>& sizes, double j) {
  double N = 0, s2 = 0, s3 = 0;
  for (int s : sizes) {
    N += s;
    s2 += double(s) * s;
    s3 += double(s) * s * (2.0 * s + 3.0);
  }
  const double mean = (N * N - s2) / 4, var = (N * N * (2 * N + 3) - s3) / 72;
  if (!(var > 0)) return j <= mean ? 1.0 : 0.0;
  const double corrected = THM_FAULT(trend_tail_no_continuity) ? j : j - 0.5;
  return boost::math::cdf(boost::math::complement(boost::math::normal_distribution<double>(mean, std::sqrt(var)), corrected));
}

// Above this many values the exact tail below is replaced by the normal one (its table of q-binomial coefficients grows
// like N^4 entries and its counts overflow double). The normal tail is the larger, so a test on it rejects less: at
// N = 60 in 4 groups of 15, 5.7e-4 against the exact 4.9e-4 where the exact one crosses 5e-4 (tests/theorems/test_claims_goel.cpp).
inline constexpr int kJonckheereExactMax = 60;

// Its upper tail P(J >= j) when the values are exchangeable (continuous, no ties), exact up to kJonckheereExactMax
// values: J has the law of the inversions of a uniformly random multiset permutation, whose generating function is the
// q-multinomial coefficient prod_g [N_g; s_g]_q, N_g = s_1 + .. + s_g ([n; k]_q = [n-1; k-1]_q + q^k [n-1; k]_q).
inline double jonckheere_upper_tail(const std::vector<int>& sizes, int j) {
  int values = 0;
  for (int s : sizes) values += s;
  if (values > kJonckheereExactMax) return jonckheere_upper_tail_normal(sizes, j);
  using Poly = std::vector<double>;
  const auto q_binomial = [](int n, int k) {
    std::vector<std::vector<Poly>> c(n + 1, std::vector<Poly>(k + 1));
    for (int m = 0; m <= n; ++m)
      for (int i = 0; i <= std::min(m, k); ++i) {
        if (i == 0 || i == m) {
          c[m][i] = Poly{1.0};
          continue;
        }
        const Poly &a = c[m - 1][i - 1], &b = c[m - 1][i];
        Poly r(std::max(a.size(), b.size() + i), 0.0);
        for (std::size_t t = 0; t < a.size(); ++t) r[t] += a[t];
        for (std::size_t t = 0; t < b.size(); ++t) r[t + i] += b[t];
        c[m][i] = r;
      }
    return c[n][k];
  };
  Poly g{1.0};
  int total = 0;
  for (int s : sizes) {
    total += s;
    const Poly q = q_binomial(total, s);
    Poly r(g.size() + q.size() - 1, 0.0);
    for (std::size_t a = 0; a < g.size(); ++a)
      for (std::size_t b = 0; b < q.size(); ++b) r[a + b] += g[a] * q[b];
    g = r;
  }
  double all = 0, tail = 0;
  for (std::size_t t = 0; t < g.size(); ++t) {
    all += g[t];
    if (static_cast<int>(t) >= j) tail += g[t];
  }
  return tail / all;
}

}  // namespace thm
