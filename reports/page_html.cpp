// The HTML renderer of a report page (reports/page.hpp): one self-contained file, inline CSS and SVG, no scripts.
#include "reports/escape.hpp"
#include "reports/page.hpp"

namespace thm {

namespace {

const char* kStyle =
    "body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}"
    "table{border-collapse:collapse;margin:1em 0;display:block;max-width:100%;overflow-x:auto}"
    "td{overflow-wrap:anywhere}td,th{border:1px solid #ccc;padding:3px 8px;font-size:13px}"
    ".holds{background:#d8f3d8}.violated{background:#f8d0d0}.vacuous{background:#eee}.inconclusive{background:#fff1c2}"
    "code,pre{background:#f4f4f4;padding:2px 4px}.stamp{color:#666;font-size:12px}";

struct HtmlWriter {
  const Page& page;
  std::string out;

  std::string text(const Text& t) const {
    std::string s;
    for (const Span& x : t) switch (x.style) {
        case Span::Style::plain: s += html_escape(x.text); break;
        case Span::Style::strong: s += "<b>" + html_escape(x.text) + "</b>"; break;
        case Span::Style::code:
        case Span::Style::file_link: s += "<code>" + html_escape(x.text) + "</code>"; break;
        case Span::Style::claim_link:
          s += "<a href=\"" + page.claims_folder + x.text + ".html\">" + html_escape(x.text) + "</a>";
          break;
      }
    return s;
  }
  static std::string mark(const std::string& m) { return m.empty() ? "" : " class=\"" + m + "\""; }

  void operator()(const Heading& h) {
    const std::string n = std::to_string(h.level);
    out += "<h" + n + ">" + html_escape(h.text) + "</h" + n + ">\n";
  }
  void operator()(const Paragraph& p) { out += "<p" + mark(p.mark) + ">" + text(p.text) + "</p>\n"; }
  void operator()(const List& l) {
    out += "<ul>\n";
    for (const Text& item : l.items) out += "<li>" + text(item) + "</li>\n";
    out += "</ul>\n";
  }
  void operator()(const Table& t) {
    out += "<table><tr>";
    for (const std::string& h : t.header) out += "<th>" + html_escape(h) + "</th>";
    out += "</tr>\n";
    for (const auto& row : t.rows) {
      out += "<tr>";
      for (const Cell& c : row) out += "<td" + mark(c.mark) + ">" + text(c.text) + "</td>";
      out += "</tr>\n";
    }
    out += "</table>\n";
  }
  void operator()(const CodeBlock& c) { out += "<pre>" + html_escape(c.text) + "</pre>\n"; }
  void operator()(const Figure& f) {
    if (f.caption.empty())
      out += f.svg;
    else
      out += "<figure>\n" + f.svg + "<figcaption>" + html_escape(f.caption) + "</figcaption>\n</figure>\n";
  }
  void operator()(const Details& d) {
    out += "<details><summary>" + html_escape(d.summary) + "</summary>\n";
    for (const Block& b : d.blocks) std::visit(*this, b.content);
    out += "</details>\n";
  }
};

}  // namespace

std::string render_html(const Page& page) {
  HtmlWriter w{page, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + html_escape(page.title) + "</title><style>" +
                         kStyle + "</style></head><body>\n"};
  for (const Block& b : page.blocks) std::visit(w, b.content);
  w.out += "<p class=\"stamp\">";
  for (const auto& [k, v] : page.stamp) w.out += html_escape(k) + ": " + html_escape(v) + " &middot; ";
  return w.out + "</p>\n</body></html>\n";
}

}  // namespace thm
