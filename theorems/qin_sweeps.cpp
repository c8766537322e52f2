// The sweeps at every rung of the ladder (experiments use double; the empirical claims every rung).
#include "theorems/detail/qin_sweeps_impl.hpp"

namespace thm {

template BetaSweep beta_sweep<double>(const Instance&, const BetaSweepOptions&);
template BetaSweep beta_sweep<mp50>(const Instance&, const BetaSweepOptions&);
template DepthSweep depth_sweep<double>(const Instance&, const DepthSweepOptions&);
template DepthSweep depth_sweep<mp50>(const Instance&, const DepthSweepOptions&);
template BetaSweep beta_sweep<mp100>(const Instance&, const BetaSweepOptions&);
template DepthSweep depth_sweep<mp100>(const Instance&, const DepthSweepOptions&);
template BetaSweep beta_sweep<mpfr_dynamic>(const Instance&, const BetaSweepOptions&);
template DepthSweep depth_sweep<mpfr_dynamic>(const Instance&, const DepthSweepOptions&);

}  // namespace thm
