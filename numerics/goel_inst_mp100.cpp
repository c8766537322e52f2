// Explicit instantiations of the [G] numerics for mp100.
#define THM_SCALAR mp100
#include "numerics/detail/instantiate_goel.inc"
