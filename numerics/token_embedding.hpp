// The seeded map from tokens to vectors that turns a text into a sequence [Q]'s transformer reads: token w goes to
// e(w) in R^d with independent N(0, 1) entries drawn from the stream Rng::derive(seed, "token", FNV-1a(w)). The same
// token has the same vector wherever it occurs, in every document and on every machine (numerics/random.hpp); two
// tokens' vectors are independent. Entries of unit variance match the standardised columns of a series
// (build_qin_model_from_series), so the experiments see inputs of one scale whatever their source.
#pragma once

#include "numerics/eigen_types.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace thm {

// e(w), a 1 x d row.
MatD embed_token(const std::string& token, int d, std::uint64_t seed);

// The rows e(w_1), ..., e(w_k) of a k x d matrix.
MatD embed_tokens(const std::vector<std::string>& tokens, int d, std::uint64_t seed);

}  // namespace thm
