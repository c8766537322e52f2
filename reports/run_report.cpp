#include "reports/run_report.hpp"

#include "reports/atomic_write.hpp"
#include "reports/counterexample.hpp"
#include "reports/json_reports.hpp"
#include "reports/junit_xml.hpp"
#include "reports/pages.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

namespace thm {

namespace {

void write_counterexamples(const std::filesystem::path& cx, const RunResult& result) {
  const auto write_cx = [&](const std::string& file, const nlohmann::json& j) {
    prepare_report_dir(cx);
    atomic_write(cx / file, j.dump(2) + "\n");
  };
  const auto write_origin = [&](const CounterexampleSource& src, const Instance& inst, const Evaluation& e) {
    write_cx(counterexample_filename(src.claim, inst, src.variant), counterexample_json(src, inst, e));
  };
  for (const ClaimResult& claim : result.claims)
    for (const ClaimRun& r : claim.rows) {
      if (r.cases_violated > 0 && r.worst_instance) {
        write_cx(counterexample_filename(r), counterexample_json(r));
        if (r.shrunk)
          write_origin({r.claim->id, r.variant, r.seed, -1, r.case_count, "double",
                        fmt::format("shrunk from case {} by structure ({} changes; mp50/mp100: {})", r.shrunk->from_case,
                                    r.shrunk->steps.size(), to_string(r.shrunk->ladder))},
                       r.shrunk->instance, r.shrunk->evaluation);
      }
      if (r.artifact_case)
        write_origin({r.claim->id, r.variant, r.seed, *r.artifact_case, r.case_count, "double",
                      "rounding artifact: violated in double, holds at mp50 and mp100"},
                     *r.artifact_instance, *r.artifact_evaluation);
    }
}

}  // namespace

std::string write_report(const std::filesystem::path& dir, const RunResult& result) {
  atomic_write(dir / "summary.json", summary_json(result).dump(2) + "\n");
  const Page summary = summary_page(result);
  atomic_write(dir / "summary.md", render_markdown(summary));
  atomic_write(dir / "index.html", render_html(summary));
  const std::string junit = junit_xml(result);
  atomic_write(dir / "junit.xml", junit);
  prepare_report_dir(dir / "claims");
  write_counterexamples(dir / "counterexamples", result);
  for (const ClaimResult& c : result.claims) {
    const Page page = claim_page(c);
    atomic_write(dir / "claims" / (c.claim().id + ".md"), render_markdown(page));
    atomic_write(dir / "claims" / (c.claim().id + ".json"), claim_json(c).dump(2) + "\n");
    atomic_write(dir / "claims" / (c.claim().id + ".html"), render_html(page));
  }
  return junit;
}

}  // namespace thm
