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

// This process started with the mask: the marker set by use_baseline_libm and the mask in the tunables glibc read.
bool masked() {
  const char* marker = std::getenv(kMarker);
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  return marker && std::strcmp(marker, "1") == 0 && tunables && std::strstr(tunables, kMask) != nullptr;
}

bool native_requested() {
  const char* native = std::getenv("THM_NATIVE_LIBM");
  return native && std::strcmp(native, "1") == 0;
}

}  // namespace

void use_baseline_libm(char** argv) {
  if (masked() || native_requested()) return;
  if (std::getenv(kMarker)) return;  // a second start whose mask did not hold: never loop
  const std::string tunables = masked_tunables(std::getenv("GLIBC_TUNABLES"));
  if (setenv("GLIBC_TUNABLES", tunables.c_str(), 1) != 0 || setenv(kMarker, "1", 1) != 0) return;
  execv("/proc/self/exe", argv);
  unsetenv(kMarker);  // the exec failed: go on as we are
}

std::string libm_variants() {
  const std::string glibc = std::string("glibc ") + gnu_get_libc_version();
  if (masked()) return glibc + ", baseline (FMA versions masked)";
  return glibc + (native_requested() ? ", as the CPU chose (THM_NATIVE_LIBM=1)" : ", as the CPU chose (the masked start failed)");
}

}  // namespace thm
