// Explicit instantiations of the numerics kernels for mp100 (one TU per scalar keeps builds parallel).
#include "numerics/detail/attention_impl.hpp"
#include "numerics/detail/softmax_impl.hpp"
#include "numerics/detail/spectral_impl.hpp"

namespace thm {

using T = mp100;
template Mat<T> softmax_rows(const Mat<T>&);
template Vec<T> singular_values(const Mat<T>&, SvdMethod);
template T spectral_norm(const Mat<T>&);
template T condition_number(const Vec<T>&);
template Mat<T> attention_logits(const Mat<T>&, const AttentionWeights<T>&);
template AttentionForward<T> attention_forward(const Mat<T>&, const AttentionWeights<T>&, const T&);
template Mat<T> stack_rows(const std::vector<Mat<T>>&);

}  // namespace thm
