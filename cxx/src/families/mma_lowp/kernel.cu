// Family mma_lowp's launcher (launch.hpp): the library's tiling of the kernel template in kernel.cuh.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "core/device.hpp"
#include "core/errors.hpp"
#include "families/mma_lowp/kernel.cuh"
#include "families/mma_lowp/kernel_tma.cuh"
#include "families/mma_lowp/launch.hpp"
#include "families/mma_lowp/tma_map.hpp"

namespace tcgemm::detail {
namespace {

using mma_lowp::mma_lowp_kernel;
using mma_lowp::mma_lowp_tma_kernel;

// The TMA kernel where it applies (tma_map.hpp) and its maps can be made; the cp.async kernel otherwise (sm_80,
// operands TMA cannot describe, TCGEMM_LOWP_TMA=0). Both compute the same sums in the same order.
template <class In, bool kAKMajor, bool kBKMajor, class T>
tcgemm_status launch_instance(const LowpProblem& pr, const DeviceContext& ctx, cudaStream_t stream) {
  const LowpArgs args = lowp_kernel_args(pr, T::kTileM, T::kTileN);
  constexpr int kTmaSmem = mma_lowp::tma_smem_bytes<T>();
  static_assert(kTmaSmem <= kMmaLowpTmaSmemBytes, "mma_lowp: launch.hpp's TMA shared memory covers every tiling");
  LowpTmaMaps maps;
  if (mma_lowp_tma_applies(pr, ctx) &&
      encode_lowp_tma_maps(pr, T::kTileM, T::kTileN, T::kTileK, &maps)) {
    auto* kernel = mma_lowp_tma_kernel<In, kAKMajor, kBKMajor, T>;
    TCGEMM_TRY(ensure_dynamic_smem_limit(reinterpret_cast<const void*>(kernel), ctx, "mma_lowp_tma_kernel"));
    kernel<<<lowp_grid(args), T::kThreads, kTmaSmem, stream>>>(args, maps.a, maps.b, maps.a_one_box, maps.b_one_box);
    TCGEMM_CHECK_LAUNCH("mma_lowp_tma_kernel");
    return TCGEMM_SUCCESS;
  }
  auto* kernel = mma_lowp_kernel<In, kAKMajor, kBKMajor, T>;
  TCGEMM_TRY(ensure_dynamic_smem_limit(reinterpret_cast<const void*>(kernel), ctx, "mma_lowp_kernel"));
  const unsigned grid = lowp_grid(args);
  kernel<<<grid, T::kThreads, T::kSmemBytes, stream>>>(args);
  TCGEMM_CHECK_LAUNCH("mma_lowp_kernel");
  return TCGEMM_SUCCESS;
}

template <class In, class T>
tcgemm_status launch_forms(const LowpProblem& p, const DeviceContext& ctx, cudaStream_t stream) {
  if (p.transa == 'T')
    return p.transb == 'T' ? launch_instance<In, true, false, T>(p, ctx, stream)
                           : launch_instance<In, true, true, T>(p, ctx, stream);
  return p.transb == 'T' ? launch_instance<In, false, false, T>(p, ctx, stream)
                         : launch_instance<In, false, true, T>(p, ctx, stream);
}

// The two tilings (launch.hpp, mma_lowp_tiling picks one). Chosen with the internal probe
// (bench/mma_lowp_probe.cu) on the H100 at n = 4096 and 8192, every operand form, as fractions of the
// mma.sync ceiling (bench/results/2026-11-24-h100-mma-lowp/): 256 x 128 tiles of 8 warps (64 x 64 each), k by
// 128 bytes through 3 stages, C tiles in groups of 8 down m, copies spread over the k steps: 0.73-0.74 at
// 8192 (FP16), 0.77 (TF32). The register file caps a warp at 64 x 64 and an SM at 8 such warps, so a larger
// tile has no room; 128 x 256 measured the same, 4 stages no better, 128 x 128 0.61-0.71, and without the
// spread copies 0.64-0.75 depending on the form. The 128 x 128 tiling (96 KiB) serves devices whose blocks
// cannot have 144 KiB, and problems too small to fill the SMs with 256 x 128 tiles.
template <class In>
using LargeTiling = mma_lowp::Tiling<In, 256, 128, 128 / mma_lowp::MmaOp<In>::kElemBytes, 4, 2, 3, 1, 8, true>;
template <class In>
using SmallTiling = mma_lowp::Tiling<In, 128, 128, 128 / mma_lowp::MmaOp<In>::kElemBytes, 2, 2, 3, 1, 8, true>;
static_assert(LargeTiling<__half>::kSmemBytes == kMmaLowpLargeSmemBytes &&
                  LargeTiling<mma_lowp::Tf32Rounded>::kSmemBytes == kMmaLowpLargeSmemBytes &&
                  SmallTiling<__half>::kSmemBytes == kMmaLowpSmallSmemBytes &&
                  SmallTiling<mma_lowp::Tf32Rounded>::kSmemBytes == kMmaLowpSmallSmemBytes,
              "mma_lowp: launch.hpp's shared-memory sizes are the tilings'");
static_assert(LargeTiling<__half>::kTileM == kMmaLowpLargeTileM && LargeTiling<__half>::kTileN == kMmaLowpLargeTileN,
              "mma_lowp: launch.hpp's large tile is the tiling's");

template <template <class> class T>
tcgemm_status launch_tiling(const LowpProblem& p, const DeviceContext& ctx, cudaStream_t stream) {
  using Tf32 = mma_lowp::Tf32Rounded;
  if (p.input_type == TCGEMM_TYPE_F32)  // TF32 packed by tcgemm (launch.hpp): A^T and B, both k-contiguous
    return launch_instance<Tf32, true, true, T<Tf32>>(p, ctx, stream);
  if (p.input_type == TCGEMM_TYPE_BF16) return launch_forms<__nv_bfloat16, T<__nv_bfloat16>>(p, ctx, stream);
  if (p.compute == TCGEMM_TYPE_F16) {  // FP16 accumulation
    using Acc16 = mma_lowp::F16Acc16;
    return launch_forms<Acc16, T<Acc16>>(p, ctx, stream);
  }
  return launch_forms<__half, T<__half>>(p, ctx, stream);
}

}  // namespace

tcgemm_status launch_mma_lowp(const LowpProblem& p, const DeviceContext& ctx, cudaStream_t stream) {
  if (mma_lowp_tiling(p, ctx) == MmaLowpTiling::Large) return launch_tiling<LargeTiling>(p, ctx, stream);
  return launch_tiling<SmallTiling>(p, ctx, stream);
}

}  // namespace tcgemm::detail
