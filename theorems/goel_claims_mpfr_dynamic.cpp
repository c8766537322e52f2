// Explicit instantiations of the [G] claims for mpfr_dynamic.
#define THM_SCALAR mpfr_dynamic
#include "theorems/detail/instantiate_goel_claims.inc"
