// Matrix products on the GD hot path. Double goes to Eigen's kernels. For MPFR scalars Eigen's
// generic kernel builds two temporaries per multiply-add (a*b, then +), and initialising and clearing
// them is about half of an MP training step (bench/README.md); here each entry is accumulated in two
// reused variables with mpfr_mul and mpfr_add, rounded exactly as Eigen's kernel rounds (mpfr_fma is
// slower: it leaves MPFR's same-precision fast paths).
#pragma once

#include "numerics/eigen_types.hpp"

#include <mpfr.h>
#include <stdexcept>
#include <type_traits>

namespace thm {

enum class Trans { none, transpose };

template <class T>
struct is_mpfr_number : std::false_type {};
template <unsigned Digits, bmp::mpfr_allocation_type A, bmp::expression_template_option E>
struct is_mpfr_number<bmp::number<bmp::mpfr_float_backend<Digits, A>, E>> : std::true_type {};

// op(a) op(b), op = identity or transpose.
template <class T>
Mat<T> product(const Mat<T>& a, const Mat<T>& b, Trans ta = Trans::none, Trans tb = Trans::none) {
  const bool at = ta == Trans::transpose, bt = tb == Trans::transpose;
  const Eigen::Index rows = at ? a.cols() : a.rows(), inner = at ? a.rows() : a.cols();
  const Eigen::Index inner_b = bt ? b.cols() : b.rows(), cols = bt ? b.rows() : b.cols();
  if (inner != inner_b) throw std::invalid_argument("product: inner dimensions differ");
  if constexpr (!is_mpfr_number<T>::value) {  // double, AutoDiff scalars: Eigen
    if (at && bt) return a.transpose() * b.transpose();
    if (at) return a.transpose() * b;
    if (bt) return a * b.transpose();
    return a * b;
  } else {
    Mat<T> c(rows, cols);
    T acc, term;  // reused: no temporaries; same-precision mul and add take MPFR's fast paths
    for (Eigen::Index j = 0; j < cols; ++j)
      for (Eigen::Index i = 0; i < rows; ++i) {
        mpfr_set_zero(acc.backend().data(), 1);
        for (Eigen::Index k = 0; k < inner; ++k) {
          const T& x = at ? a(k, i) : a(i, k);
          const T& y = bt ? b(j, k) : b(k, j);
          mpfr_mul(term.backend().data(), x.backend().data(), y.backend().data(), MPFR_RNDN);
          mpfr_add(acc.backend().data(), acc.backend().data(), term.backend().data(), MPFR_RNDN);
        }
        c(i, j) = acc;
      }
    return c;
  }
}

}  // namespace thm
