// Explicit instantiations of the [G] numerics for mpfr_dynamic.
#define THM_SCALAR mpfr_dynamic
#include "numerics/detail/instantiate_goel.inc"
