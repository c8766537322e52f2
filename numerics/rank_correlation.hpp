// Spearman's rank correlation (average ranks for ties), for trend claims.
#pragma once

#include <vector>

namespace thm {

// Ranks 1..n of x, ties get the average of their ranks.
std::vector<double> average_ranks(const std::vector<double>& x);

// Pearson correlation of the ranks; 0 when either side is constant. x and y of equal length >= 2.
double spearman_rho(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace thm
