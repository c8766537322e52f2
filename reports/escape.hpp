// Escaping text for the report formats: one module, used by every writer that needs it.
#pragma once

#include <string>

namespace thm {

// Escapes <, >, &, " and ' as entities: the same escaping serves XML (junit.xml), HTML and inline SVG.
std::string xml_escape(const std::string& s);
std::string html_escape(const std::string& s);
// Escapes | (a Markdown table cell's separator).
std::string md_escape(const std::string& s);

}  // namespace thm
