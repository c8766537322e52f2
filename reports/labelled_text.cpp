#include "reports/labelled_text.hpp"

#include <fstream>
#include <system_error>

namespace thm {

namespace {

bool label_char(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
}

bool token_char(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80; }

}  // namespace

LabelledText read_labelled_text(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw DataError(name + ": is a directory, not a text file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DataError("cannot read text file '" + name + "'");
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > kMaxTextBytes)
    throw DataError(name + ": " + std::to_string(size) + " bytes (at most " + std::to_string(kMaxTextBytes) + ")");
  auto at = [&](std::size_t line, std::size_t column) { return name + ":" + std::to_string(line) + ":" + std::to_string(column) + ": "; };

  LabelledText corpus;
  std::string line;
  std::size_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line_no == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);
    if (line.size() > kMaxTextLine)
      throw DataError(at(line_no, kMaxTextLine + 1) + "a line of " + std::to_string(line.size()) + " bytes (at most " +
                      std::to_string(kMaxTextLine) + ")");
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    for (std::size_t i = 0; i < line.size(); ++i) {
      const unsigned char c = static_cast<unsigned char>(line[i]);
      if ((c < 0x20 && c != '\t') || c == 0x7f) throw DataError(at(line_no, i + 1) + "control byte " + quote_for_message(std::string(1, line[i])));
    }
    const std::size_t tab = line.find('\t');
    const std::size_t label_end = tab == std::string::npos ? line.size() : tab;
    for (std::size_t i = 0; i < label_end; ++i)
      if (!label_char(static_cast<unsigned char>(line[i])))
        throw DataError(at(line_no, i + 1) + (tab == std::string::npos ? "expected LABEL<TAB>TEXT, found no tab"
                                                                       : "a label is 1 to 64 characters of [A-Za-z0-9_.-], found " +
                                                                             quote_for_message(std::string(1, line[i]))));
    if (tab == std::string::npos) throw DataError(at(line_no, line.size() + 1) + "expected LABEL<TAB>TEXT, found no tab");
    if (tab == 0) throw DataError(at(line_no, 1) + "the label is empty");
    if (tab > 64) throw DataError(at(line_no, 65) + "the label is longer than 64 characters");
    const std::string label = line.substr(0, tab);
    int k = 0;
    while (k < static_cast<int>(corpus.classes.size()) && corpus.classes[static_cast<std::size_t>(k)] != label) ++k;
    if (k == static_cast<int>(corpus.classes.size())) {
      if (corpus.classes.size() == 2)
        throw DataError(at(line_no, 1) + "a third label " + quote_for_message(label) + " (a two-class corpus; the labels so far are " +
                        quote_for_message(corpus.classes[0]) + " and " + quote_for_message(corpus.classes[1]) + ")");
      corpus.classes.push_back(label);
    }
    LabelledText::Document doc;
    doc.label = k;
    doc.line = line_no;
    std::string token;
    for (std::size_t i = tab + 1; i <= line.size(); ++i) {
      const unsigned char c = i < line.size() ? static_cast<unsigned char>(line[i]) : ' ';
      if (token_char(c)) {
        token += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : static_cast<char>(c);
      } else if (!token.empty()) {
        doc.tokens.push_back(std::move(token));
        token.clear();
      }
    }
    if (doc.tokens.empty()) throw DataError(at(line_no, tab + 2) + "the document has no token (letters or digits)");
    if (corpus.documents.size() >= kMaxTextDocuments)
      throw DataError(at(line_no, 1) + "more than " + std::to_string(kMaxTextDocuments) + " documents");
    corpus.documents.push_back(std::move(doc));
  }
  if (corpus.documents.empty()) throw DataError(name + ": no document (one LABEL<TAB>TEXT per line)");
  if (corpus.classes.size() < 2)
    throw DataError(name + ": one label only (" + quote_for_message(corpus.classes[0]) + "); a two-class corpus needs two");
  return corpus;
}

}  // namespace thm
