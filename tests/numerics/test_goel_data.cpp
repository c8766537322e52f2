// The data draws of the [G] studies (data_seed, numerics/models/goel/algorithm1_studies.hpp): every draw (n, s) of an
// instance's grid is its own, sharing no token with any other, so the estimates at different n and replicates are
// independent (the trend and exponent tests of the risk claims assume it; docs/derivations/goel.risk.excess_bound_1_over_n.md).
// With fault points built in, data_seed_shared_across_n (the draws at every n from one stream per replicate) makes the
// draws at different n share their first tokens, and the same check sees it: the catalogue's `checks` says so.
#include "numerics/fault.hpp"
#include "numerics/models/goel/algorithm1_studies.hpp"
#include "theorems/goel/optimum.hpp"

#include <doctest/doctest.h>

#include <vector>

using namespace thm;

namespace {

Instance study_instance() {
  Rng rng(31);
  RngChoices src(rng, 50);
  return detail::generate_optimum(src);
}

// Pairs of draws (n, s) != (n', s') over the grid and replicates 0 .. replicates - 1 that have a token (a row of X) in
// common, bit for bit. Independent Gaussian draws share none with probability one.
int shared_draw_pairs(const Instance& inst, const std::vector<int>& grid, int replicates) {
  std::vector<MatD> draws;
  for (int n : grid)
    for (int s = 0; s < replicates; ++s) draws.push_back(draw_goel_data(inst, n, data_seed(inst, n, s)).X);
  int pairs = 0;
  for (std::size_t i = 0; i < draws.size(); ++i)
    for (std::size_t j = i + 1; j < draws.size(); ++j) {
      bool shared = false;
      for (Eigen::Index a = 0; a < draws[i].rows() && !shared; ++a)
        for (Eigen::Index b = 0; b < draws[j].rows() && !shared; ++b) shared = draws[i].row(a) == draws[j].row(b);
      pairs += shared;
    }
  return pairs;
}

}  // namespace

TEST_CASE("[G] data: the draws of a study at different n and replicates share no token") {
  CHECK(shared_draw_pairs(study_instance(), {8, 16, 32, 64}, 3) == 0);
}

#ifdef THM_FAULTS
TEST_CASE("[G] data: under data_seed_shared_across_n the draws at different n share tokens, and the check sees it") {
  const ActiveFault guard(Fault::data_seed_shared_across_n);
  // Replicate s at n and at n' come from one stream: the first min(n, n') tokens agree, 3 pairs per two sizes.
  CHECK(shared_draw_pairs(study_instance(), {8, 16, 32, 64}, 3) == 3 * 6);
}
#endif
