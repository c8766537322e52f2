// The Markdown of a run: summary.md (fits a CI job summary) and claims/<id>.md, with the worst case and the command
// that replays it.
#pragma once

#include "reports/run_result.hpp"

#include <string>

namespace thm {

std::string summary_markdown(const RunResult& result);
std::string claim_markdown(const ClaimResult& result);

}  // namespace thm
