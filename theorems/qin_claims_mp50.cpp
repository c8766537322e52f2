// Explicit instantiations of the [Q] claims for mp50.
#define THM_SCALAR mp50
#include "theorems/detail/instantiate_qin_claims.inc"
