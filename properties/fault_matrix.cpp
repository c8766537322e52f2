#include "properties/fault_matrix.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <map>
#include <mutex>

namespace thm {

namespace {

std::vector<FaultCell> run_cells(const FaultMatrixOptions& options) {
  RunOptions run = options.run;
  run.variant = Variant::claim;
  run.shrink = false;
  run.tightness_probe = false;
  run.only_case.reset();
  std::vector<FaultCell> cells(options.claims.size());
  std::map<const Claim*, std::string> thrown;
  std::mutex lock;
  run_claims(
      options.claims, run,
      [&](const Claim& c, const RunOptions& o) -> std::vector<ClaimRun> {
        RunOptions mine = o;
        mine.cases = fault_matrix_cases(c, options.cases);
        try {
          return run_claim(c, mine);
        } catch (const std::exception& e) {
          const std::lock_guard<std::mutex> guard(lock);
          thrown[&c] = e.what();
        } catch (...) {
          const std::lock_guard<std::mutex> guard(lock);
          thrown[&c] = "unknown exception";
        }
        return {};
      },
      [&](std::size_t k, std::vector<ClaimRun> rows) {
        FaultCell& cell = cells[k];
        cell.claim = options.claims[k];
        if (rows.empty()) {
          const std::lock_guard<std::mutex> guard(lock);
          const auto it = thrown.find(cell.claim);
          cell.exception = it != thrown.end() ? it->second : "no rows";
          return;
        }
        std::vector<const ClaimRun*> ptrs;
        for (const ClaimRun& r : rows) ptrs.push_back(&r);
        const ResolvedVerdict v = resolve(ptrs);
        cell.verdict = v.verdict;
        cell.resolved_as_expected = v.is_expected();
      });
  return cells;
}

}  // namespace

int fault_matrix_cases(const Claim& claim, std::optional<int> cases) {
  if (cases) return std::max(1, std::min(*cases, claim.default_cases));
  return std::max(1, std::min(kFaultDefaultMaxCases, claim.default_cases / kFaultCaseDivisor));
}

int FaultMatrix::caught() const {
  return static_cast<int>(std::count_if(faults.begin(), faults.end(), [](const FaultOutcome& f) { return !f.caught_by.empty(); }));
}

FaultMatrix run_fault_matrix(const FaultMatrixOptions& options,
                             const std::function<void(const FaultOutcome&, std::size_t, std::size_t)>& progress) {
  FaultMatrix m;
  m.seed = options.run.seed;
  m.precisions = options.run.precisions;
  m.cases = options.cases;
  m.claims = options.claims;
  const auto clock = std::chrono::steady_clock::now;
  const auto seconds_since = [&](auto start) { return std::chrono::duration<double>(clock() - start).count(); };
  {
    const auto start = clock();
    const ActiveFault none(Fault::none);
    m.baseline = run_cells(options);
    if (progress) {
      FaultOutcome b{{Fault::none, "baseline", "", "no fault"}, m.baseline, {}, seconds_since(start)};
      progress(b, 0, options.faults.size());
    }
  }
  const auto& catalogue = all_faults();
  for (std::size_t k = 0; k < options.faults.size(); ++k) {
    const Fault f = options.faults[k];
    const auto info = std::find_if(catalogue.begin(), catalogue.end(), [f](const FaultInfo& i) { return i.fault == f; });
    FaultOutcome out;
    out.fault = *info;
    const auto start = clock();
    {
      const ActiveFault active(f);
      out.cells = run_cells(options);
    }
    out.seconds = seconds_since(start);
    for (std::size_t c = 0; c < out.cells.size(); ++c)
      if (m.baseline[c].as_expected() && !out.cells[c].as_expected()) out.caught_by.push_back(out.cells[c].claim);
    m.faults.push_back(std::move(out));
    if (progress) progress(m.faults.back(), k + 1, options.faults.size());
  }
  return m;
}

}  // namespace thm
