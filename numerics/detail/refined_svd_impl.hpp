// Ogita-Aishima refinement of an SVD; the derivation of the step and of the acceptance bound is in
// docs/derivations/refined_svd.md (section names cited below).
#pragma once

#include "numerics/matmul.hpp"
#include "numerics/numerical_failure.hpp"
#include "numerics/refined_svd.hpp"
#include "numerics/spectral.hpp"
#include "numerics/detail/scaled_double.hpp"

#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace thm {
namespace detail {

// The MPFR reference path: Eigen's JacobiSVD at the working precision.
template <class T>
RefinedSvd<T> svd_fallback(const Mat<T>& a, SvdVectors vectors, int iterations) {
  RefinedSvd<T> out;
  out.path = SvdPath::mpfr_fallback;
  out.iterations = iterations;
  const unsigned options = vectors == SvdVectors::full ? Eigen::ComputeFullU | Eigen::ComputeFullV : 0u;
  const auto take = [&](const auto& svd) {
    if (svd.info() != Eigen::Success) throw NumericalFailure("the SVD did not converge");
    out.values = svd.singularValues();
    if (vectors == SvdVectors::full) {
      out.U = svd.matrixU();
      out.V = svd.matrixV();
    }
  };
  take(Eigen::JacobiSVD<Mat<T>>(a, options));  // Jacobi at every size: no MPFR BDCSVD is built (spectral_impl.hpp)
  ++svd_path_counts().mpfr_fallback;
  return out;
}

// ||X||_2 <= sqrt(||X||_1 ||X||_inf), and <= ||X||_F.
template <class T>
T norm2_upper(const Mat<T>& x) {
  using std::sqrt;
  if (x.size() == 0) return T(0);
  const Mat<T> ax = x.cwiseAbs();
  const T one = ax.colwise().sum().maxCoeff(), inf = ax.rowwise().sum().maxCoeff();
  return std::min(T(sqrt(T(one * inf))), T(x.norm()));
}

// The tall case, m >= n >= 1, A not zero.
template <class T>
RefinedSvd<T> refine_tall(const Mat<T>& a, SvdVectors vectors, int max_iterations) {
  using std::abs;
  using std::sqrt;
  const Eigen::Index m = a.rows(), n = a.cols();
  const bool want_uv = vectors == SvdVectors::full;
  const T eps = epsilon<T>();

  // Starting point: the double SVD of A scaled by a power of two (exact, detail/scaled_double.hpp).
  int e = 0;
  const MatD ad = detail::scaled_to_double(a, e);
  MatD u0, v0;
  const auto take = [&](const auto& svd) {
    if (svd.info() != Eigen::Success) return false;
    u0 = svd.matrixU();
    v0 = svd.matrixV();
    return u0.allFinite() && v0.allFinite();
  };
  const unsigned full = Eigen::ComputeFullU | Eigen::ComputeFullV;
  const bool ok = n <= 16 ? take(Eigen::JacobiSVD<MatD>(ad, full)) : take(Eigen::BDCSVD<MatD>(ad, full));
  if (!ok) return svd_fallback<T>(a, vectors, 0);
  Mat<T> U = u0.template cast<T>(), V = v0.template cast<T>();

  const int steps = max_iterations >= 0
                        ? max_iterations
                        : int(std::ceil(std::log2(std::max(1.0, double(decimal_digits<T>()) / 15.0)))) + 4;
  T previous_bound = std::numeric_limits<T>::infinity(), previous_step = T(0);
  const T inf = std::numeric_limits<T>::infinity();
  // Off-diagonal norms summed directly (|row|^2 - t_ii^2 would cancel to sqrt(eps) |t_ii|).
  const auto off_norm = [](const auto& v, Eigen::Index skip) {
    T s2 = T(0);
    for (Eigen::Index k = 0; k < v.size(); ++k)
      if (k != skip) s2 += v(k) * v(k);
    return T(sqrt(s2));
  };
  Mat<T> R, S, F(m, m), G(n, n);
  T rho_prev = inf, vsig_prev = inf;  // bounds on ||R||_2, ||S||_2 of the previous iterate
  for (int k = 0;; ++k) {
    // T = U^T A V ("The step").
    const Mat<T> W = product(a, V);
    const Mat<T> Tm = product(U, W, Trans::transpose, Trans::none);
    const T tau = norm2_upper(Tm);  // >= ||T||_2
    Vec<T> row_off(n), col_off(n);
    T offdiag_t2 = T(0);  // ||offdiag(T)||_F^2
    for (Eigen::Index i = 0; i < n; ++i) {
      row_off(i) = off_norm(Tm.row(i), i);
      col_off(i) = off_norm(Tm.col(i), i);
      offdiag_t2 += col_off(i) * col_off(i);
    }
    const T offdiag_t = sqrt(offdiag_t2);

    // sigma_i = t_ii / (1 - (r_ii + s_ii)/2) and the acceptance bound ("Acceptance bound") from the diagonals of
    // R, S, the off-diagonal norms of their columns and bounds rho, vsig on ||R||_2, ||S||_2.
    Vec<T> sigma(n), d(n), eta(n);
    T math_bound = inf, omega = inf, norm_a = T(0), rounding = T(0), allowance = T(0);
    bool small = false, values_ok = false;
    const auto estimate = [&](const Vec<T>& r_diag, const Vec<T>& s_diag, const Vec<T>& r_off, const Vec<T>& s_off,
                              const T& rho, const T& vsig) {
      Vec<T> x(n);
      for (Eigen::Index i = 0; i < n; ++i) {
        x(i) = (r_diag(i) + s_diag(i)) / T(2);
        sigma(i) = Tm(i, i) / (T(1) - x(i));
      }
      d = sigma.cwiseAbs();
      norm_a = d.maxCoeff();
      math_bound = omega = inf;
      eta.setConstant(inf);
      small = rho < T(0.5) && vsig < T(0.5);
      if (small) {
        // ||(I - R)^{-1/2} - I - R/2||_2 <= 3/8 rho^2 (1 - rho)^{-5/2}.
        const auto delta = [](const T& r) { return T(3) / T(8) * r * r / ((T(1) - r) * (T(1) - r) * sqrt(T(1) - r)); };
        const T du = delta(rho), dv = delta(vsig);
        const T e_norm = tau * (du + dv + rho * vsig / T(4) + rho * dv / T(2) + vsig * du / T(2) + du * dv);
        const T c = (rho + vsig) / T(2) * tau + e_norm;  // ||B - T||_2
        omega = offdiag_t + T(2) * c;                        // ||offdiag(B)||_2
        for (Eigen::Index i = 0; i < n; ++i) {
          const T xa = abs(x(i));
          if (xa < T(0.5))
            eta(i) = abs(Tm(i, i)) * xa * xa / (T(1) - xa) + (r_off(i) * col_off(i) + row_off(i) * s_off(i)) / T(2) +
                     e_norm;
        }
        math_bound = T(0);
        for (Eigen::Index i = 0; i < n; ++i) {
          // Distance from |b_ii| to the other points of the Jordan-Wielandt diagonal: |b_jj| (j != i), -|b_ii|,
          // and 0 when m > n.
          T gap = m > n ? T(d(i) - eta(i)) : T(T(2) * (d(i) - eta(i)));
          for (Eigen::Index j = 0; j < n; ++j)
            if (j != i) gap = std::min(gap, T(abs(T(d(i) - d(j))) - eta(i) - eta(j)));
          T beta = omega;  // Weyl
          if (gap > T(2) * omega) {
            const T br = row_off(i) + c, bc = col_off(i) + c;
            beta = std::min(omega, T((br * br + bc * bc) / T(2) / (gap - omega)));  // quadratic residual bound
          }
          math_bound = std::max(math_bound, T(eta(i) + beta));
        }
      }
      // Rounding of T's entries (inner products of lengths n and m) and of the quotient: a model, not a bound.
      rounding = T(m + n + 2) * eps * norm_a;
      allowance = singular_value_error_bound<T>(m, n, norm_a);
      values_ok = math_bound + rounding <= allowance;
    };

    // Values only, after a step: first try without forming R and S (two products fewer). diag(R) from U's
    // column norms; ||R||_2 bounded through R_new = R - F - F^T + F^T R + R F - F^T F + F^T R F
    // ("Cheaper last check").
    if (!want_uv && k >= 1) {
      const auto rho_after = [&](const Mat<T>& Rp, const Mat<T>& Fp, const T& rp, const Mat<T>& Un) {
        const Eigen::Index p = Rp.rows();
        const T f = Fp.norm(), un = Un.norm();
        const T r_round = T(p + 2) * eps * T(p) * (T(1) + f) * (T(1) + f);  // |computed R_prev - exact|, ||U_prev||_F^2 ~ p
        const T u_round = T(p + 2) * eps * (sqrt(T(p)) * f + un);        // ||fl(U + U F) - U (I + F)||_F
        const T rp_exact = rp + r_round;
        const Mat<T> Nm = Rp - Fp - Mat<T>(Fp.transpose());
        return T(Nm.norm() + T(2) * f * rp_exact + f * f * (T(1) + rp_exact) + r_round + T(2) * un * u_round +
                 u_round * u_round);
      };
      const T rho = rho_after(R, F, rho_prev, U), vsig = rho_after(S, G, vsig_prev, V);
      Vec<T> r_diag(n), s_diag(n), r_off = Vec<T>::Constant(n, rho), s_off = Vec<T>::Constant(n, vsig);
      for (Eigen::Index i = 0; i < n; ++i) {
        r_diag(i) = T(1) - U.col(i).squaredNorm();
        s_diag(i) = T(1) - V.col(i).squaredNorm();
      }
      estimate(r_diag, s_diag, r_off, s_off, rho, vsig);
    }
    if (want_uv || k == 0 || !values_ok) {
      // R = I - U^T U, S = I - V^T V.
      R = -product(U, U, Trans::transpose, Trans::none);
      R.diagonal().array() += T(1);
      S = -product(V, V, Trans::transpose, Trans::none);
      S.diagonal().array() += T(1);
      Vec<T> r_off(n), s_off(n);
      for (Eigen::Index i = 0; i < n; ++i) {
        r_off(i) = off_norm(R.col(i), i);  // R, S symmetric
        s_off(i) = off_norm(S.col(i), i);
      }
      rho_prev = norm2_upper(R);
      vsig_prev = norm2_upper(S);
      estimate(Vec<T>(R.diagonal().head(n)), Vec<T>(S.diagonal()), r_off, s_off, rho_prev, vsig_prev);
    }

    // The corrections F, G ("The step"); pairs closer than 2 omega are clustered.
    const T cluster = small ? T(T(2) * omega) : inf;
    const auto build_corrections = [&]() {
      for (Eigen::Index j = 0; j < n; ++j)
        for (Eigen::Index i = 0; i < n; ++i) {
          if (i == j) {
            F(i, i) = R(i, i) / T(2);
            G(i, i) = S(i, i) / T(2);
          } else if (abs(T(d(i) - d(j))) <= cluster) {
            F(i, j) = R(i, j) / T(2);
            G(i, j) = S(i, j) / T(2);
          } else {
            const T si = sigma(i), sj = sigma(j);
            const T p = -Tm(i, j) - R(i, j) * sj, q = -Tm(j, i) - S(i, j) * sj;
            const T den = si * si - sj * sj;
            F(i, j) = (p * sj + q * si) / den;
            G(i, j) = (p * si + q * sj) / den;
          }
        }
      for (Eigen::Index i = n; i < m; ++i) {
        for (Eigen::Index j = 0; j < n; ++j) {
          F(j, i) = d(j) <= cluster ? T(R(j, i) / T(2)) : T(-Tm(i, j) / sigma(j));
          F(i, j) = R(i, j) - F(j, i);
        }
        for (Eigen::Index j = n; j < m; ++j) F(i, j) = R(i, j) / T(2);
      }
    };

    bool accept = values_ok && !want_uv;
    int applied = k;
    if (!accept) {
      // No quadratic progress of the values' bound: clustered or zero singular values, whose bound is first
      // order ("Fallback").
      if (!values_ok && k >= 2 && !(math_bound < previous_bound / T(4))) return svd_fallback<T>(a, vectors, k);
      if (k >= steps && !(want_uv && values_ok)) return svd_fallback<T>(a, vectors, k);
      build_corrections();
      const T step = std::max(T(F.norm()), T(G.norm()));
      if (values_ok && want_uv && k >= 1) {
        // Predicted error of U(I + F), V(I + G): c ||F||^2 with c measured from the last two steps (>= 1).
        const T c = std::max(T(1), T(step / (previous_step * previous_step)));
        bool clusters_diagonal = true;  // a clustered pair's t_ij is not corrected by F, G
        for (Eigen::Index j = 0; j < n && clusters_diagonal; ++j)
          for (Eigen::Index i = 0; i < n; ++i)
            if (i != j && abs(T(d(i) - d(j))) <= cluster && abs(Tm(i, j)) > allowance) clusters_diagonal = false;
        accept = clusters_diagonal && c * step * step <= allowance / norm_a;
      }
      if (!accept && k >= steps) return svd_fallback<T>(a, vectors, k);
      U += product(U, F);
      V += product(V, G);
      applied = k + 1;
      previous_step = step;
    }
    previous_bound = math_bound;
    if (!accept) continue;

    // Sorted decreasing; a negative estimate flips its column of U.
    std::vector<Eigen::Index> order(n);
    std::iota(order.begin(), order.end(), Eigen::Index(0));
    std::stable_sort(order.begin(), order.end(), [&](Eigen::Index p, Eigen::Index q) { return d(p) > d(q); });
    RefinedSvd<T> out;
    out.values.resize(n);
    for (Eigen::Index i = 0; i < n; ++i) out.values(i) = d(order[i]);
    out.iterations = applied;
    out.error_bound = math_bound + rounding;
    if (want_uv) {
      out.U = U;
      out.V.resize(n, n);
      for (Eigen::Index i = 0; i < n; ++i) {
        const bool flip = sigma(order[i]) < 0;
        out.V.col(i) = V.col(order[i]);
        out.U.col(i) = flip ? Vec<T>(-U.col(order[i])) : Vec<T>(U.col(order[i]));
      }
    }
    ++svd_path_counts().refined;
    return out;
  }
}

}  // namespace detail

template <class T>
RefinedSvd<T> refined_svd(const Mat<T>& a, SvdVectors vectors, int max_iterations) {
  const Eigen::Index m = a.rows(), n = a.cols();
  if (!a.allFinite()) throw NumericalFailure("SVD of a non-finite matrix (an intermediate overflowed)");
  const bool want_uv = vectors == SvdVectors::full;
  if (m == 0 || n == 0 || a.isZero(0)) {
    RefinedSvd<T> out;
    out.values = Vec<T>::Zero(std::min(m, n));
    if (want_uv) {
      out.U = Mat<T>::Identity(m, m);
      out.V = Mat<T>::Identity(n, n);
    }
    ++svd_path_counts().refined;
    return out;
  }
  if (m >= n) return detail::refine_tall<T>(a, vectors, max_iterations);
  // Wide: A^T = U' S V'^T, so A = V' S U'^T.
  RefinedSvd<T> t = detail::refine_tall<T>(Mat<T>(a.transpose()), vectors, max_iterations);
  std::swap(t.U, t.V);
  return t;
}

}  // namespace thm
