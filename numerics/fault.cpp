#include "numerics/fault.hpp"

namespace thm {

namespace detail {
std::atomic<int> active_fault{0};
}

const std::vector<FaultInfo>& all_faults() {
  static const std::vector<FaultInfo> faults = {
#define THM_FAULT_INFO(name, where, description) {Fault::name, #name, where, description},
      THM_FAULT_LIST(THM_FAULT_INFO)
#undef THM_FAULT_INFO
  };
  return faults;
}

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

}  // namespace thm
