#include "numerics/fault.hpp"

#include <array>
#include <string>

namespace thm {

namespace detail {
std::atomic<int> active_fault{0};
std::atomic<std::uint64_t> reached_faults[kFaultWords] = {};
}  // namespace detail

namespace {

// Every THM_FAULT site, from the scan of the sources (numerics/fault_locations.cmake), joined per fault.
std::array<std::string, kFaultCount + 1> scanned_locations() {
  std::array<std::string, kFaultCount + 1> at;
  const auto add = [&](Fault f, const char* where) {
    std::string& s = at[static_cast<std::size_t>(f)];
    s += (s.empty() ? "" : ", ") + std::string(where);
  };
#define X(name, where) add(Fault::name, where);
#include "numerics/fault_locations.inc"
#undef X
  return at;
}

}  // namespace

const std::vector<FaultInfo>& all_faults() {
  static const std::array<std::string, kFaultCount + 1> locations = scanned_locations();
  static const std::vector<FaultInfo> faults = {
#define THM_FAULT_INFO(name, kind, written_for, checks, description) \
  {Fault::name, FaultKind::kind, #name, written_for, checks, description, locations[static_cast<std::size_t>(Fault::name)]},
      THM_FAULT_LIST(THM_FAULT_INFO)
#undef THM_FAULT_INFO
  };
  return faults;
}

const FaultInfo& fault_info(Fault f) { return all_faults().at(static_cast<std::size_t>(f) - 1); }

std::optional<Fault> parse_fault(std::string_view name) {
  for (const FaultInfo& f : all_faults())
    if (f.name == name) return f.fault;
  return std::nullopt;
}

bool fault_points_built() {
#ifdef THM_FAULTS
  return true;
#else
  return false;
#endif
}

void clear_reached_faults() {
  for (auto& w : detail::reached_faults) w.store(0, std::memory_order_relaxed);
}

bool fault_reached(Fault f) {
  const int i = static_cast<int>(f);
  return (detail::reached_faults[i / 64].load(std::memory_order_relaxed) >> (i % 64)) & 1U;
}

}  // namespace thm
