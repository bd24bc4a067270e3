// Family batched_small's launcher (launch.hpp): the size classes of rules.hpp, each an instance of the
// kernel template in kernel.cuh, for strided batches and for arrays of pointers.
#include "core/errors.hpp"
#include "families/batched_small/kernel.cuh"
#include "families/batched_small/launch.hpp"

namespace tcgemm::detail {
namespace {

using batched_small::BatchedArgs;

template <int kClass, bool kArrays>
tcgemm_status launch_class(const BatchedArgs& a, const DeviceContext& ctx, cudaStream_t stream) {
  constexpr BatchedClass c = kBatchedClasses[kClass];
  static_assert(batched_smem_bytes(c) <= 48 * 1024, "batched_small: within the default shared-memory limit");
  static_assert(c.group * (c.size / 8) * (c.size / 8) % c.warps == 0, "batched_small: whole tiles per warp");
  static_assert(kClass < kBatchedClassCount, "batched_small: a class of rules.hpp");
  auto* kernel = batched_small::batched_small_kernel<c.size, c.kc, c.group, c.warps, c.rb, c.cb, c.min_blocks, kArrays>;
  // Enough blocks for every SM to hold several (each loops over groups of products); at most one per group.
  const int64_t groups = (a.batch + c.group - 1) / c.group;
  const int64_t grid = groups < int64_t(ctx.sm_count) * 64 ? groups : int64_t(ctx.sm_count) * 64;
  kernel<<<static_cast<unsigned>(grid), c.warps * 32, batched_smem_bytes(c), stream>>>(a);
  TCGEMM_CHECK_LAUNCH("batched_small_kernel");
  return TCGEMM_SUCCESS;
}

template <bool kArrays>
tcgemm_status launch_any(const BatchedArgs& a, const DeviceContext& ctx, cudaStream_t stream) {
  switch (batched_class_index(a.m, a.n)) {
    case 0: return launch_class<0, kArrays>(a, ctx, stream);
    case 1: return launch_class<1, kArrays>(a, ctx, stream);
    case 2: return launch_class<2, kArrays>(a, ctx, stream);
    case 3: return launch_class<3, kArrays>(a, ctx, stream);
    case 4: return launch_class<4, kArrays>(a, ctx, stream);
    case 5: return launch_class<5, kArrays>(a, ctx, stream);
    case 6: return launch_class<6, kArrays>(a, ctx, stream);
    default:
      return set_error(TCGEMM_ERROR_INVALID_ARGUMENT, "batched_small: m = %lld, n = %lld past its largest size class",
                       static_cast<long long>(a.m), static_cast<long long>(a.n));
  }
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
