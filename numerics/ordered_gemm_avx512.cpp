// The ordered GEMM's kernel on avx512 vectors (8 doubles; CMakeLists.txt gives this file its -m flags): see
// numerics/detail/ordered_gemm_kernel.inc.
#define THM_GEMM_WIDTH 8
#define THM_GEMM_NR 8
#define THM_GEMM_ENTRY run
namespace thm::gemm_avx512 {
#include "numerics/detail/ordered_gemm_kernel.inc"
}  // namespace thm::gemm_avx512
