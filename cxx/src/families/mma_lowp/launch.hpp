// Family mma_lowp: the fast path of tcgemm_gemm_ex and tcgemm_sgemm (kernel.cuh, kernel_tma.cuh, kernel.cu):
// mma.sync m16n8k16 for F16 and BF16 inputs (FP32 accumulation, or FP16 for F16 inputs) and m16n8k8 for TF32,
// a multistage ring of shared tiles filled by TMA on sm_90 (tma_map.hpp says when) and by cp.async otherwise.
// The WMMA family (wmma_lowp) stays the one for explicit configurations and the inputs this one does not take
// (rules below).
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "core/problem.hpp"
#include "families/wmma_lowp/launch.hpp"
#include "tcgemm/tcgemm.h"

namespace tcgemm::detail {

// Whether a validated, non-quick-return problem with F16 or BF16 inputs can take the fast path in place. Its
// loads copy 16-byte pieces (8 elements) along each operand's contiguous dimension, so: FP32 accumulation
// (or FP16 with F16 inputs);
// A and B 16-byte aligned with leading dimensions a multiple of 8; the contiguous extent of each operand (m
// for an untransposed A, k for a transposed A and an untransposed B, n for a transposed B) a multiple of 8,
// so no piece straddles an edge; alpha != 0 and k >= 1 (otherwise A and B are not read and the WMMA path
// scales C). Host-only: checks pointers by value, not the memory behind them.
bool mma_lowp_eligible(const LowpProblem& p);

// TF32 (FP32 inputs, FP32 accumulation): the kernel takes both operands k-contiguous and already rounded to
// TF32 (rounding as fragments load cost 40% of its speed, measured), so tcgemm first packs op(A)^T and op(B)
// into scratch memory (tf32_pack.hpp), k padded with zeros to a multiple of 4: any alignment, leading
// dimension and form is then eligible. Whether a validated, non-quick-return problem takes that route:
// alpha != 0 and k >= 1 (as above); the scratch size is checked by the caller (tf32_pack_bytes).
bool mma_lowp_tf32_eligible(const LowpProblem& p);

// The two tilings of kernel.cu: 256 x 128 C tiles (144 KiB of shared memory) and 128 x 128 (96 KiB).
constexpr int64_t kMmaLowpLargeSmemBytes = 3 * (256 + 128) * 128;
constexpr int64_t kMmaLowpSmallSmemBytes = 3 * (128 + 128) * 128;
constexpr int64_t kMmaLowpLargeTileM = 256, kMmaLowpLargeTileN = 128;
// The TMA kernel's shared memory for the larger tiling: the ring, 1024 bytes of alignment slack and the slots'
// mbarriers (kernel_tma.cuh, tma_smem_bytes; kernel.cu checks both tilings against it).
constexpr int64_t kMmaLowpTmaSmemBytes = kMmaLowpLargeSmemBytes + 1024 + 8 * 3;
enum class MmaLowpTiling { Large, Small };
// Large where the device's blocks can have its shared memory and the problem has at least one 256 x 128
// tile per SM (a full wave); otherwise Small, which makes twice the tiles for problems that leave SMs idle.
MmaLowpTiling mma_lowp_tiling(const LowpProblem& p, const DeviceContext& ctx);

// Enqueues the product on `stream` (the shared memory limit is raised once per context). TF32 problems are
// the packed ones (transa 'T', transb 'N', A and B the packed copies). Returns TCGEMM_SUCCESS or a CUDA
// error.
tcgemm_status launch_mma_lowp(const LowpProblem& p, const DeviceContext& ctx, cudaStream_t stream);

}  // namespace tcgemm::detail
