#include "numerics/refined_svd.hpp"

namespace thm {

SvdPathCounts& svd_path_counts() {
  thread_local SvdPathCounts counts;
  return counts;
}

}  // namespace thm
