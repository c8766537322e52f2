// Explicit instantiations of the [Q] claims for mpfr_dynamic (explore --digits N).
#define THM_SCALAR mpfr_dynamic
#include "theorems/detail/instantiate_qin_claims.inc"
