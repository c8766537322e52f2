// The figures of a run's pages, as inline SVG: the proof map of the index, and an evaluation's series as plots.
#pragma once

#include "theorems/claim.hpp"

#include <map>
#include <string>
#include <vector>

namespace thm {

// Proof map: claims in layers (a lemma sits left of every theorem it supports), edges lemma -> theorem, each node
// coloured by its claim's verdict and linked to its page in claims/.
std::string proof_map(const std::vector<const Claim*>& claims, const std::map<std::string, ClaimVerdict>& verdict);

// An evaluation's series as plots, one per variable (in order of first appearance), trajectories (t) and wide
// ranges on a log axis.
std::vector<std::string> series_plots(const std::vector<Series>& series, const std::string& title);

}  // namespace thm
