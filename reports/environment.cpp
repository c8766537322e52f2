#include "reports/environment.hpp"

#include "numerics/baseline_libm.hpp"

#include <Eigen/Core>
#include <boost/version.hpp>
#include <mpfr.h>

#include <string>

#ifndef THM_BUILD_TYPE
#define THM_BUILD_TYPE "unknown"
#endif
#include "reports/revision.hpp"  // THM_GIT_REVISION, generated at build time (scripts/revision.cmake)

namespace thm {

std::vector<std::pair<std::string, std::string>> environment_stamp() {
  return {{"compiler", std::string("GCC-compatible ") + __VERSION__},
          {"eigen", std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) + "." +
                        std::to_string(EIGEN_MINOR_VERSION)},
          {"boost", std::to_string(BOOST_VERSION / 100000) + "." + std::to_string(BOOST_VERSION / 100 % 1000) + "." +
                        std::to_string(BOOST_VERSION % 100)},
          {"mpfr", mpfr_get_version()},
          {"libm", libm_variants()},
          {"build_type", THM_BUILD_TYPE},
          {"git_revision", THM_GIT_REVISION}};
}

}  // namespace thm
