// Explicit instantiations of the numerics kernels for double.
#define THM_SCALAR double
#include "numerics/detail/instantiate.inc"
