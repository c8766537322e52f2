// Explicit instantiations of the [Q] claims for mp50.
#include "theorems/detail/qin_residual_impl.hpp"
#include "theorems/detail/qin_softmax_impl.hpp"
#include "theorems/detail/qin_training_impl.hpp"
#include "theorems/detail/qin_trends_impl.hpp"

namespace thm {

template Evaluation evaluate_rank_collapse<mp50>(const Instance&, Variant);
template Evaluation evaluate_weyl_interlacing<mp50>(const Instance&, Variant);
template Evaluation evaluate_sigma_min_lower_bound<mp50>(const Instance&, Variant);
template Evaluation evaluate_conditioning_trend<mp50>(const Instance&, Variant);
template Evaluation evaluate_pl_output_layer<mp50>(const Instance&, Variant);
template Evaluation evaluate_pl_first_ffn_layer<mp50>(const Instance&, Variant);
template Evaluation evaluate_descent_lemma<mp50>(const Instance&, Variant);
template Evaluation evaluate_linear_rate<mp50>(const Instance&, Variant);
template Evaluation evaluate_linear_rate_multilayer<mp50>(const Instance&, Variant);
template Evaluation evaluate_residual_speeds<mp50>(const Instance&, Variant);
template Evaluation evaluate_depth_collapse<mp50>(const Instance&, Variant);

}  // namespace thm
