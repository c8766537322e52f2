// The dispatcher of numerics/ordered_gemm.hpp: scratch for the packed blocks, the choice of kernel, and the one
// case the kernels leave to it (an accumulating product deeper than one packed block, summed apart and then added).
#include "numerics/ordered_gemm.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace thm {

namespace gemm_sse2 {
void run(long m, long n, long k, const double* a, long lda, bool ta, const double* b, long ldb, bool tb, double* c,
         long ldc, bool accumulate, double* scratch);
}
namespace gemm_avx2 {
void run(long m, long n, long k, const double* a, long lda, bool ta, const double* b, long ldb, bool tb, double* c,
         long ldc, bool accumulate, double* scratch);
}
namespace gemm_avx512 {
void run(long m, long n, long k, const double* a, long lda, bool ta, const double* b, long ldb, bool tb, double* c,
         long ldc, bool accumulate, double* scratch);
}

namespace {

// The kernels' block depth and their widest tile (numerics/detail/ordered_gemm_kernel.inc): MR <= 16, NR <= 8.
constexpr Eigen::Index kBlockDepth = 256, kMaxTileRows = 16, kMaxTileCols = 8;

// The widest kernel the CPU has, capped by the environment variable THM_GEMM_ISA (sse2, avx2 or avx512f) when set:
// how a report is checked to be the same bytes on a narrower machine (tests/cli/same_kernel.cmake). Another value is bad
// input: one line, exit 2.
GemmIsa widest_supported() {
  static const GemmIsa widest = [] {
    __builtin_cpu_init();
    GemmIsa cpu = GemmIsa::sse2;
    if (__builtin_cpu_supports("avx512f")) cpu = GemmIsa::avx512;
    else if (__builtin_cpu_supports("avx2")) cpu = GemmIsa::avx2;
    const char* cap = std::getenv("THM_GEMM_ISA");
    if (cap == nullptr || *cap == '\0') return cpu;
    for (GemmIsa isa : {GemmIsa::sse2, GemmIsa::avx2, GemmIsa::avx512})
      if (gemm_isa_name(isa) == cap) return std::min(isa, cpu);
    std::fprintf(stderr, "thmcheck: error: THM_GEMM_ISA=%s: expected sse2, avx2 or avx512f\n", cap);
    std::exit(2);
  }();
  return widest;
}

thread_local int forced = -1;  // a ScopedGemmIsa's kernel on this thread, -1 for none

struct Scratch {
  std::vector<double> packed, partial;
};
thread_local Scratch scratch;

}  // namespace

std::string_view gemm_isa_name(GemmIsa isa) {
  switch (isa) {
    case GemmIsa::sse2: return "sse2";
    case GemmIsa::avx2: return "avx2";
    case GemmIsa::avx512: return "avx512f";
  }
  return "?";
}

GemmIsa gemm_isa() { return forced >= 0 ? static_cast<GemmIsa>(forced) : widest_supported(); }

std::vector<GemmIsa> gemm_isas_supported() {
  std::vector<GemmIsa> r{GemmIsa::sse2};
  if (widest_supported() >= GemmIsa::avx2) r.push_back(GemmIsa::avx2);
  if (widest_supported() >= GemmIsa::avx512) r.push_back(GemmIsa::avx512);
  return r;
}

ScopedGemmIsa::ScopedGemmIsa(GemmIsa isa) : previous_(forced) {
  if (isa > widest_supported()) throw std::invalid_argument("ScopedGemmIsa: this CPU cannot run the kernel");
  forced = static_cast<int>(isa);
}
ScopedGemmIsa::~ScopedGemmIsa() { forced = previous_; }

void ordered_gemm(Eigen::Index m, Eigen::Index n, Eigen::Index k, const double* a, Eigen::Index lda, bool trans_a,
                  const double* b, Eigen::Index ldb, bool trans_b, double* c, Eigen::Index ldc, bool accumulate) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0) {  // the empty sum: C = 0, or C + 0
    for (Eigen::Index j = 0; j < n; ++j)
      for (Eigen::Index i = 0; i < m; ++i) c[i + j * ldc] = accumulate ? c[i + j * ldc] + 0.0 : 0.0;
    return;
  }
  const std::size_t need = static_cast<std::size_t>((kBlockDepth + 1) * (kMaxTileRows + kMaxTileCols));
  if (scratch.packed.size() < need) scratch.packed.resize(need);
  auto run = [&](double* out, Eigen::Index ldo, bool acc) {
    switch (gemm_isa()) {
      case GemmIsa::avx512: gemm_avx512::run(m, n, k, a, lda, trans_a, b, ldb, trans_b, out, ldo, acc, scratch.packed.data()); break;
      case GemmIsa::avx2: gemm_avx2::run(m, n, k, a, lda, trans_a, b, ldb, trans_b, out, ldo, acc, scratch.packed.data()); break;
      case GemmIsa::sse2: gemm_sse2::run(m, n, k, a, lda, trans_a, b, ldb, trans_b, out, ldo, acc, scratch.packed.data()); break;
    }
  };
  if (!accumulate || k <= kBlockDepth) {
    run(c, ldc, accumulate);
    return;
  }
  // C + op(A) op(B) deeper than one block: the product's chains complete apart, then added.
  std::vector<double>& partial = scratch.partial;
  if (partial.size() < static_cast<std::size_t>(m * n)) partial.resize(static_cast<std::size_t>(m * n));
  run(partial.data(), m, false);
  for (Eigen::Index j = 0; j < n; ++j)
    for (Eigen::Index i = 0; i < m; ++i) c[i + j * ldc] = c[i + j * ldc] + partial[i + j * m];
}

}  // namespace thm
