// Explicit instantiations of the [G] numerics for double.
#define THM_SCALAR double
#include "numerics/detail/instantiate_goel.inc"
