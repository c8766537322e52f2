// Explicit instantiations of the numerics kernels for mp50.
#define THM_SCALAR mp50
#include "numerics/detail/instantiate.inc"
