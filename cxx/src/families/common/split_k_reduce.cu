// C <- alpha sum_s W_s + beta C in a fixed slice order (split_k_reduce.hpp).
#include "families/common/split_k_reduce.hpp"

#include "core/errors.hpp"

namespace tcgemm::detail {
namespace {

// Block: kElems consecutive elements x kGroups slice groups. Thread (e, g) adds the slices g, g + kGroups,
// g + 2 kGroups, ... of element e in that order; then the kGroups partial sums of an element are added in
// group order. Every element's sum is therefore the same expression on every run (no atomics), and deep
// slice counts are read by kGroups threads at once instead of one.
constexpr int kElems = 32;
constexpr int kGroups = 8;
constexpr int kReduceThreads = kElems * kGroups;
constexpr int64_t kReduceMaxBlocks = 65535;  // grid-stride beyond this

__global__ void __launch_bounds__(kReduceThreads) split_k_reduce_kernel(int64_t m, int64_t n, int64_t slices,
                                                                        const double* __restrict__ W,
                                                                        int64_t slice_step, SplitKOutput out) {
  __shared__ double partial[kGroups][kElems];
  const int e = threadIdx.x % kElems, g = threadIdx.x / kElems;
  const int64_t total = m * n;
  for (int64_t first = int64_t(blockIdx.x) * kElems; first < total; first += int64_t(gridDim.x) * kElems) {
    const int64_t idx = first + e;
    double sum = 0.0;
    if (idx < total) {
      // Consecutive threads read consecutive elements of one slice: coalesced. Four loads in flight, added
      // strictly in slice order.
      const double* w = W + idx + g * slice_step;
      const int64_t stride = kGroups * slice_step;
      int64_t s = g;
      for (; s + 3 * kGroups < slices; s += 4 * kGroups) {
        const double w0 = __ldcs(w), w1 = __ldcs(w + stride), w2 = __ldcs(w + 2 * stride),
                     w3 = __ldcs(w + 3 * stride);
        sum = (((sum + w0) + w1) + w2) + w3;
        w += 4 * stride;
      }
      for (; s < slices; s += kGroups, w += stride) sum += __ldcs(w);
    }
    partial[g][e] = sum;
    __syncthreads();
    if (g == 0 && idx < total) {
      double t = partial[0][e];
#pragma unroll
      for (int h = 1; h < kGroups; ++h) t += partial[h][e];
      const int64_t col = idx / m, row = idx - col * m;
      double* c = out.C + row * out.row_stride + col * out.col_stride;
      // beta == 0 must not read C: BLAS callers may pass uninitialised (even NaN) C.
      *c = out.beta == 0.0 ? out.alpha * t : fma(out.beta, *c, out.alpha * t);
    }
    __syncthreads();
  }
}

// Few slices (< kGroups): one thread per element adds them in slice order; consecutive threads take
// consecutive elements (coalesced), and no thread idles as it would in the grouped kernel.
__global__ void __launch_bounds__(kReduceThreads) split_k_reduce_few_kernel(int64_t m, int64_t n, int64_t slices,
                                                                            const double* __restrict__ W,
                                                                            int64_t slice_step, SplitKOutput out) {
  const int64_t total = m * n;
  for (int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; idx < total;
       idx += int64_t(gridDim.x) * blockDim.x) {
    double t = 0.0;
    for (int64_t s = 0; s < slices; ++s) t += __ldcs(W + idx + s * slice_step);
    const int64_t col = idx / m, row = idx - col * m;
    double* c = out.C + row * out.row_stride + col * out.col_stride;
    *c = out.beta == 0.0 ? out.alpha * t : fma(out.beta, *c, out.alpha * t);
  }
}

}  // namespace

tcgemm_status launch_split_k_reduce(int64_t m, int64_t n, int64_t slices, const double* W, int64_t slice_step,
                                    const SplitKOutput& out, cudaStream_t stream) {
  const int64_t total = m * n;
  // The kernel is a function of the slice count only, so a given call always sums in the same order.
  if (slices < kGroups) {
    const int64_t wanted = (total + kReduceThreads - 1) / kReduceThreads;
    const unsigned blocks = unsigned(wanted < kReduceMaxBlocks ? wanted : kReduceMaxBlocks);
    split_k_reduce_few_kernel<<<blocks, kReduceThreads, 0, stream>>>(m, n, slices, W, slice_step, out);
  } else {
    const int64_t wanted = (total + kElems - 1) / kElems;
    const unsigned blocks = unsigned(wanted < kReduceMaxBlocks ? wanted : kReduceMaxBlocks);
    split_k_reduce_kernel<<<blocks, kReduceThreads, 0, stream>>>(m, n, slices, W, slice_step, out);
  }
  TCGEMM_CHECK_LAUNCH("split_k_reduce_kernel");
  return TCGEMM_SUCCESS;
}

}  // namespace tcgemm::detail
