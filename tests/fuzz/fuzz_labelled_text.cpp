// libFuzzer target: the corpus reader of `thmcheck experiment --text FILE`. Every input must be read or refused with a
// DataError (one line naming the file, line and column); a crash or a sanitizer report is a finding.
#include "reports/labelled_text.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/tmp/thmcheck-fuzz-text-" + std::to_string(::getpid()) + ".tsv";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    const thm::LabelledText c = thm::read_labelled_text(path);
    // What is accepted is what the reader promises: two classes, every document labelled by one and holding a token.
    if (c.classes.size() != 2 || c.documents.empty()) std::abort();
    for (const auto& d : c.documents)
      if (d.label < 0 || d.label > 1 || d.tokens.empty()) std::abort();
  } catch (const thm::DataError&) {
  }
  return 0;
}
