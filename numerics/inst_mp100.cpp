// Explicit instantiations of the numerics kernels for mp100.
#define THM_SCALAR mp100
#include "numerics/detail/instantiate.inc"
