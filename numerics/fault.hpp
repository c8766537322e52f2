// Fault points: plausible implementation bugs planted in the code the claims run, compiled in only when the build
// defines THM_FAULTS (cmake -DTHM_FAULTS=ON; the sanitizer build turns it on too), in the spirit of FoundationDB's
// BUGGIFY. `thmcheck faults` activates one at a time and runs the claims: a fault is caught when some claim's
// resolved verdict stops being the expected one (the mutation score; README, "Fault matrix").
//
//   if (THM_FAULT(softmax_columns)) { ...the bug... } else { ...the code... }
//
// Without THM_FAULTS the macro is the constant false (it still names the enum, so a misspelt fault does not
// compile), and the optimiser removes the branch: the default build's numbers and reports are unchanged.
// With THM_FAULTS it is one relaxed atomic load compared with the fault: the one piece of process-wide state, set
// by `thmcheck faults` before each run and never by a claim.
#pragma once

#include <atomic>
#include <optional>
#include <string_view>
#include <vector>

namespace thm {

// X(name, where, description): the catalogue. Names are stable (the JSON and the README use them).
#define THM_FAULT_LIST(X)                                                                                                 \
  X(softmax_columns, "numerics/detail/softmax_impl.hpp", "softmax normalised over columns instead of rows")               \
  X(logit_scale_dropped, "numerics/models/qin/detail/transformer_impl.hpp",                                              \
    "block forward: the 1/sqrt(d) logit scale c dropped (the backward pass still applies it)")                           \
  X(logit_scale_1_over_d, "numerics/models/qin/detail/transformer_impl.hpp",                                             \
    "transformer: logit scale 1/d instead of 1/sqrt(d), the same in the forward and the backward pass")                  \
  X(beta_squared, "numerics/models/qin/detail/transformer_impl.hpp",                                                     \
    "transformer: attention residual weight beta^2 instead of beta, the same in the forward and the backward pass")      \
  X(attention_beta_ignored, "numerics/models/qin/detail/attention_impl.hpp", "attention block: Z = A + X, beta ignored")  \
  X(ffn_residual_dropped, "numerics/models/qin/detail/transformer_impl.hpp",                                             \
    "block forward: H = sigma(V W_1) W_2, the FFN residual gamma V missing")                                             \
  X(ffn_residual_grad_dropped, "numerics/models/qin/detail/transformer_impl.hpp",                                        \
    "backward: dL/dV without the FFN residual term gamma G")                                                             \
  X(attention_residual_grad_twice, "numerics/models/qin/detail/transformer_impl.hpp",                                    \
    "backward: the attention residual beta dV added twice to dL/dU")                                                     \
  X(grad_wq_wk_swapped, "numerics/models/qin/detail/transformer_impl.hpp", "backward: gradients of W_Q and W_K swapped") \
  X(grad_w2_preactivation, "numerics/models/qin/detail/transformer_impl.hpp",                                            \
    "backward: W_2's gradient from the pre-activation P = V W_1 instead of sigma(P)")                                    \
  X(softplus_prime_is_softplus, "numerics/activation.hpp",                                                               \
    "softplus derivative returns softplus itself instead of the logistic function")                                     \
  X(loss_half_dropped_in_gradient, "numerics/models/qin/detail/transformer_impl.hpp",                                    \
    "gradient of L = 1/2 sum ||Yhat - Y||^2 computed without the 1/2 (twice the gradient; the loss keeps it)")           \
  X(backward_skips_first_block, "numerics/models/qin/detail/transformer_impl.hpp",                                       \
    "backward layer loop stops one block early: block 0's gradients left zero")                                         \
  X(trace_h_off_by_one, "numerics/models/qin/detail/transformer_impl.hpp",                                               \
    "transformer_forward's trace records each block's input as its output H (off by one in the layer loop)")             \
  X(gd_step_sign_w2, "numerics/models/qin/detail/gd_impl.hpp",                                                           \
    "GD: the last block's W_2 moves up its gradient (sign flipped on one block)")                                        \
  X(pl_sigma_index, "theorems/qin/pl/output_layer.cpp",                                                                   \
    "PL bound uses sigma_{nN-1}(H) instead of sigma_{nN}(H) (index off by one)")                                        \
  X(attention_noise_shrunk, "theorems/qin/attention_noise.hpp",                                                          \
    "shared [Q] attention rounding allowance divided by 100")                                                            \
  X(goel_chain_eps_shrunk, "theorems/goel/noise.hpp", "shared [G] rounding allowance chain_eps divided by 100")          \
  X(preconditioner_identity, "numerics/models/goel/detail/algorithm1_impl.hpp",                                          \
    "Algorithm 1 steps without the preconditioner Sigma_hat^{-1} (plain GD)")                                            \
  X(preconditioner_population, "numerics/models/goel/detail/algorithm1_impl.hpp",                                        \
    "Algorithm 1 preconditions with the population Sigma^{-1} instead of Sigma_hat^{-1}")                                \
  X(spectral_start_last_vector, "numerics/models/goel/detail/algorithm1_impl.hpp",                                       \
    "spectral start from the last singular pair of Z_hat instead of the first")                                         \
  X(spectral_start_u_for_v, "numerics/models/goel/detail/factor_manifold_impl.hpp",                                      \
    "Z* factorisation (the manifold S) builds Q* from U instead of V, where square")                                     \
  X(regulariser_gradient_sign, "numerics/models/goel/detail/attention_regression_impl.hpp",                              \
    "balancing regulariser's gradient with its sign flipped")                                                            \
  X(regulariser_weight_quarter, "numerics/models/goel/detail/attention_regression_impl.hpp",                             \
    "balancing regulariser's gradient from lambda/4 instead of lambda/8 (the value keeps lambda/8)")                     \
  X(procrustes_transposed, "numerics/models/goel/detail/factor_manifold_impl.hpp",                                       \
    "Procrustes rotation V U^T (the polar factor of K^T) instead of U V^T")                                             \
  X(self_attention_unmasked, "numerics/models/goel/detail/finite_attention_impl.hpp",                                    \
    "finite-data attention: the self-attention mask not applied")                                                        \
  X(moments_n_minus_1, "numerics/models/goel/detail/finite_attention_impl.hpp",                                          \
    "Sigma_hat = X^T X / (n - 1) instead of / n (the wrong count; M_hat unaffected)")                                    \
  X(singular_values_ascending, "numerics/detail/spectral_impl.hpp",                                                                  \
    "singular_values returned in ascending order where callers expect descending")                                      \
  X(ozaki_precision_of_double, "numerics/ozaki_product.cpp",                                                             \
    "Ozaki MP product planned for a double's 53 bits instead of the result's precision (digits cover ~73 bits)")        \
  X(attention_value_dropped, "numerics/models/qin/detail/attention_impl.hpp",                                            \
    "attention block: A = S X, the value projection W_V not applied")                                                    \
  X(softmax_row_sum_off_by_one, "numerics/detail/softmax_impl.hpp",                                                      \
    "softmax: the row sum that normalises misses the row's last entry (loop bound off by one)")                          \
  X(head_gradient_off_by_one, "numerics/models/qin/detail/transformer_impl.hpp",                                         \
    "backward: W_U's gradient from the last block's input instead of its output H_L")                                    \
  X(factor_gradient_q_transposed, "numerics/models/goel/detail/attention_regression_impl.hpp",                           \
    "gradient in Q of 1/2 ||P Q^T - Z||^2 as P^T E instead of E^T P (its transpose)")                         \
  X(finite_gradient_count, "numerics/models/goel/detail/finite_attention_impl.hpp",                                      \
    "finite-data gradient in A not divided by the n queries (the loss is)")                                              \
  X(population_excess_unweighted, "numerics/models/goel/detail/attention_regression_impl.hpp",                           \
    "closed-form excess risk 1/2 ||A Sigma B^T - M||^2 without the Sigma^{1/2} weight")

enum class Fault : int {
  none = 0,
#define THM_FAULT_ENUM(name, where, description) name,
  THM_FAULT_LIST(THM_FAULT_ENUM)
#undef THM_FAULT_ENUM
};

struct FaultInfo {
  Fault fault;
  std::string_view name, where, description;
};

// Every fault of the catalogue, in declaration order (none excluded).
const std::vector<FaultInfo>& all_faults();
std::optional<Fault> parse_fault(std::string_view name);
// Whether this build has fault points (THM_FAULTS): without them `thmcheck faults` has nothing to activate.
bool fault_points_built();

namespace detail {
extern std::atomic<int> active_fault;
}
// The active fault, process-wide (Fault::none: the code as written).
inline void set_active_fault(Fault f) { detail::active_fault.store(static_cast<int>(f), std::memory_order_relaxed); }
inline bool fault_active(Fault f) {
  return detail::active_fault.load(std::memory_order_relaxed) == static_cast<int>(f);
}
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
