// The explicit instantiation of the [Q] transformer on intervals (numerics/models/qin/transformer_interval.hpp). The
// interval kernels' specialisations are declared before the model's implementation, so that its softmax and
// activations never compare two intervals.
#include "numerics/interval_functions.hpp"

#include "numerics/models/qin/detail/attention_impl.hpp"
#include "numerics/models/qin/detail/transformer_impl.hpp"
#include "numerics/models/qin/transformer_interval.hpp"

namespace thm {

using I = mpfi_dynamic;
template struct TransformerParams<I>;
template TransformerTrace<I> transformer_forward(const TransformerParams<I>&, const TransformerConfig&, const std::vector<IMat>&,
                                                 const std::vector<IMat>&);
template I transformer_loss(const TransformerParams<I>&, const TransformerConfig&, const std::vector<IMat>&, const std::vector<IMat>&);
template TransformerParams<I> transformer_gradient(const TransformerParams<I>&, const TransformerConfig&, const std::vector<IMat>&,
                                                   const std::vector<IMat>&, I*);
template I params_dot(const TransformerParams<I>&, const TransformerParams<I>&);
template TransformerParams<I> params_axpy(const TransformerParams<I>&, const I&, const TransformerParams<I>&);
template Mat<I> stack_rows(const std::vector<IMat>&);

}  // namespace thm
