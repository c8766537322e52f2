#include "numerics/baseline_libm.hpp"

#include <gnu/libc-version.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace thm {

namespace {

constexpr const char* kHwcaps = "glibc.cpu.hwcaps=";
constexpr const char* kMask = "-FMA,-FMA4";
constexpr const char* kMarker = "THM_BASELINE_LIBM";

// GLIBC_TUNABLES with the mask: added to the user's glibc.cpu.hwcaps where there is one, appended otherwise.
std::string masked_tunables(const char* current) {
  std::string t = current ? current : "";
  const std::size_t at = t.find(kHwcaps);
  if (at != std::string::npos) return t.insert(at + std::strlen(kHwcaps), std::string(kMask) + ",");
  return t.empty() ? std::string(kHwcaps) + kMask : t + ":" + kHwcaps + kMask;
}

// This process started with the mask in the tunables glibc read (set by use_baseline_libm, or by whoever started it).
bool masked() {
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  return tunables && std::strstr(tunables, kHwcaps) != nullptr && std::strstr(tunables, kMask) != nullptr;
}

bool restart_failed = false;

bool native_requested() {
  const char* native = std::getenv("THM_NATIVE_LIBM");
  return native && std::strcmp(native, "1") == 0;
}

}  // namespace

void use_baseline_libm(char** argv) {
  if (masked() || native_requested()) return;
  if (std::getenv(kMarker)) {  // a second start whose mask did not hold: never loop
    restart_failed = true;
    return;
  }
  const std::string tunables = masked_tunables(std::getenv("GLIBC_TUNABLES"));
  if (setenv("GLIBC_TUNABLES", tunables.c_str(), 1) != 0 || setenv(kMarker, "1", 1) != 0) return;
  execv("/proc/self/exe", argv);
  unsetenv(kMarker);  // the exec failed: go on as we are
  restart_failed = true;
}

std::string libm_variants() {
  const std::string glibc = std::string("glibc ") + gnu_get_libc_version();
  if (masked()) return glibc + ", baseline (FMA versions masked)";
  if (native_requested()) return glibc + ", as the CPU chose (THM_NATIVE_LIBM=1)";
  return glibc + (restart_failed ? ", as the CPU chose (the masked start failed)" : ", as the CPU chose (a process thmcheck did not start)");
}

}  // namespace thm
