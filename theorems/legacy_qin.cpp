#include "theorems/legacy_registry.hpp"

#include "theorems/qin_trends.hpp"

namespace thm::legacy {

void qin_claims(std::vector<Claim>& claims) {
  using P = Provenance;
  using K = ClaimKind;
  Claim depth = entry(kDepthCollapseId, P::empirical, K::trend,
                      "at init, beta = 0: median 1/kappa(Z_i^(l)) < 1e-8 by layer 3; beta = 1: > 1e-3 through layer 6; after "
                      "training, the loss decreases with depth with residuals (Spearman <= -0.8) and does not without",
                      "the beta = 1 conditioning bound (> 1e-3 through layer 6) claimed for beta = 0", kDepthCollapseCases,
                      generate_depth_collapse, THM_EVALUATORS(evaluate_depth_collapse));
  depth.required_support = 0.9;
  depth.finding = finding(kDepthCollapseId,
                          "the training half fails: with residuals, deeper models (1-4 blocks) end at a higher loss than shallower "
                          "ones under full-batch GD with a sharpness-scaled step (held in 1% of 970 judged instances); the forward "
                          "collapse half is reproduced");
  depth.mp_cases = 1;
  depth.ladder_checks = 0;
  claims.push_back(depth);
}

}  // namespace thm::legacy
