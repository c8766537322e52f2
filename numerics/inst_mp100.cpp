// Explicit instantiations of the numerics kernels for mp100 (one TU per scalar keeps builds parallel).
#include "numerics/detail/attention_impl.hpp"
#include "numerics/detail/gd_impl.hpp"
#include "numerics/detail/softmax_impl.hpp"
#include "numerics/detail/spectral_impl.hpp"
#include "numerics/detail/transformer_impl.hpp"

namespace thm {

using T = mp100;
template Mat<T> softmax_rows(const Mat<T>&);
template Vec<T> singular_values(const Mat<T>&, SvdMethod);
template T spectral_norm(const Mat<T>&);
template T condition_number(const Vec<T>&);
template Mat<T> attention_logits(const Mat<T>&, const AttentionWeights<T>&);
template AttentionForward<T> attention_forward(const Mat<T>&, const AttentionWeights<T>&, const T&);
template Mat<T> stack_rows(const std::vector<Mat<T>>&);
template struct TransformerParams<T>;
template TransformerTrace<T> transformer_forward(const TransformerParams<T>&, const TransformerConfig&,
                                                 const std::vector<Mat<T>>&, const std::vector<Mat<T>>&);
template T transformer_loss(const TransformerParams<T>&, const TransformerConfig&, const std::vector<Mat<T>>&,
                            const std::vector<Mat<T>>&);
template TransformerParams<T> transformer_gradient(const TransformerParams<T>&, const TransformerConfig&,
                                                   const std::vector<Mat<T>>&, const std::vector<Mat<T>>&, T*);
template void mask_gradient(TransformerParams<T>&, const std::vector<bool>&);
template T hessian_top_eigenvalue(const TransformerParams<T>&, const TransformerConfig&, const std::vector<Mat<T>>&,
                                  const std::vector<Mat<T>>&, const std::vector<bool>&, int, std::uint64_t);
template GdRun<T> gradient_descent(const TransformerParams<T>&, const TransformerConfig&, const std::vector<Mat<T>>&,
                                   const std::vector<Mat<T>>&, const GdOptions&, const T&, bool);
template T params_dot(const TransformerParams<T>&, const TransformerParams<T>&);
template TransformerParams<T> params_axpy(const TransformerParams<T>&, const T&, const TransformerParams<T>&);

}  // namespace thm
