// Fault points: plausible implementation bugs planted in the code the claims run, compiled in only when the build
// defines THM_FAULTS (cmake -DTHM_FAULTS=ON; the sanitizer build turns it on too), in the spirit of FoundationDB's
// BUGGIFY. `thmcheck faults` activates one at a time and runs the claims: a fault is caught when some claim's
// resolved verdict stops being the expected one (the mutation score; docs/guide/fault-matrix.md, "Fault matrix").
//
//   if (THM_FAULT(softmax_columns)) { ...the bug... } else { ...the code... }
//
// Without THM_FAULTS the macro is the constant false (it still names the enum, so a misspelt fault does not
// compile), and the optimiser removes the branch: the default build's numbers and reports are unchanged.
// With THM_FAULTS it records that the point was reached (a relaxed load, and an atomic or the first time) and compares
// the active fault with it: the one piece of process-wide state, set by `thmcheck faults` before each run and never by
// a claim.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace thm {

// X(name, kind, written_for, checks, description): the catalogue. Names are stable (the JSON and the README use them).
// kind: model (a bug in the model or the algorithm: the mutation score) or checker (a bug in a claim's own bound,
// allowance or statistics: it tests the checker). written_for: the claims made to catch this one fault (comma-separated;
// any other claim that catches it is general). checks: what besides the claims must catch it (conformance: the
// independent definition's fixtures, tests/numerics/test_conformance.cpp; independence: the test that no two data draws of a
// study share a token, tests/numerics/test_goel_data.cpp; statistics: the statistics' textbook definitions,
// tests/numerics/test_statistics_conformance.cpp). Where a fault is planted is found by scanning the
// sources (numerics/fault_locations.cmake), never written here.
#define THM_FAULT_LIST(X) \
  X(softmax_columns, model, "", "",                                                                                     \
    "softmax normalised over columns instead of rows")                                                                  \
  X(logit_scale_dropped, model, "", "",                                                                                 \
    "block forward: the 1/sqrt(d) logit scale c dropped (the backward pass still applies it)")                          \
  X(logit_scale_1_over_d, model, "", "conformance",                                                                     \
    "transformer: logit scale 1/d instead of 1/sqrt(d), the same in the forward and the backward pass")                 \
  X(beta_squared, model, "", "conformance",                                                                             \
    "transformer: attention residual weight beta^2 instead of beta, the same in the forward and the backward pass")     \
  X(attention_beta_ignored, model, "", "",                                                                              \
    "attention block: Z = A + X, beta ignored")                                                                         \
  X(ffn_residual_dropped, model, "", "",                                                                                \
    "block forward: H = sigma(V W_1) W_2, the FFN residual gamma V missing")                                            \
  X(ffn_residual_grad_dropped, model, "", "",                                                                           \
    "backward: dL/dV without the FFN residual term gamma G")                                                            \
  X(attention_residual_grad_twice, model, "", "",                                                                       \
    "backward: the attention residual beta dV added twice to dL/dU")                                                    \
  X(grad_wq_wk_swapped, model, "", "",                                                                                  \
    "backward: gradients of W_Q and W_K swapped")                                                                       \
  X(grad_w2_preactivation, model, "", "",                                                                               \
    "backward: W_2's gradient from the pre-activation P = V W_1 instead of sigma(P)")                                   \
  X(softplus_prime_is_softplus, model, "", "",                                                                          \
    "softplus derivative returns softplus itself instead of the logistic function")                                     \
  X(loss_half_dropped_in_gradient, model, "", "",                                                                       \
    "gradient of L = 1/2 sum ||Yhat - Y||^2 computed without the 1/2 (twice the gradient; the loss keeps it)")          \
  X(backward_skips_first_block, model, "", "",                                                                          \
    "backward layer loop stops one block early: block 0's gradients left zero")                                         \
  X(trace_h_off_by_one, model, "", "",                                                                                  \
    "transformer_forward's trace records each block's input as its output H (off by one in the layer loop)")            \
  X(gd_step_sign_w2, model, "", "",                                                                                     \
    "GD: the last block's W_2 moves up its gradient (sign flipped on one block)")                                       \
  X(pl_sigma_index, checker, "qin.pl.output_layer", "",                                                                 \
    "PL bound uses sigma_{nN-1}(H) instead of sigma_{nN}(H) (index off by one)")                                        \
  X(attention_noise_shrunk, checker, "qin.softmax.rounding_allowance", "",                                              \
    "shared [Q] attention rounding allowance divided by 100")                                                           \
  X(goel_chain_eps_shrunk, checker, "", "",                                                                             \
    "shared [G] rounding allowance chain_eps divided by 100")                                                           \
  X(preconditioner_identity, model, "", "",                                                                             \
    "Algorithm 1 steps without the preconditioner Sigma_hat^{-1} (plain GD)")                                           \
  X(preconditioner_population, model, "", "",                                                                           \
    "Algorithm 1 preconditions with the population Sigma^{-1} instead of Sigma_hat^{-1}")                               \
  X(spectral_start_last_vector, model, "", "",                                                                          \
    "spectral start from the last singular pair of Z_hat instead of the first")                                         \
  X(spectral_start_u_for_v, model, "", "",                                                                              \
    "Z* factorisation (the manifold S) builds Q* from U instead of V, where square")                                    \
  X(regulariser_gradient_sign, model, "", "",                                                                           \
    "balancing regulariser's gradient with its sign flipped")                                                           \
  X(regulariser_weight_quarter, model, "", "",                                                                          \
    "balancing regulariser's gradient from lambda/4 instead of lambda/8 (the value keeps lambda/8)")                    \
  X(procrustes_transposed, model, "", "",                                                                               \
    "Procrustes rotation V U^T (the polar factor of K^T) instead of U V^T")                                             \
  X(self_attention_unmasked, model, "goel.finite.masked_loss", "conformance",                                                    \
    "finite-data attention: the self-attention mask not applied")                                                       \
  X(moments_n_minus_1, model, "", "",                                                                                   \
    "Sigma_hat = X^T X / (n - 1) instead of / n (the wrong count; M_hat unaffected)")                                   \
  X(singular_values_ascending, model, "", "",                                                                           \
    "singular_values returned in ascending order where callers expect descending")                                      \
  X(ozaki_precision_of_double, model, "", "",                                                                           \
    "Ozaki MP product planned for a double's 53 bits instead of the result's precision (digits cover ~73 bits)")        \
  X(attention_value_dropped, model, "", "",                                                                             \
    "attention block: A = S X, the value projection W_V not applied")                                                   \
  X(softmax_row_sum_off_by_one, model, "", "",                                                                          \
    "softmax: the row sum that normalises misses the row's last entry (loop bound off by one)")                         \
  X(head_gradient_off_by_one, model, "", "",                                                                            \
    "backward: W_U's gradient from the last block's input instead of its output H_L")                                   \
  X(factor_gradient_q_transposed, model, "", "",                                                                        \
    "gradient in Q of 1/2 ||P Q^T - Z||^2 as P^T E instead of E^T P (its transpose)")                                   \
  X(finite_gradient_count, model, "", "",                                                                               \
    "finite-data gradient in A not divided by the n queries (the loss is)")                                             \
  X(population_excess_unweighted, model, "", "",                                                                        \
    "closed-form excess risk 1/2 ||A Sigma B^T - M||^2 without the Sigma^{1/2} weight")                                 \
  X(softmax_max_not_subtracted, model, "", "",                                                                          \
    "softmax without the row maximum subtracted: exp of the raw logits (overflow where they exceed ~709 at double)")    \
  X(attention_logits_transposed, model, "", "",                                                                         \
    "attention block: logits X W_K (X W_Q)^T, the transpose of X W_Q (X W_K)^T (keys and queries swapped)")             \
  X(gd_stale_gradient, model, "", "",                                                                                   \
    "GD: every step reuses the gradient of the first iterate")                                                          \
  X(spectral_start_unscaled, model, "", "",                                                                             \
    "spectral start: the singular vectors of Z_hat without their weights sqrt(sigma_i)")                                \
  X(step_full_stability_limit, model, "", "conformance",                                                                           \
    "Algorithm 1's documented step at the stability limit 1/(max(1, lambda) sigma_1), not half of it")                  \
  X(hessian_cap_skipped, model, "", "conformance",                                                                                 \
    "the step cap 1/lambda_max of the finite-data Hessian at the start not applied")                                    \
  X(renormalise_c_squared, model, "", "",                                                                               \
    "later algorithm: renormalised by c^2 = ||Q_hat|| / ||P_hat|| instead of c (the norms swapped, not balanced)")      \
  X(renormalise_in_a_b, model, "", "",                                                                                  \
    "later algorithm: balances ||A|| = ||B|| in place of ||P_hat|| = ||Q_hat||")                                        \
  X(limit_gradient_b_transposed, model, "", "",                                                                         \
    "attention-limit reading: gradient in B as A^T G Sigma instead of G^T A Sigma")                                     \
  X(prompt_last_token_dropped, model, "", "conformance",                                                                \
    "prompts reading: each query attends over T - 1 of its T context tokens, the same in the forward and the backward pass") \
  X(prompt_query_in_context, model, "", "conformance",                                                                  \
    "prompts reading: the query stands in for its prompt's last context token (it attends to itself), forward and backward") \
  X(data_seed_shared_across_n, model, "", "independence",                                                                           \
    "[G] studies: the data draw s of n tokens seeded without n, so the draws at different n share their first tokens")  \
  X(label_noise_sd_squared, model, "", "",                                                                              \
    "[G] data: the label noise drawn with standard deviation s^2 instead of s")                                         \
  X(context_from_query_stream, model, "", "",                                                                           \
    "prompts reading: the context tokens drawn from the queries' own stream, so each prompt's context repeats queries")  \
  X(regulariser_value_unrecorded, model, "", "",                                                                        \
    "Algorithm 1 on the prompts and limit readings records the objective without R (the step keeps R's gradient)")      \
  X(support_tail_off_by_one, checker, "", "statistics",                                                                           \
    "support test: p-value P(X < held) instead of P(X <= held) (the binomial tail off by one)")                         \
  X(trend_tail_no_continuity, checker, "", "statistics",                                                                          \
    "Jonckheere-Terpstra normal tail without the continuity correction")                                                \
  X(spearman_ties_ordinal, checker, "", "statistics",                                                                             \
    "Spearman rank correlation: ties ranked in order of appearance instead of by their average rank")                   \
  X(slope_se_over_n, checker, "", "statistics",                                                                                   \
    "regression slope SE from the residual sum over N instead of N - 2")

