#include "numerics/models/qin/gd.hpp"
#include "numerics/models/qin/transformer.hpp"

#include <string>

namespace thm {

std::vector<std::string> transformer_block_names(std::size_t layers) {
  std::vector<std::string> names;
  for (std::size_t l = 0; l < layers; ++l)
    for (const char* n : {"W_Q", "W_K", "W_V", "W_1", "W_2"}) names.push_back(std::string(n) + "[" + std::to_string(l) + "]");
  names.push_back("W_U");
  return names;
}

std::string_view to_string(GdStop s) {
  switch (s) {
    case GdStop::target_reached: return "target reached";
    case GdStop::budget_exhausted: return "budget exhausted";
    case GdStop::diverged: return "diverged";
    case GdStop::plateau: return "plateau";
  }
  return "?";
}

}  // namespace thm
