// A labelled text corpus: documents of two classes, each a sequence of tokens (what `thmcheck experiment --text` reads
// from a file, reports/labelled_text.hpp, and what the [Q] experiments embed into sequences, numerics/token_embedding.hpp).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace thm {

struct LabelledText {
  struct Document {
    int label = 0;                    // index into `classes`
    std::vector<std::string> tokens;  // in reading order
    std::size_t line = 0;             // where the document is in its file (1-based), for messages
  };
  std::vector<std::string> classes;  // the two labels, in order of first appearance
  std::vector<Document> documents;   // in file order
};

}  // namespace thm
