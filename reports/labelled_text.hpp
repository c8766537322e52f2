// Labelled text in: the two-class corpora `thmcheck experiment --text` reads (numerics/labelled_text.hpp).
#pragma once

#include "numerics/labelled_text.hpp"
#include "reports/csv.hpp"  // DataError

#include <filesystem>

namespace thm {

// One document per line, `LABEL<TAB>TEXT`: LABEL is 1 to 64 characters of [A-Za-z0-9_.-]; TEXT is split into tokens,
// the maximal runs of ASCII letters and digits and of bytes >= 0x80 (so that a UTF-8 word stays whole), ASCII letters
// lower-cased; everything else separates tokens. Blank lines and lines starting with '#' are skipped, a UTF-8 byte-order
// mark at the start and a '\r' at a line's end are dropped. Exactly two labels (a two-class corpus), each document at
// least one token, no control byte but the tab, at most kMaxTextDocuments documents, lines of at most kMaxTextLine bytes
// and files of at most kMaxTextBytes. Anything else: DataError, one line, "FILE:LINE:COLUMN: what".
inline constexpr std::size_t kMaxTextDocuments = 100000, kMaxTextLine = 1 << 20, kMaxTextBytes = std::size_t{64} << 20;
LabelledText read_labelled_text(const std::filesystem::path& path);

}  // namespace thm
