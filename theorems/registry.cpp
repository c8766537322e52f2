#include "theorems/registry.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

// The registration function of every claim file, named by the build after the file's path (theorems/register_claim.hpp).
#define THM_CLAIM_FILE(symbol, path) void symbol(std::vector<::thm::Claim>& claims);
namespace thm::claim_files {
#include "theorems/claim_list.inc"
}
#undef THM_CLAIM_FILE

namespace thm {

namespace {

struct ClaimFile {
  void (*add)(std::vector<Claim>&);
  const char* path;  // theorems/<paper>/<family>/<name>.cpp
};

constexpr ClaimFile kClaimFiles[] = {
#define THM_CLAIM_FILE(symbol, path) {&claim_files::symbol, path},
#include "theorems/claim_list.inc"
#undef THM_CLAIM_FILE
};

// theorems/qin/residual/weyl_interlacing.cpp -> qin.residual.weyl_interlacing
std::string id_of_path(std::string path) {
  path = path.substr(std::string("theorems/").size());
  path.resize(path.size() - std::string(".cpp").size());
  std::replace(path.begin(), path.end(), '/', '.');
  return path;
}

// The catalogue: every claim file's claim, in id order, with what the registry derives from the metadata
// (the derivation's path, the finding's document, the proof map's `supports`), checked for consistency.
std::vector<Claim> make_catalogue() {
  std::vector<Claim> claims;
  for (const ClaimFile& file : kClaimFiles) {
    file.add(claims);
    if (claims.back().id != id_of_path(file.path))
      throw std::logic_error(std::string(file.path) + " registers '" + claims.back().id + "': a claim file is named after its id");
  }
  std::sort(claims.begin(), claims.end(), [](const Claim& a, const Claim& b) { return a.id < b.id; });
  for (std::size_t i = 1; i < claims.size(); ++i)
    if (claims[i].id == claims[i - 1].id) throw std::logic_error("two claims have the id '" + claims[i].id + "'");
  for (Claim& c : claims) {
    c.derivation = "docs/derivations/" + c.id + ".md";
    if (c.finding && c.finding->doc.empty()) c.finding->doc = "docs/findings/" + c.id + ".md";
    for (const ExpectedCondition& k : c.expected_conditions)
      if (k.name.empty() || (k.expected != ClaimVerdict::holds && k.expected != ClaimVerdict::violated))
        throw std::logic_error(c.id + ": an expected condition needs a name and the verdict holds or violated");
  }
  for (const Claim& theorem : claims)
    for (const std::string& lemma : theorem.uses) {
      const auto it = std::find_if(claims.begin(), claims.end(), [&](const Claim& c) { return c.id == lemma; });
      if (it == claims.end()) throw std::logic_error(theorem.id + " uses '" + lemma + "', which is not a claim");
      it->supports.push_back(theorem.id);
    }
  return claims;
}

}  // namespace

const std::vector<Claim>& all_claims() {
  static const std::vector<Claim> claims = make_catalogue();
  return claims;
}

bool glob_match(const std::string& pattern, const std::string& text) {
  // Iterative wildcard match with backtracking to the last '*'.
  std::size_t p = 0, t = 0, star = std::string::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (star != std::string::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::vector<const Claim*> select_claims(const std::string& patterns) {
  std::vector<const Claim*> selected;
  std::stringstream ss(patterns);
  std::string pattern;
  bool any = false;
  while (std::getline(ss, pattern, ',')) {
    if (pattern.empty()) continue;
    any = true;
    bool matched = false;
    for (const Claim& c : all_claims())
      if (glob_match(pattern, c.id)) {
        matched = true;
        bool already = false;
        for (const Claim* s : selected) already = already || s == &c;
        if (!already) selected.push_back(&c);
      }
    if (!matched) throw std::invalid_argument("no claim matches '" + pattern + "' (see 'thmcheck list')");
  }
  if (!any) throw std::invalid_argument("empty claim pattern");
  // Catalogue order, whatever the order of the patterns.
  std::vector<const Claim*> ordered;
  for (const Claim& c : all_claims())
    for (const Claim* s : selected)
      if (s == &c) ordered.push_back(s);
  return ordered;
}

}  // namespace thm
