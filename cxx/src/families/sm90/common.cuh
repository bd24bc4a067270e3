// sm90_mma: the constants, the kernel parameter block and the small device helpers every part of the family
// uses (operand_tile.cuh, kernel.cuh, plan.cuh). The design is described in kernel.cuh.
#pragma once

#include <cstdint>
#include <type_traits>

#include <cuda_runtime.h>

#include "arch/cp_async_sm80.cuh"
#include "arch/shared_memory_limits.hpp"
#include "core/checked_math.hpp"
#include "core/problem.hpp"
#include "arch/mma_sm90.cuh"
#include "families/sm90/rules.hpp"

namespace tcgemm::detail::sm90 {

// ---- instruction and memory constants ------------------------------------------------------------
constexpr int kMmaM = 16;             // rows of one mma tile
constexpr int kMmaN = 8;              // columns of one mma tile
constexpr int kKBlock = 16;            // k depth over which each lane owns 4 consecutive k
constexpr int kKPerLane = 4;          // physical k owned by one lane inside a k-block: [4t, 4t + 4)
constexpr int kLanesPerGroup = 4;     // threadID_in_group range
constexpr int kChunkBytes = 16;       // cp.async / ld.shared.v2.f64 width
constexpr int kChunkDoubles = 2;
constexpr int kBankLineChunks = 8;    // 32 banks x 4 bytes = 128 bytes = 8 chunks
constexpr int kWarpSizeThreads = 32;
constexpr int64_t kMaxSmemPerBlock = arch::kSm90MaxSmemOptinBytes;  // opt-in shared memory of a cc 9.0 block
// The deepest pipeline the k-tile waits serve: stages - 2 <= arch::kWaitPendingMax groups in flight.
constexpr int kMaxStagesAnyShape = arch::kWaitPendingMax + 2;
// The copies of this family carry no "memory" clobber: a stage is read only after cp_async_wait and
// __syncthreads, and C++ fragment loads of other stages may then be scheduled across the copies (the 8-byte
// asm loads of load_shared_f64 stay in program order with them: volatile asm is never reordered with other
// volatile asm).
constexpr arch::Clobber kCopyClobber = arch::Clobber::kNone;
constexpr int kPipeNone = 0, kPipeGroup = 1, kPipeStep = 2;  // fragment pipelines (see "Pipeline" above)
// The mma k-shape used by the library (16, 8 or 4). Chosen by measurement: docs/tuning.md.
#ifndef TCGEMM_SM90_MMA_K
#define TCGEMM_SM90_MMA_K 8
#endif
constexpr int kMmaK = TCGEMM_SM90_MMA_K;

// Everything a kernel instance needs from one call (host fills it, kernel reads it by value).
// 'T','T' runs as the transposed product: the operands are then B and A, swapped (plan.cuh).
struct Params : GemmOperands {
  int64_t tiles_m, tiles_n;  // C tile grid, one block per tile (validation: at most 2^31 - 1 tiles)
  int stages;                // pipeline depth, validated against the shape's range
  int64_t raster_rows;       // C tile rows per rasterization group (rules.hpp, sm90_raster_rows)
  int c_vec16;               // 1: 16-byte C accesses allowed (base 16-byte aligned and ldc even)
  // Split-K (gridDim.y slices; without a split: k_slice = k, steps 0). Slice y multiplies k in
  // [y k_slice, min(k, (y + 1) k_slice)), k_slice a multiple of tile_k, and writes C + y c_slice_step.
  int64_t k_slice;
  int64_t a_slice_step, b_slice_step;  // elements A and B advance per slice: k_slice x (stride along k)
  int64_t c_slice_step;                // elements between the slices' outputs (workspace slice size)
  int reduction_follows;  // 1: the split-K reduction is launched behind this kernel as its programmatic dependent
  // (A cluster split-K needs nothing more: its instance, Traits::kClusterSplit, takes the slice count from
  // gridDim.y and writes C itself with the call's alpha and beta; c_slice_step is then 0.)
};

// threadIdx.x read through a volatile asm: the compiler cannot merge it with an earlier read, so a value
// needed only after the main loop is not held in a register across it.
__device__ __forceinline__ int thread_index_reread() {
  int tid;
  asm volatile("mov.u32 %0, %%tid.x;\n" : "=r"(tid));
  return tid;
}

// blockIdx.y (the split-K slice) through a volatile asm, for the same reason.
__device__ __forceinline__ int64_t slice_index_reread() {
  unsigned y;
  asm volatile("mov.u32 %0, %%ctaid.y;\n" : "=r"(y));
  return static_cast<int64_t>(y);
}

// One 8-byte shared-memory load through asm, so that the compiler cannot fuse two neighbouring loads into one
// 16-byte load (whose two values would then have to be moved apart into the DMMA operand registers; see
// OperandTile::kMmaLeft). volatile keeps it in program order with the barriers and cp.async waits (volatile
// asm too, and compiler barriers), as the C++ loads are kept by their "memory" clobbers.
__device__ __forceinline__ double load_shared_f64(const char* p) {
  double v;
  asm volatile("ld.volatile.shared.f64 %0, [%1];\n" : "=d"(v) : "r"(arch::smem_address(p)));
  return v;
}

// Calls f(std::integral_constant<int, i>) for i in [kBegin, kEnd): an unrolled loop whose index can be
// a template argument.
template <int kBegin, int kEnd, class F>
__device__ __forceinline__ void static_for(F&& f) {
  if constexpr (kBegin < kEnd) {
    f(std::integral_constant<int, kBegin>{});
    static_for<kBegin + 1, kEnd>(f);
  }
}

__host__ __device__ constexpr int log2_exact(int v) { return v <= 1 ? 0 : 1 + log2_exact(v / 2); }

}  // namespace tcgemm::detail::sm90
