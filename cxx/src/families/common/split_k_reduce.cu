// C <- alpha sum_s W_s + beta C in a fixed slice order (split_k_reduce.hpp).
#include "families/common/split_k_reduce.hpp"

#include "arch/dependent_launch_sm90.cuh"
#include "core/checked_math.hpp"
#include "core/errors.hpp"

namespace tcgemm::detail {
namespace {

// Block: kReduceThreads / kGroups consecutive elements x kGroups slice groups. Thread (e, g) adds the slices g,
// g + kGroups, g + 2 kGroups, ... of element e in that order; then the kGroups partial sums of an element
// are added in group order. Every element's sum is therefore the same expression on every run (no atomics).
// Deep slice counts use kGroups = 8 (each element read by 8 threads at once); fewer slices use kGroups = 1
// (one thread per element, none idle). The choice depends on the slice count only, so a given call always
// sums in the same order.
constexpr int kReduceThreads = 256;
constexpr int kDeepGroups = 8;
constexpr int64_t kReduceMaxBlocks = 65535;  // grid-stride beyond this

template <int kGroups>
__global__ void __launch_bounds__(kReduceThreads) split_k_reduce_kernel(int64_t m, int64_t n, int64_t slices,
                                                                        const double* __restrict__ W,
                                                                        int64_t slice_step, SplitKOutput out) {
  constexpr int kElems = kReduceThreads / kGroups;
  __shared__ double partial[kGroups][kElems];
  // Launched as a programmatic dependent of the kernel that writes W (launch_split_k_reduce), the block may
  // start before that kernel ends: nothing of W or C is read before it has completed.
  arch::wait_for_prerequisite_grids();
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
    if constexpr (kGroups > 1) {
      partial[g][e] = sum;
      __syncthreads();
      if (g == 0) {
#pragma unroll
        for (int h = 1; h < kGroups; ++h) sum += partial[h][e];
      }
    }
    if (g == 0 && idx < total) {
      const int64_t col = idx / m, row = idx - col * m;
      double* c = out.C + row * out.row_stride + col * out.col_stride;
      // beta == 0 must not read C: BLAS callers may pass uninitialised (even NaN) C.
      *c = out.beta == 0.0 ? out.alpha * sum : fma(out.beta, *c, out.alpha * sum);
    }
    if constexpr (kGroups > 1) __syncthreads();
  }
}

template <int kGroups>
cudaError_t launch_groups(int64_t m, int64_t n, int64_t slices, const double* W, int64_t slice_step,
                          const SplitKOutput& out, bool programmatic, cudaStream_t stream) {
  constexpr int kElems = kReduceThreads / kGroups;
  const int64_t wanted = (m * n + kElems - 1) / kElems;
  const unsigned blocks = unsigned(wanted < kReduceMaxBlocks ? wanted : kReduceMaxBlocks);
  if (!programmatic) {
    split_k_reduce_kernel<kGroups><<<blocks, kReduceThreads, 0, stream>>>(m, n, slices, W, slice_step, out);
    return cudaGetLastError();
  }
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(kReduceThreads);
  config.stream = stream;
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  config.attrs = &attr;
  config.numAttrs = 1;
  const cudaError_t e = cudaLaunchKernelEx(&config, split_k_reduce_kernel<kGroups>, m, n, slices, W, slice_step, out);
  return e != cudaSuccess ? e : cudaGetLastError();
}

}  // namespace

tcgemm_status allocate_partials(const DeviceContext& ctx, int64_t rows, int64_t cols, int64_t slices,
                                int32_t k_splits, const char* family, cudaStream_t stream, StreamScratch* scratch,
                                double** out) {
  int64_t elements = 0;
  if (!checked_mul(rows, cols, &elements) || !checked_mul(elements, slices, &elements) ||
      elements > TCGEMM_MAX_MATRIX_BYTES / int64_t(sizeof(double)))
    return set_arg_error(TCGEMM_ERROR_INVALID_CONFIG, TCGEMM_ARG_CONFIG,
                         "k_splits=%d: the %s split-K workspace (%lld slices of %lld x %lld) exceeds 2^52 bytes",
                         k_splits, family, static_cast<long long>(slices), static_cast<long long>(rows),
                         static_cast<long long>(cols));
  void* p = nullptr;
  TCGEMM_TRY(scratch->allocate(ctx, size_t(elements) * sizeof(double), stream, &p));
  *out = static_cast<double*>(p);
  return TCGEMM_SUCCESS;
}

tcgemm_status launch_split_k_reduce(int64_t m, int64_t n, int64_t slices, const double* W, int64_t slice_step,
                                    const SplitKOutput& out, bool programmatic, cudaStream_t stream) {
  const cudaError_t e = slices < kDeepGroups
                            ? launch_groups<1>(m, n, slices, W, slice_step, out, programmatic, stream)
                            : launch_groups<kDeepGroups>(m, n, slices, W, slice_step, out, programmatic, stream);
  return e == cudaSuccess ? TCGEMM_SUCCESS : set_cuda_error(e, "launch of split_k_reduce_kernel");
}

}  // namespace tcgemm::detail
