// Family batched_small's launcher (launch.hpp): the size classes of rules.hpp, each an instance of the
// kernel template in kernel.cuh, for strided batches and for arrays of pointers.
#include "core/device.hpp"
#include "core/errors.hpp"
#include "families/batched_small/kernel.cuh"
#include "families/batched_small/launch.hpp"
#include "families/common/index_dispatch.hpp"

namespace tcgemm::detail {
namespace {

using batched_small::BatchedArgs;

template <int kClass, bool kArrays, bool kReadC>
tcgemm_status launch_instance(const BatchedArgs& a, const DeviceContext& ctx, cudaStream_t stream) {
  static_assert(kClass < kBatchedClassCount, "batched_small: a class of rules.hpp");
  constexpr BatchedClass c = kBatchedClasses[kClass];
  constexpr int64_t smem = batched_smem_bytes(c);
  // Every cc 8.x part lets a block opt in to at least 99 KB; the H100's 228 KB per SM holds min_blocks of
  // them (the reserved 1 KB per block included).
  static_assert(smem <= 99 * 1024, "batched_small: a class's ring fits every supported GPU's per-block limit");
  static_assert(c.min_blocks * (smem + 1024) <= 228 * 1024, "batched_small: min_blocks rings fit an H100 SM");
  auto* kernel = batched_small::batched_small_kernel<kClass, kArrays, kReadC>;
  TCGEMM_TRY(ensure_dynamic_smem_limit(reinterpret_cast<const void*>(kernel), ctx, "batched_small_kernel"));
  // A persistent grid: as many blocks as fit on the GPU at once, each streaming its groups through its ring
  // (a block's first copies are the only ones nothing overlaps). The residency is asked once per instance
  // and CUDA context; a wrong guess would cost speed, never correctness.
  const int per_sm = resident_blocks_per_sm(reinterpret_cast<const void*>(kernel), ctx, c.warps * 32,
                                            static_cast<size_t>(smem), c.min_blocks);
  const int64_t groups = (a.batch + c.group - 1) / c.group;
  const int64_t resident = int64_t(ctx.sm_count) * per_sm;
  const int64_t grid = groups < resident ? groups : resident;
  kernel<<<static_cast<unsigned>(grid), c.warps * 32, static_cast<size_t>(smem), stream>>>(a);
  TCGEMM_CHECK_LAUNCH("batched_small_kernel");
  return TCGEMM_SUCCESS;
}

// beta != 0 reads C (its own instance: kernel.cuh); beta = 0 never does.
template <int kClass, bool kArrays>
tcgemm_status launch_class(const BatchedArgs& a, const DeviceContext& ctx, cudaStream_t stream) {
  return a.beta != 0.0 ? launch_instance<kClass, kArrays, true>(a, ctx, stream)
                       : launch_instance<kClass, kArrays, false>(a, ctx, stream);
}

template <bool kArrays>
tcgemm_status launch_any(const BatchedArgs& a, const DeviceContext& ctx, cudaStream_t stream) {
  const int cls = batched_class_index(a.m, a.n);
  if (cls < 0)
    return set_error(TCGEMM_ERROR_INVALID_ARGUMENT, "batched_small: m = %lld, n = %lld past its largest size class",
                     static_cast<long long>(a.m), static_cast<long long>(a.n));
  return dispatch_index<kBatchedClassCount>(
      cls, [&](auto c) { return launch_class<decltype(c)::value, kArrays>(a, ctx, stream); },
      TCGEMM_ERROR_INVALID_ARGUMENT);
}

}  // namespace

tcgemm_status launch_batched_small(const BatchedArgs& a, bool arrays, const DeviceContext& ctx, cudaStream_t stream) {
  return arrays ? launch_any<true>(a, ctx, stream) : launch_any<false>(a, ctx, stream);
}

tcgemm_status launch_batched_scale(const BatchedArgs& a, bool arrays, const DeviceContext& ctx, cudaStream_t stream) {
  const int64_t elements = a.m * a.n * a.batch;  // validated: fits the extents
  const int64_t blocks = (elements + 255) / 256;
  const unsigned grid = static_cast<unsigned>(blocks < int64_t(ctx.sm_count) * 32 ? blocks : int64_t(ctx.sm_count) * 32);
  if (arrays) batched_small::batched_scale_kernel<true><<<grid, 256, 0, stream>>>(a);
  else batched_small::batched_scale_kernel<false><<<grid, 256, 0, stream>>>(a);
  TCGEMM_CHECK_LAUNCH("batched_scale_kernel");
  return TCGEMM_SUCCESS;
}

}  // namespace tcgemm::detail
