// The [Q] transformer (numerics/models/qin/transformer.hpp) on intervals: the same forward pass, loss and exact
// gradient, evaluated in MPFI for every real point of the boxes they are given (numerics/interval_functions.hpp),
// so that a claim's certificate reads the model it judges, not a second copy of it. Built once, in
// transformer_interval.cpp; a point instance lifted exactly gives enclosures of its exact loss and gradient.
#pragma once

#include "numerics/interval.hpp"
#include "numerics/interval_functions.hpp"
#include "numerics/models/qin/attention.hpp"
#include "numerics/models/qin/model_instance.hpp"
#include "numerics/models/qin/transformer.hpp"

namespace thm {

extern template struct TransformerParams<mpfi_dynamic>;
extern template TransformerTrace<mpfi_dynamic> transformer_forward(const TransformerParams<mpfi_dynamic>&, const TransformerConfig&,
                                                                   const std::vector<IMat>&, const std::vector<IMat>&);
extern template mpfi_dynamic transformer_loss(const TransformerParams<mpfi_dynamic>&, const TransformerConfig&, const std::vector<IMat>&,
                                              const std::vector<IMat>&);
extern template TransformerParams<mpfi_dynamic> transformer_gradient(const TransformerParams<mpfi_dynamic>&, const TransformerConfig&,
                                                                     const std::vector<IMat>&, const std::vector<IMat>&, mpfi_dynamic*);
extern template mpfi_dynamic params_dot(const TransformerParams<mpfi_dynamic>&, const TransformerParams<mpfi_dynamic>&);
extern template TransformerParams<mpfi_dynamic> params_axpy(const TransformerParams<mpfi_dynamic>&, const mpfi_dynamic&,
                                                            const TransformerParams<mpfi_dynamic>&);
extern template Mat<mpfi_dynamic> stack_rows(const std::vector<IMat>&);

// The instance's model as point intervals at the interval precision in force (exact: doubles fit).
inline QModel<mpfi_dynamic> interval_qin_model(const Instance& inst) { return lift_model<mpfi_dynamic>(qin_model_double(inst)); }

}  // namespace thm
