// Explicit instantiations of the [Q] claims for mp100.
#include "theorems/detail/qin_residual_impl.hpp"
#include "theorems/detail/qin_softmax_impl.hpp"
#include "theorems/detail/qin_training_impl.hpp"
#include "theorems/detail/qin_trends_impl.hpp"

namespace thm {

template Evaluation evaluate_rank_collapse<mp100>(const Instance&, Variant);
template Evaluation evaluate_weyl_interlacing<mp100>(const Instance&, Variant);
template Evaluation evaluate_sigma_min_lower_bound<mp100>(const Instance&, Variant);
template Evaluation evaluate_conditioning_trend<mp100>(const Instance&, Variant);
template Evaluation evaluate_pl_output_layer<mp100>(const Instance&, Variant);
template Evaluation evaluate_pl_first_ffn_layer<mp100>(const Instance&, Variant);
template Evaluation evaluate_descent_lemma<mp100>(const Instance&, Variant);
template Evaluation evaluate_linear_rate<mp100>(const Instance&, Variant);
template Evaluation evaluate_linear_rate_multilayer<mp100>(const Instance&, Variant);
template Evaluation evaluate_residual_speeds<mp100>(const Instance&, Variant);
template Evaluation evaluate_depth_collapse<mp100>(const Instance&, Variant);

}  // namespace thm
