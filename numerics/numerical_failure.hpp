// A computation that cannot give a trustworthy number: a decomposition of a non-finite matrix, or one that did
// not converge (Eigen reports it only through info(), and leaves its results unset). The evaluation that needed
// it is inconclusive with this reason (properties/runner.hpp, evaluate_case), never a number.
#pragma once

#include <stdexcept>

namespace thm {

struct NumericalFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace thm
