// Explicit instantiations of the [Q] claims for mp100.
#define THM_SCALAR mp100
#include "theorems/detail/instantiate_qin_claims.inc"
