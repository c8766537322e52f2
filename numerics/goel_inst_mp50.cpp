// Explicit instantiations of the [G] numerics for mp50.
#define THM_SCALAR mp50
#include "numerics/detail/instantiate_goel.inc"
