#include "numerics/allocation.hpp"

#include <malloc.h>

namespace thm {

void use_heap_for_large_matrices() {
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
}

}  // namespace thm
