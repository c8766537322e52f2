// A generic numerics header that reaches up into reports/: include_rules.cmake must refuse it.
#include "reports/csv.hpp"
