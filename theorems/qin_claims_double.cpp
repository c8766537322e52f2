// Explicit instantiations of the [Q] claims for double.
#define THM_SCALAR double
#include "theorems/detail/instantiate_qin_claims.inc"
