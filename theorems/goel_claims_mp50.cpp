// Explicit instantiations of the [G] claims for mp50.
#define THM_SCALAR mp50
#include "theorems/detail/instantiate_goel_claims.inc"
