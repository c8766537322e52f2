// A [Q] helper that reaches into the other paper's folder: include_rules.cmake must refuse it.
#include "theorems/goel/noise.hpp"
