// Family batched_direct's launcher (launch.hpp): the shapes of rules.hpp, each an instance of the kernel template
// in kernel.cuh, for strided batches and for arrays of pointers.
#include "core/device.hpp"
#include "core/errors.hpp"
#include "families/batched_direct/kernel.cuh"
#include "families/batched_direct/launch.hpp"
#include "families/common/index_dispatch.hpp"

namespace tcgemm::detail {
namespace {

using batched_small::BatchedArgs;

// Shapes 0..5 of kBatchedDirectShapes are the beta = 0 instances (C never read), 6..11 those for beta != 0.
template <int kShape, bool kArrays>
tcgemm_status launch_instance(const BatchedArgs& a, const DeviceContext& ctx, cudaStream_t stream) {
  static_assert(kShape < kBatchedDirectShapeCount, "batched_direct: a shape of rules.hpp");
  constexpr bool kReadC = kShape >= kBatchedDirectShapesPerBeta;
  constexpr BatchedDirectShape s = kBatchedDirectShapes[kShape];
  constexpr int64_t smem = batched_direct_smem_bytes(s, kReadC, kArrays);
  static_assert(smem <= 99 * 1024, "batched_direct: a block's rings fit every supported GPU's per-block limit");
  auto* kernel = batched_direct::batched_direct_kernel<kShape, kArrays, kReadC>;
  TCGEMM_TRY(ensure_dynamic_smem_limit(reinterpret_cast<const void*>(kernel), ctx, "batched_direct_kernel"));
  // A persistent grid: as many blocks as fit on the GPU at once (asked once per instance and CUDA context; a
  // wrong guess costs speed only), fewer when the batch has fewer passes of work.
  const int per_sm = resident_blocks_per_sm(reinterpret_cast<const void*>(kernel), ctx, kBatchedDirectThreads,
                                            static_cast<size_t>(smem), 4);
  const int64_t items = (a.batch + s.per_tile() - 1) / s.per_tile();
  const int64_t per_block = int64_t(kBatchedDirectThreads / 32) * s.items;
  const int64_t blocks = (items + per_block - 1) / per_block;
  const int64_t resident = int64_t(ctx.sm_count) * per_sm;
  const int64_t grid = blocks < resident ? blocks : resident;
  kernel<<<static_cast<unsigned>(grid), kBatchedDirectThreads, static_cast<size_t>(smem), stream>>>(a);
  TCGEMM_CHECK_LAUNCH("batched_direct_kernel");
  return TCGEMM_SUCCESS;
}

template <bool kArrays>
tcgemm_status launch_any(const BatchedArgs& a, const DeviceContext& ctx, cudaStream_t stream) {
  const int shape = batched_direct_shape_index(a.m, a.n, a.beta != 0.0);
  if (shape < 0)
    return set_error(TCGEMM_ERROR_INVALID_ARGUMENT, "batched_direct: m = %lld, n = %lld past its largest shape",
                     static_cast<long long>(a.m), static_cast<long long>(a.n));
  return dispatch_index<kBatchedDirectShapeCount>(
      shape, [&](auto s) { return launch_instance<decltype(s)::value, kArrays>(a, ctx, stream); },
      TCGEMM_ERROR_INVALID_ARGUMENT);
}

}  // namespace

tcgemm_status launch_batched_direct(const BatchedArgs& a, bool arrays, const DeviceContext& ctx, cudaStream_t stream) {
  return arrays ? launch_any<true>(a, ctx, stream) : launch_any<false>(a, ctx, stream);
}

}  // namespace tcgemm::detail
