// Explicit instantiations of the numerics kernels for mpfr_dynamic (explore --digits N).
#define THM_SCALAR mpfr_dynamic
#include "numerics/detail/instantiate.inc"
