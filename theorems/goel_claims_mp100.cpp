// Explicit instantiations of the [G] claims for mp100.
#define THM_SCALAR mp100
#include "theorems/detail/instantiate_goel_claims.inc"
