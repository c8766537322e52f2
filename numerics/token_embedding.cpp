#include "numerics/token_embedding.hpp"

#include "numerics/random.hpp"

namespace thm {

MatD embed_token(const std::string& token, int d, std::uint64_t seed) {
  Rng rng = Rng::derive(seed, "token", fnv1a64(token));
  MatD e(1, d);
  for (int j = 0; j < d; ++j) e(0, j) = rng.normal();
  return e;
}

MatD embed_tokens(const std::vector<std::string>& tokens, int d, std::uint64_t seed) {
  MatD out(static_cast<Eigen::Index>(tokens.size()), d);
  for (std::size_t i = 0; i < tokens.size(); ++i) out.row(static_cast<Eigen::Index>(i)) = embed_token(tokens[i], d, seed);
  return out;
}

}  // namespace thm
