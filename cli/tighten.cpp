// `thmcheck tighten ID`: hill climbing over the claim's generating choices (properties/structural_search.hpp)
// that maximises the tightest ratio lhs/rhs (1 - relative slack) of the claim's conditions, in double.
// Prints the best ratio and the condition that attains it, and saves the instance as a counterexample-
// format file that `explore` replays at any precision.
#include "cli/commands.hpp"
#include "properties/explore.hpp"
#include "properties/structural_search.hpp"
#include "reports/atomic_write.hpp"
#include "reports/counterexample.hpp"
#include "theorems/registry.hpp"

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <cmath>

namespace thm::cli {

int tighten(const TightenArgs& a) {
  const Claim& claim = select_one_claim(a.claim, "tighten");
  if (a.evaluations < 5 || a.evaluations > 1000000) throw UsageError("--evaluations must be in [5, 1000000]");
  if (!(a.seconds > 0) || a.seconds > 86400) throw UsageError("--seconds must be in (0, 86400]");
  const Variant variant = a.negative_control ? Variant::negative_control : Variant::claim;
  try {
    prepare_report_dir(a.out);  // fail before the search, not after it
  } catch (const ReportError& err) {
    throw UsageError(err.what());
  }
  const TightenResult r = tighten(claim, variant, a.seed, SearchLimits{a.evaluations, a.seconds});
  fmt::print("{} ({}), seed {}: {} evaluations ({} discarded, {} accepted moves) in {:.1f} s\n", claim.id, to_string(variant), a.seed,
             r.evaluations, r.discarded, r.accepted, r.seconds);
  if (!r.found) {
    fmt::print("no instance met the hypotheses: nothing to tighten (vacuous in these evaluations)\n");
    return kExitUnexpected;
  }
  const TightestCondition& t = r.tightest;
  fmt::print("best ratio lhs/rhs = {:.6g} (random starts: {:.6g}) on \"{}\": lhs {:.6g}, rhs {:.6g}\n", t.ratio, r.first_ratio, t.name, t.lhs, t.rhs);
  const JudgedInstance best = judge_in_double(claim, r.best.instance, variant);
  const CaseVerdict v = best.verdict;
  // The verdict, not the ratio, decides: a ratio of 1 within the rounding noise is inconclusive.
  fmt::print("verdict on that instance (double): {}{}\n", to_string(v),
             v == CaseVerdict::violated       ? ": a candidate counterexample; classify it with explore --instance"
             : v == CaseVerdict::inconclusive ? ": the bound is attained to within the rounding noise"
                                              : "");
  const CounterexampleSource src{claim.id, variant, a.seed, -1, 0, "double",
                                 fmt::format("tighten: best of {} evaluations, ratio {:.6g}", r.evaluations, t.ratio)};
  const std::filesystem::path dir = std::filesystem::path(a.out);
  const std::filesystem::path file = dir / counterexample_filename(claim.id, r.best.instance, variant);
  try {
    atomic_write(file, counterexample_json(src, r.best.instance, best.evaluation).dump(2) + "\n");  // the directory was prepared above
  } catch (const ReportError& err) {
    throw UsageError(err.what());
  }
  fmt::print("instance: {}\nsaved {} (replay: thmcheck explore {} --instance {})\n", r.best.instance.describe().substr(0, 400), file.string(),
             claim.id, file.string());
  return kExitOk;
}


Command add_tighten(CLI::App& app) {
  auto a = std::make_shared<TightenArgs>();
  CLI::App* cmd = app.add_subcommand("tighten", "Search the claim's generating parameters for the largest lhs/rhs; save that instance");
  cmd->add_option("id", a->claim, "Claim id")->required();
  cmd->add_option("--evaluations", a->evaluations, "Evaluations of the claim (default 200)");
  cmd->add_option("--seconds", a->seconds, "Wall-clock cap in seconds (default 60)");
  add_seed_option(*cmd, [a](std::uint64_t s) { a->seed = s; }, "The seed of the search (default 1)");
  cmd->add_option("--out", a->out, "Where the best instance is saved (default reports/tighten)");
  cmd->add_flag("--negative-control", a->negative_control, "Search the broken variant");
  return {cmd, [a] { return tighten(*a); }};
}

}  // namespace thm::cli
