// Explicit instantiations of the [Q] claims for double.
#include "theorems/detail/qin_residual_impl.hpp"
#include "theorems/detail/qin_softmax_impl.hpp"
#include "theorems/detail/qin_training_impl.hpp"
#include "theorems/detail/qin_trends_impl.hpp"

namespace thm {

template Evaluation evaluate_rank_collapse<double>(const Instance&, Variant);
template Evaluation evaluate_weyl_interlacing<double>(const Instance&, Variant);
template Evaluation evaluate_sigma_min_lower_bound<double>(const Instance&, Variant);
template Evaluation evaluate_conditioning_trend<double>(const Instance&, Variant);
template Evaluation evaluate_pl_output_layer<double>(const Instance&, Variant);
template Evaluation evaluate_pl_first_ffn_layer<double>(const Instance&, Variant);
template Evaluation evaluate_descent_lemma<double>(const Instance&, Variant);
template Evaluation evaluate_linear_rate<double>(const Instance&, Variant);
template Evaluation evaluate_linear_rate_multilayer<double>(const Instance&, Variant);
template Evaluation evaluate_residual_speeds<double>(const Instance&, Variant);
template Evaluation evaluate_depth_collapse<double>(const Instance&, Variant);

}  // namespace thm
