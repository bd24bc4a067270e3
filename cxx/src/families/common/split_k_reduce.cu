// C <- alpha sum_s W_s + beta C in a fixed slice order (split_k_reduce.hpp).
#include "families/common/split_k_reduce.hpp"

#include "core/errors.hpp"

namespace tcgemm::detail {
namespace {

constexpr int kReduceThreads = 256;
constexpr int kReduceMaxBlocks = 8192;  // grid-stride beyond this

__global__ void __launch_bounds__(kReduceThreads) split_k_reduce_kernel(int64_t m, int64_t n, int64_t slices,
                                                                        const double* __restrict__ W,
                                                                        int64_t slice_step, SplitKOutput out) {
  const int64_t total = m * n;
  for (int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; idx < total;
       idx += int64_t(gridDim.x) * blockDim.x) {
    // Consecutive threads take consecutive rows of W (and of C when it is not transposed): coalesced.
    const double* w = W + idx;
    double sum = 0.0;
    int64_t s = 0;
    // Four loads in flight, added strictly in slice order.
    for (; s + 4 <= slices; s += 4) {
      const double w0 = __ldcs(w), w1 = __ldcs(w + slice_step), w2 = __ldcs(w + 2 * slice_step),
                   w3 = __ldcs(w + 3 * slice_step);
      sum = (((sum + w0) + w1) + w2) + w3;
      w += 4 * slice_step;
    }
    for (; s < slices; ++s, w += slice_step) sum += __ldcs(w);
    const int64_t col = idx / m, row = idx - col * m;
    double* c = out.C + row * out.row_stride + col * out.col_stride;
    // beta == 0 must not read C: BLAS callers may pass uninitialised (even NaN) C.
    *c = out.beta == 0.0 ? out.alpha * sum : fma(out.beta, *c, out.alpha * sum);
  }
}

}  // namespace

tcgemm_status launch_split_k_reduce(int64_t m, int64_t n, int64_t slices, const double* W, int64_t slice_step,
                                    const SplitKOutput& out, cudaStream_t stream) {
  const int64_t total = m * n;
  const int64_t wanted = (total + kReduceThreads - 1) / kReduceThreads;
  const unsigned blocks = unsigned(wanted < kReduceMaxBlocks ? wanted : kReduceMaxBlocks);
  split_k_reduce_kernel<<<blocks, kReduceThreads, 0, stream>>>(m, n, slices, W, slice_step, out);
  TCGEMM_CHECK_LAUNCH("split_k_reduce_kernel");
  return TCGEMM_SUCCESS;
}

}  // namespace tcgemm::detail
