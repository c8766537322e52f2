// Matrix products on the hot paths. Double goes to Eigen's kernels. MPFR scalars go to the Ozaki scheme
// (numerics/ozaki_product.hpp: digits in doubles, exact double GEMMs, one rounding per entry) from
// ozaki::worthwhile sizes on; below them, and where the scheme does not apply (non-finite entries), each entry is
// accumulated in two reused variables with mpfr_mul and mpfr_add, rounded as Eigen's kernel rounds: the reference
// path, product_mpfr_loop (Eigen's generic kernel builds two temporaries per multiply-add; mpfr_fma is slower: it
// leaves MPFR's same-precision fast paths).
#pragma once

#include "numerics/eigen_types.hpp"
#include "numerics/ozaki_product.hpp"

#include <mpfr.h>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace thm {

enum class Trans { none, transpose };

template <class T>
struct is_mpfr_number : std::false_type {};
template <unsigned Digits, bmp::mpfr_allocation_type A, bmp::expression_template_option E>
struct is_mpfr_number<bmp::number<bmp::mpfr_float_backend<Digits, A>, E>> : std::true_type {};

namespace detail {
inline void check_inner(Eigen::Index inner, Eigen::Index inner_b) {
  if (inner != inner_b) throw std::invalid_argument("product: inner dimensions differ");
}
}  // namespace detail

// op(a) op(b) by the MPFR loop: the reference the Ozaki path is tested against.
template <class T>
Mat<T> product_mpfr_loop(const Mat<T>& a, const Mat<T>& b, Trans ta = Trans::none, Trans tb = Trans::none) {
  static_assert(is_mpfr_number<T>::value);
  const bool at = ta == Trans::transpose, bt = tb == Trans::transpose;
  const Eigen::Index rows = at ? a.cols() : a.rows(), inner = at ? a.rows() : a.cols();
  const Eigen::Index cols = bt ? b.rows() : b.cols();
  detail::check_inner(inner, bt ? b.cols() : b.rows());
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

// op(a) op(b) by the Ozaki scheme into c; false (c unspecified) when the scheme does not apply.
template <class T>
bool product_ozaki(const Mat<T>& a, const Mat<T>& b, Trans ta, Trans tb, Mat<T>& c) {
  static_assert(is_mpfr_number<T>::value);
  const bool at = ta == Trans::transpose, bt = tb == Trans::transpose;
  const Eigen::Index rows = at ? a.cols() : a.rows(), inner = at ? a.rows() : a.cols();
  const Eigen::Index cols = bt ? b.rows() : b.cols();
  detail::check_inner(inner, bt ? b.cols() : b.rows());
  std::vector<mpfr_srcptr> pa(static_cast<std::size_t>(rows * inner)), pb(static_cast<std::size_t>(inner * cols));
  for (Eigen::Index k = 0; k < inner; ++k)
    for (Eigen::Index i = 0; i < rows; ++i) pa[i + k * rows] = (at ? a(k, i) : a(i, k)).backend().data();
  for (Eigen::Index j = 0; j < cols; ++j)
    for (Eigen::Index k = 0; k < inner; ++k) pb[k + j * inner] = (bt ? b(j, k) : b(k, j)).backend().data();
  c.resize(rows, cols);
  std::vector<mpfr_ptr> pc(static_cast<std::size_t>(rows * cols));
  for (Eigen::Index e = 0; e < rows * cols; ++e) pc[e] = c.data()[e].backend().data();
  return ozaki::product(rows, cols, inner, pa.data(), pb.data(), pc.data());
}

// op(a) op(b), op = identity or transpose.
template <class T>
Mat<T> product(const Mat<T>& a, const Mat<T>& b, Trans ta = Trans::none, Trans tb = Trans::none) {
  const bool at = ta == Trans::transpose, bt = tb == Trans::transpose;
  if constexpr (!is_mpfr_number<T>::value) {  // double, AutoDiff scalars: Eigen
    detail::check_inner(at ? a.rows() : a.cols(), bt ? b.cols() : b.rows());
    if (at && bt) return a.transpose() * b.transpose();
    if (at) return a.transpose() * b;
    if (bt) return a * b.transpose();
    return a * b;
  } else {
    const Eigen::Index rows = at ? a.cols() : a.rows(), inner = at ? a.rows() : a.cols();
    const Eigen::Index cols = bt ? b.rows() : b.cols();
    if (ozaki::worthwhile(rows, cols, inner)) {
      Mat<T> c;
      if (product_ozaki(a, b, ta, tb, c)) return c;
    }
    return product_mpfr_loop(a, b, ta, tb);
  }
}

}  // namespace thm
