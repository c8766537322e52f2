// Monte-Carlo estimates for [G]'s finite-token attention (claims goel.population.*). Every draw comes
// from a seeded Rng in double (tokens x = Sigma^{1/2} z, z ~ N(0, I)) and is lifted exactly, so the same
// draws are evaluated at every precision; the per-draw values are returned as doubles for the statistics.
#pragma once

#include "numerics/models/goel/attention_regression.hpp"
#include "numerics/random.hpp"

#include <vector>

namespace thm {

struct McEstimate {
  double mean = 0, std_error = 0;  // sample mean and its standard error s / sqrt(n)
  int draws = 0;
};
McEstimate summarize(const std::vector<double>& samples);

// Per draw of `tokens` fresh tokens: ||A (sum_j softmax_j(w^T x_j) x_j - target)||^2.
template <class T>
std::vector<double> attention_error_samples(const Mat<T>& A, const Vec<T>& w, const Vec<T>& target, const Mat<T>& sqrt_sigma,
                                            int tokens, int draws, Rng& rng);

// Per draw of (q ~ N(0, Sigma), xi ~ N(0, s^2 I), `tokens` tokens): 1/2 ||A avg(B^T q) - M q - xi||^2.
template <class T>
std::vector<double> population_loss_samples(const Mat<T>& A, const Mat<T>& B, const RegressionTask<T>& task, int tokens,
                                            int draws, Rng& rng);

// Common random numbers for a Richardson extrapolation in T: per draw (q, xi, `long_tokens` tokens),
// l1 on the first `short_tokens` tokens and l2 on all of them; returns (T2 l2 - T1 l1) / (T2 - T1).
template <class T>
std::vector<double> richardson_loss_samples(const Mat<T>& A, const Mat<T>& B, const RegressionTask<T>& task, int short_tokens,
                                            int long_tokens, int draws, Rng& rng);

#define THM_MONTE_CARLO_EXTERN(T)                                                                                      \
  extern template std::vector<double> attention_error_samples(const Mat<T>&, const Vec<T>&, const Vec<T>&, const Mat<T>&, \
                                                              int, int, Rng&);                                         \
  extern template std::vector<double> population_loss_samples(const Mat<T>&, const Mat<T>&, const RegressionTask<T>&, int, \
                                                              int, Rng&);   \
  extern template std::vector<double> richardson_loss_samples(const Mat<T>&, const Mat<T>&, const RegressionTask<T>&, int, \
                                                              int, int, Rng&);
THM_MONTE_CARLO_EXTERN(double)
THM_MONTE_CARLO_EXTERN(mpfr_dynamic)
#undef THM_MONTE_CARLO_EXTERN

}  // namespace thm
