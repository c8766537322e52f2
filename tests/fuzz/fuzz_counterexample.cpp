// libFuzzer target: the path of `thmcheck explore --instance FILE` (read and validate a counterexample file, check
// its instance against the claim's schema, then evaluate it in double). Every input must end in a clean refusal (an exception the CLI turns into a
// one-line error and exit 2) or an evaluation; a crash, a sanitizer report or a hang is a finding.
#include "properties/runner.hpp"
#include "reports/counterexample.hpp"
#include "theorems/registry.hpp"

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/tmp/thmcheck-fuzz-cx-" + std::to_string(::getpid()) + ".json";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    const thm::Counterexample c = thm::read_counterexample(path);
    for (const thm::Claim& claim : thm::all_claims())
      if (claim.id == c.claim) {
        claim.schema.check(c.instance);  // as explore does, before any arithmetic
        (void)thm::evaluate_case(claim, c.instance, thm::Precision::float64, c.variant);
      }
  } catch (const std::exception&) {
    // A clean refusal: main() prints it as one line and exits 2.
  }
  return 0;
}
