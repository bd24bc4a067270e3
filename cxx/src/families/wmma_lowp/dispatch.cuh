// Family wmma_lowp's instances, chosen by the call's WMMA shape, C tile, operand form and configuration: the
// pipelined kernel (kernel_pipelined.cuh) for exactly a fixed configuration, the run-time kernel (kernel.cuh)
// for any other. Included by one translation unit per input and accumulator type (kernel_*.cu).
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "core/device.hpp"
#include "core/errors.hpp"
#include "families/wmma_lowp/kernel.cuh"
#include "families/wmma_lowp/kernel_pipelined.cuh"

namespace tcgemm::detail::wmma_lowp {

// Launches one kernel instance with kThreads threads a block and the call's dynamic shared memory; `name` is the
// kernel's and `launch_what` ("launch of <kernel>") heads a launch error's message.
template <int kThreads, class Kernel>
tcgemm_status launch_kernel(Kernel* kernel, const char* name, const char* launch_what, const LowpArgs& args,
                            int64_t smem_bytes, const DeviceContext& ctx, cudaStream_t stream) {
  if (smem_bytes > kDefaultDynamicSmemBytes)
    TCGEMM_TRY(ensure_dynamic_smem_limit(reinterpret_cast<const void*>(kernel), ctx, name));
  kernel<<<lowp_grid(args), kThreads, static_cast<size_t>(smem_bytes), stream>>>(args);
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return set_cuda_error(err, launch_what);
  return TCGEMM_SUCCESS;
}

// An operand form's instance: the pipelined kernel when the call's configuration is exactly its tile's fixed
// configuration (and that fits a block at all), with its own shared memory (unstretched tiles: at most
// smem_bytes), the run-time kernel otherwise.
template <class In, class Acc, int FM, int FN, int FK, int kTileM, int kTileN, bool kAKContig, bool kBKContig>
tcgemm_status launch_form_instance(const LowpArgs& args, int64_t smem_bytes, const DeviceContext& ctx,
                                   cudaStream_t stream) {
  // TF32 takes the pipelined kernel on its packed copies only ('T','N'; lowp_fixed_instance_applies).
  if constexpr (lowp_fixed_tile(kTileM, kTileN) && (sizeof(In) == 2 || (kAKContig && kBKContig))) {
    using Pipelined = PipelinedShape<In, Acc, FM, FN, FK, kTileM, kTileN, kAKContig, kBKContig>;
    if constexpr (Pipelined::kFits) {
      if (lowp_fixed_instance_applies(args, wmma_shape_of(FM, FN, FK), int(sizeof(In)), kTileM, kTileN))
        return launch_kernel<Pipelined::kThreads>(
            wmma_lowp_pipelined_kernel<In, Acc, FM, FN, FK, kTileM, kTileN, kAKContig, kBKContig>,
            "wmma_lowp_pipelined_kernel", "launch of wmma_lowp_pipelined_kernel", args, Pipelined::kSmemBytes, ctx,
            stream);
    }
  }
  return launch_kernel<LowpShape<In, Acc, FM, FN, FK, kTileM, kTileN, kAKContig, kBKContig>::kThreads>(
      wmma_lowp_kernel<In, Acc, FM, FN, FK, kTileM, kTileN, kAKContig, kBKContig>, "wmma_lowp_kernel",
      "launch of wmma_lowp_kernel", args, smem_bytes, ctx, stream);
}

// The instance for a block tile and an operand form.
template <class In, class Acc, int FM, int FN, int FK, int kTileM, int kTileN>
tcgemm_status launch_form(const LowpArgs& args, int64_t smem_bytes, const DeviceContext& ctx, cudaStream_t stream) {
  const bool ak = args.trans_a, bk = !args.trans_b;
  if (ak && bk)
    return launch_form_instance<In, Acc, FM, FN, FK, kTileM, kTileN, true, true>(args, smem_bytes, ctx, stream);
  if (ak) return launch_form_instance<In, Acc, FM, FN, FK, kTileM, kTileN, true, false>(args, smem_bytes, ctx, stream);
  if (bk) return launch_form_instance<In, Acc, FM, FN, FK, kTileM, kTileN, false, true>(args, smem_bytes, ctx, stream);
  return launch_form_instance<In, Acc, FM, FN, FK, kTileM, kTileN, false, false>(args, smem_bytes, ctx, stream);
}

// The instances of a fragment shape, by block tile (validated: rules.hpp, lowp_tile_allowed).
template <class In, class Acc, int FM, int FN, int FK>
tcgemm_status launch_tile(const LowpArgs& args, int tile_m, int tile_n, int64_t smem_bytes, const DeviceContext& ctx,
                          cudaStream_t stream) {
  if (tile_m == 64) return launch_form<In, Acc, FM, FN, FK, 64, 64>(args, smem_bytes, ctx, stream);
  if (tile_m == 256) return launch_form<In, Acc, FM, FN, FK, 256, 128>(args, smem_bytes, ctx, stream);
  if (tile_n == 256) return launch_form<In, Acc, FM, FN, FK, 128, 256>(args, smem_bytes, ctx, stream);
  return launch_form<In, Acc, FM, FN, FK, 128, 128>(args, smem_bytes, ctx, stream);
}

// The three 16-bit shapes.
template <class In, class Acc>
tcgemm_status launch_shape16(const LowpArgs& args, int shape, int tile_m, int tile_n, int64_t smem_bytes,
                             const DeviceContext& ctx, cudaStream_t stream) {
  switch (shape) {
    case TCGEMM_WMMA_32x8x16: return launch_tile<In, Acc, 32, 8, 16>(args, tile_m, tile_n, smem_bytes, ctx, stream);
    case TCGEMM_WMMA_8x32x16: return launch_tile<In, Acc, 8, 32, 16>(args, tile_m, tile_n, smem_bytes, ctx, stream);
    default: return launch_tile<In, Acc, 16, 16, 16>(args, tile_m, tile_n, smem_bytes, ctx, stream);
  }
}

}  // namespace tcgemm::detail::wmma_lowp
