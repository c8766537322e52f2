// The Markdown renderer of a report page (reports/page.hpp): GitHub-flavoured, fits a CI job summary; figures are left
// out (their data are in tables of their own).
#include "reports/escape.hpp"
#include "reports/page.hpp"

namespace thm {

namespace {

struct MarkdownWriter {
  const Page& page;
  std::string out;

  // Appended piece by piece: GCC 12 warns falsely (-Wstringop-overflow) on "literal" + std::string&&.
  std::string text(const Text& t) const {
    std::string s;
    const auto wrap = [&s](const char* open, const std::string& body, const char* close) {
      s += open;
      s += body;
      s += close;
    };
    for (const Span& x : t) switch (x.style) {
        case Span::Style::plain: s += md_escape(x.text); break;
        case Span::Style::strong: wrap("**", md_escape(x.text), "**"); break;
        case Span::Style::code: wrap("`", md_escape(x.text), "`"); break;
        case Span::Style::claim_link: wrap("[", x.text, "]("), wrap("", page.claims_folder + x.text, ".md)"); break;
        case Span::Style::file_link: wrap("[", x.text, "]("), wrap("", page.repository + x.text, ")"); break;
      }
    return s;
  }

  void operator()(const Heading& h) {
    out.append(static_cast<std::size_t>(h.level), '#');
    out += " " + h.text + "\n\n";
  }
  void operator()(const Paragraph& p) { out += text(p.text) + "\n\n"; }
  void operator()(const List& l) {
    for (const Text& item : l.items) out += "- " + text(item) + "\n";
    out += "\n";
  }
  void operator()(const Table& t) {
    std::string rule = "|";
    out += "|";
    for (const std::string& h : t.header) {
      out += ' ';
      out += md_escape(h);
      out += " |";
      rule += "---|";
    }
    out += '\n';
    out += rule;
    out += '\n';
    for (const auto& row : t.rows) {
      out += "|";
      for (const Cell& c : row) {
        out += ' ';
        out += text(c.text);
        out += " |";
      }
      out += '\n';
    }
    out += '\n';
  }
  void operator()(const CodeBlock& c) { out += "```sh\n" + c.text + "\n```\n\n"; }
  void operator()(const Figure&) {}
  void operator()(const Details& d) {
    out += "<details><summary>" + html_escape(d.summary) + "</summary>\n\n";
    for (const Block& b : d.blocks) std::visit(*this, b.content);
    out += "</details>\n\n";
  }
};

}  // namespace

std::string render_markdown(const Page& page) {
  MarkdownWriter w{page, {}};
  for (const Block& b : page.blocks) std::visit(w, b.content);
  for (const auto& [k, v] : page.stamp) w.out += "- " + k + ": " + md_escape(v) + "\n";
  return w.out;
}

}  // namespace thm
