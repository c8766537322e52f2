// Generators of the [G] geometry claims not yet in their own file (the shared pieces: theorems/goel/generators.hpp).
#include "theorems/goel/generators.hpp"
#include "theorems/goel_geometry.hpp"
#include "theorems/goel_instance.hpp"

#include <cmath>

namespace thm {

Instance generate_one_point_strong_convexity(ChoiceSource& src) {
  // One case in four (for d >= 2): Z* of rank r < d, theta displaced along the quartic direction
  // (claims.md): outside the claim's hypothesis, so discarded by the claim and caught by its control.
  if (!src.coin(0.25)) return generate_one_point_region(src);
  GSpec s;
  s.d = sized_dimension(src, 2, detail::kDimCap - 1);
  s.k = s.d + static_cast<int>(src.integer(0, 2));
  s.rank = static_cast<int>(src.integer(1, s.d - 1));
  detail::draw_problem(src, s);
  s.point = GPoint::quartic;
  s.delta = detail::rho_of(s) * src.log_real(1e-3, 0.999);
  s.entropy = src.entropy();
  return build_goel(s);
}

}  // namespace thm
