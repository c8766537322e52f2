// Explicit instantiations of the [G] claims for double.
#define THM_SCALAR double
#include "theorems/detail/instantiate_goel_claims.inc"
