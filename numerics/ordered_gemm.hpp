// Double matrix products whose every entry is summed in index order on every machine: the [Q] model's products in
// double (numerics/models/qin/detail/transformer_impl.hpp). Each entry of op(A) op(B) is one chain
//   s = 0;  s = s + a_{i,0} b_{0,j};  s = s + a_{i,1} b_{1,j};  ...   (each product rounded, then each sum; no FMA)
// so the result is the same bits as the naive triple loop, whichever kernel ran. The kernel is chosen at run time
// from the CPU (SSE2, AVX2 or AVX-512F vectors across the entries, never across a sum), which changes the speed and
// not the bits: docs/guide/campaigns-and-reproducibility.md, "The same bytes on every machine"; tests/numerics/test_reproducibility.cpp checks it.
#pragma once

#include <Eigen/Core>

#include <string_view>
#include <vector>

namespace thm {

enum class GemmIsa { sse2, avx2, avx512 };
std::string_view gemm_isa_name(GemmIsa isa);

// C (m x n, column-major, leading dimension ldc) = op(A) op(B), or C + op(A) op(B) when accumulate (the product's sum
// complete before C's entry is added, as Eigen's C += A * B). op(A) is m x k: A is m x k (lda >= m) or, transposed,
// k x m (lda >= k); op(B) is k x n likewise. C must not overlap A or B.
void ordered_gemm(Eigen::Index m, Eigen::Index n, Eigen::Index k, const double* a, Eigen::Index lda, bool trans_a,
                  const double* b, Eigen::Index ldb, bool trans_b, double* c, Eigen::Index ldc, bool accumulate = false);

// The kernel this thread uses: the widest the CPU has, or the one a ScopedGemmIsa chose.
GemmIsa gemm_isa();
// The kernels this CPU can run, narrowest first (sse2 always).
std::vector<GemmIsa> gemm_isas_supported();

// Runs this thread's ordered_gemm on one kernel while it lives (the tests compare every kernel's bits); the kernel
// must be supported (std::invalid_argument otherwise).
class ScopedGemmIsa {
 public:
  explicit ScopedGemmIsa(GemmIsa isa);
  ~ScopedGemmIsa();
  ScopedGemmIsa(const ScopedGemmIsa&) = delete;
  ScopedGemmIsa& operator=(const ScopedGemmIsa&) = delete;

 private:
  int previous_;
};

}  // namespace thm