enum class Fault : int {
  none = 0,
#define THM_FAULT_ENUM(name, kind, written_for, checks, description) name,
  THM_FAULT_LIST(THM_FAULT_ENUM)
#undef THM_FAULT_ENUM
  end_  // one past the last
};
inline constexpr int kFaultCount = static_cast<int>(Fault::end_) - 1;

enum class FaultKind { model, checker };
inline constexpr std::string_view to_string(FaultKind k) { return k == FaultKind::model ? "model" : "checker"; }

struct FaultInfo {
  Fault fault;
  FaultKind kind;
  std::string_view name, written_for, checks, description;
  // Every THM_FAULT(name) site in the sources, "path:line" comma-separated (found by scanning at build time).
  std::string_view location;
};

// Every fault of the catalogue, in declaration order (none excluded).
const std::vector<FaultInfo>& all_faults();
const FaultInfo& fault_info(Fault f);  // f != Fault::none
std::optional<Fault> parse_fault(std::string_view name);
// Whether this build has fault points (THM_FAULTS): without them `thmcheck faults` has nothing to activate.
bool fault_points_built();

namespace detail {
extern std::atomic<int> active_fault;
inline constexpr int kFaultWords = (kFaultCount + 64) / 64;
extern std::atomic<std::uint64_t> reached_faults[kFaultWords];
}
// The active fault, process-wide (Fault::none: the code as written).
inline void set_active_fault(Fault f) { detail::active_fault.store(static_cast<int>(f), std::memory_order_relaxed); }
// Asked at a fault point: records that the point was reached (fault_reached), then whether its fault is the active one.
inline bool fault_active(Fault f) {
  const int i = static_cast<int>(f);
  std::atomic<std::uint64_t>& word = detail::reached_faults[i / 64];
  const std::uint64_t bit = std::uint64_t{1} << (i % 64);
  if (!(word.load(std::memory_order_relaxed) & bit)) word.fetch_or(bit, std::memory_order_relaxed);
  return detail::active_fault.load(std::memory_order_relaxed) == i;
}
// Which fault points were asked since the last clear_reached_faults(), by any thread. A claim that never reaches a fault's
// points runs the same code with that fault active, so the fault matrix need not run it again (properties/fault_matrix.hpp).
void clear_reached_faults();
bool fault_reached(Fault f);
// The active fault for the lifetime of one scope; none again afterwards, whatever happens.
struct ActiveFault {
  explicit ActiveFault(Fault f) { set_active_fault(f); }
  ~ActiveFault() { set_active_fault(Fault::none); }
  ActiveFault(const ActiveFault&) = delete;
  ActiveFault& operator=(const ActiveFault&) = delete;
};

}  // namespace thm

#ifdef THM_FAULTS
#define THM_FAULT(name) (::thm::fault_active(::thm::Fault::name))
#else
#define THM_FAULT(name) (static_cast<void>(::thm::Fault::name), false)
#endif
