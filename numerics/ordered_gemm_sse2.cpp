// The ordered GEMM's kernel on sse2 vectors (2 doubles; CMakeLists.txt gives this file its -m flags): see
// numerics/detail/ordered_gemm_kernel.inc.
#define THM_GEMM_WIDTH 2
#define THM_GEMM_NR 6
#define THM_GEMM_ENTRY run
namespace thm::gemm_sse2 {
#include "numerics/detail/ordered_gemm_kernel.inc"
}  // namespace thm::gemm_sse2
