// Row softmax, stable: each row has its maximum subtracted before exp, so logits of any magnitude
// give finite rows that sum to one (to rounding).
#pragma once

#include "numerics/eigen_types.hpp"

namespace thm {

// S_jk = exp(K_jk - max_l K_jl) / sum_m exp(K_jm - max_l K_jl). Row-stochastic.
template <class T>
Mat<T> softmax_rows(const Mat<T>& logits);

extern template Mat<double> softmax_rows(const Mat<double>&);
extern template Mat<mpfr_dynamic> softmax_rows(const Mat<mpfr_dynamic>&);

}  // namespace thm
