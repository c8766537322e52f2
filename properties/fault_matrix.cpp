#include "properties/fault_matrix.hpp"

#include "properties/claim_result.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <map>
#include <mutex>
#include <sstream>

namespace thm {

namespace {

// The claims `claims` in variant `variant` under whatever fault is active: one cell each, in their order.
std::vector<FaultCell> run_cells(const FaultMatrixOptions& options, const std::vector<const Claim*>& claims, Variant variant) {
  RunOptions run = options.run;
  run.variant = variant;
  run.shrink = false;
  run.tightness_probe = false;
  run.only_case.reset();
  std::vector<FaultCell> cells(claims.size());
  std::map<const Claim*, std::string> thrown;
  std::mutex lock;
  run_claims(
      claims, run,
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
        cell.claim = claims[k];
        if (rows.empty()) {
          const std::lock_guard<std::mutex> guard(lock);
          const auto it = thrown.find(cell.claim);
          cell.exception = it != thrown.end() ? it->second : "no rows";
          return;
        }
        const ResolvedVerdict v = resolve_claim(std::move(rows)).verdict;
        cell.verdict = v.verdict;
        cell.resolved_as_expected = v.is_expected();
      });
  return cells;
}

using Reach = std::vector<bool>;  // indexed by static_cast<int>(Fault)

// The baseline, one claim at a time (each with every job), and the fault points each claim reached.
std::vector<FaultCell> run_baseline(const FaultMatrixOptions& options, Variant variant, std::vector<Reach>& reach) {
  std::vector<FaultCell> cells;
  reach.assign(options.claims.size(), Reach(kFaultCount + 1, false));
  for (std::size_t c = 0; c < options.claims.size(); ++c) {
    clear_reached_faults();
    cells.push_back(run_cells(options, {options.claims[c]}, variant).front());
    for (int f = 1; f <= kFaultCount; ++f) reach[c][f] = fault_reached(static_cast<Fault>(f));
  }
  return cells;
}

// Under the active fault: the claims that reached it run again, the others keep their baseline cell (FaultOutcome::reached_by
// says which ran).
std::vector<FaultCell> run_reached(const FaultMatrixOptions& options, Variant variant, const std::vector<FaultCell>& baseline,
                                   const std::vector<Reach>& reach, Fault f) {
  std::vector<const Claim*> again;
  std::vector<std::size_t> where;
  for (std::size_t c = 0; c < options.claims.size(); ++c)
    if (reach[c][static_cast<int>(f)]) {
      again.push_back(options.claims[c]);
      where.push_back(c);
    }
  std::vector<FaultCell> cells = baseline;
  if (again.empty()) return cells;
  const std::vector<FaultCell> ran = run_cells(options, again, variant);
  for (std::size_t k = 0; k < ran.size(); ++k) cells[where[k]] = ran[k];
  return cells;
}

bool written_for(const FaultInfo& f, const std::string& id) {
  std::stringstream list{std::string(f.written_for)};
  for (std::string item; std::getline(list, item, ',');)
    if (item == id) return true;
  return false;
}

}  // namespace

std::vector<const Claim*> FaultOutcome::caught_by_general() const {
  std::vector<const Claim*> out;
  for (const auto* list : {&caught_by, &caught_by_control})
    for (const Claim* c : *list)
      if (!written_for(fault, c->id) && std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  return out;
}

int fault_matrix_cases(const Claim& claim, std::optional<int> cases) {
  if (cases) return std::max(1, std::min(*cases, claim.default_cases));
  return std::max(1, std::min(kFaultDefaultMaxCases, claim.default_cases / kFaultCaseDivisor));
}

int FaultMatrix::caught() const {
  return static_cast<int>(std::count_if(faults.begin(), faults.end(), [](const FaultOutcome& f) { return f.caught(); }));
}
int FaultMatrix::caught(FaultKind kind) const {
  return static_cast<int>(
      std::count_if(faults.begin(), faults.end(), [kind](const FaultOutcome& f) { return f.fault.kind == kind && f.caught(); }));
}
int FaultMatrix::total(FaultKind kind) const {
  return static_cast<int>(std::count_if(faults.begin(), faults.end(), [kind](const FaultOutcome& f) { return f.fault.kind == kind; }));
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
  const bool any_checker = std::any_of(options.faults.begin(), options.faults.end(),
                                       [](Fault f) { return fault_info(f).kind == FaultKind::checker; });
  std::vector<Reach> reach, control_reach;
  {
    const auto start = clock();
    const ActiveFault none(Fault::none);
    m.baseline = run_baseline(options, Variant::claim, reach);
    if (any_checker) m.control_baseline = run_baseline(options, Variant::negative_control, control_reach);
    if (progress) {
      FaultOutcome b{{Fault::none, FaultKind::model, "baseline", "", "", "no fault", ""}, m.baseline, m.control_baseline, {}, {}, {}, seconds_since(start)};
      progress(b, 0, options.faults.size());
    }
  }
  for (std::size_t k = 0; k < options.faults.size(); ++k) {
    const Fault f = options.faults[k];
    FaultOutcome out;
    out.fault = fault_info(f);
    const bool checker = out.fault.kind == FaultKind::checker;
    const auto start = clock();
    {
      const ActiveFault active(f);
      out.cells = run_reached(options, Variant::claim, m.baseline, reach, f);
      if (checker) out.control_cells = run_reached(options, Variant::negative_control, m.control_baseline, control_reach, f);
    }
    out.seconds = seconds_since(start);
    for (std::size_t c = 0; c < out.cells.size(); ++c) {
      if (reach[c][static_cast<int>(f)] || (checker && control_reach[c][static_cast<int>(f)])) out.reached_by.push_back(m.claims[c]);
      if (m.baseline[c].as_expected() && !out.cells[c].as_expected()) out.caught_by.push_back(m.claims[c]);
      if (checker && m.control_baseline[c].as_expected() && !out.control_cells[c].as_expected())
        out.caught_by_control.push_back(m.claims[c]);
    }
    m.faults.push_back(std::move(out));
    if (progress) progress(m.faults.back(), k + 1, options.faults.size());
  }
  return m;
}

}  // namespace thm
