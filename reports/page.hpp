// A report page as a document (headings, paragraphs, lists, tables, code, figures, folded details), built once from a
// run's results and written by two renderers: render_html (self-contained: inline CSS and SVG, no scripts, no network)
// and render_markdown (fits a CI job summary; without the figures). The pages of a run (reports/pages)
// say everything once, so the two formats cannot drift apart.
#pragma once

#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace thm {

// A run of inline text: plain, bold, code, a link to another claim's page (by id: the renderer adds the folder and
// the extension), or a repository file (a link in Markdown, code in HTML, which is read away from the repository).
struct Span {
  enum class Style { plain, strong, code, claim_link, file_link };
  Style style = Style::plain;
  std::string text;  // the claim id or the file path for links
};
using Text = std::vector<Span>;

inline Span plain(std::string s) { return {Span::Style::plain, std::move(s)}; }
inline Span strong(std::string s) { return {Span::Style::strong, std::move(s)}; }
inline Span code(std::string s) { return {Span::Style::code, std::move(s)}; }
inline Span claim_link(std::string id) { return {Span::Style::claim_link, std::move(id)}; }
inline Span file_link(std::string path) { return {Span::Style::file_link, std::move(path)}; }

// A table cell; `mark` names a verdict (holds, violated, inconclusive, vacuous): HTML colours the cell, Markdown leaves
// it plain.
struct Cell {
  Text text;
  std::string mark;
};
struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<Cell>> rows;
};

struct Heading {
  int level = 2;
  std::string text;
};
struct Paragraph {
  Text text;
  std::string mark;  // a verdict, as for a cell
};
struct List {
  std::vector<Text> items;
};
struct CodeBlock {
  std::string text;
};
// An inline SVG with an optional caption: HTML only (a page puts the data a figure shows in a table of its own).
struct Figure {
  std::string svg, caption;
};
struct Block;
// Content folded away under a summary line (<details>).
struct Details {
  std::string summary;
  std::vector<Block> blocks;
};
struct Block {
  std::variant<Heading, Paragraph, List, Table, CodeBlock, Figure, Details> content;
};

struct Page {
  std::string title;
  std::string claims_folder;  // where claim pages are, from this page: "claims/" from the index, "" from a claim page
  std::string repository;     // the repository's root, from this page (for file links in Markdown)
  std::vector<Block> blocks;
  std::vector<std::pair<std::string, std::string>> stamp;  // the footer: what produced the page

  template <class B>
  Page& add(B block) {
    blocks.push_back(Block{std::move(block)});
    return *this;
  }
};

std::string render_html(const Page& page);
std::string render_markdown(const Page& page);

}  // namespace thm
