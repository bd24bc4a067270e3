// Family mma_lowp's TMA kernel (sm_90; launch.hpp says when it runs, kernel.cu instantiates it): the MMA loop of
// kernel.cuh's mma_lowp_kernel, fed by the Tensor Memory Accelerator instead of cp.async.
//
// Why: on the H200 at n = 8192 the cp.async kernel runs at 475 TFLOP/s (F16) and at 565 with its main-loop
// copies left out (bench/results/2026-11-29-h200-lowp-limits): every thread's copies, their address arithmetic
// and their commit/wait bookkeeping cost 16% of the time in a kernel with 2 warps per scheduler. With TMA one
// thread issues a k-tile as 2 to 6 box copies, the barrier of the slot counts the bytes, and the other 255
// threads only wait on it; 526 TFLOP/s in the same run.
//
// Pipeline: the same ring of kStages slots as the cp.async kernel, refilled kStages - 1 k-tiles ahead, with
// the block barrier before each k-tile's last step (which is what frees the slot the next copy overwrites:
// every warp has loaded the previous k-tile's fragments by then). Each slot has an mbarrier that one arrival
// (the issuing thread's, with the expected byte count) and the copies' bytes complete; every thread waits on
// it before reading the slot, tracking each slot's phase parity in one bit of `phases`. The k-tile loop runs
// kStages k-tiles per turn, so slots are compile-time constants and every fragment load is a register plus an
// immediate: with runtime slots the MN-major forms ran 17% more instructions than the K-major one (ncu, NN
// against TN at n = 8192) for the per-block address sums. TMA leaves the registers this needs: 211-214 per
// thread against the cp.async kernel's 246-255.
//
// Shared-memory layouts, as TMA's 128-byte swizzle writes them (16-byte chunk c of 128-byte row r of a
// 1024-byte-aligned block lands at chunk c ^ (r % 8), the pattern tile_offset uses for 128-byte lines):
//  - K-major operand (k contiguous, 128 bytes of k per k-tile): rows m (or n) of 128 bytes, one box of
//    kTileK x kTileM per k-tile, the layout FragAddress<true, 128, ...> reads;
//  - MN-major operand (m or n contiguous, 16-bit elements only): the box's contiguous side is at most 128
//    bytes, so the tile is kTileM / 64 pieces of 64 elements x kTileK rows of k, one after the other
//    (FragAddressTmaMn). Where m (n) is whole 64-element blocks one 3-D box brings all the pieces
//    (tma_map.hpp, a_one_box): the 'N','N' and 'N','T' forms had issued 5 and 6 copies per k-tile against the
//    'T','N' form's 2, from thread 0 ahead of its warp's MMAs (in an A/B on the H200 the one-box maps stayed
//    within run-to-run noise, bench/results/2026-11-29-h200-lowp-one-box).
// Edges: TMA fills whatever lies outside the tensor (m, n or k) with zeros, so no copy is masked.
#pragma once

#include <cuda.h>

#include "arch/tma_sm90.cuh"
#include "families/mma_lowp/kernel.cuh"

namespace tcgemm::detail::mma_lowp {

// Offsets one lane's ldmatrix.x4 (.trans) reads for 16-wide block b of a warp's share of an MN-major operand
// at k step s, in the TMA layout above. The lane reads k row line_lane (0..15) of the step at 16-byte chunk
// p = w / 8 + 2 b + h of the operand's m (or n) extent: box p / 8, chunk p % 8 of its row, swizzled by
// the row's (16 s + line_lane) % 8 = line_lane % 8.
template <int kBlocks, int kTileK>
struct FragAddressTmaMn {
  uint32_t per_block[kBlocks] = {};
  __device__ __forceinline__ FragAddressTmaMn(int w, LaneSpot spot) {
    const int line_lane = spot.line, h = spot.half;
#pragma unroll
    for (int b = 0; b < kBlocks; ++b) {
      const int p = w / 8 + 2 * b + h;
      per_block[b] = uint32_t((p >> 3) * kTileK * 128 + line_lane * 128 + (((p & 7) ^ (line_lane & 7)) << 4));
    }
  }
  __device__ __forceinline__ uint32_t at(uint32_t tile, int b, int s) const {
    return tile + per_block[b] + uint32_t(16 * s * 128);
  }
};

// One operand's k-tile at k0 into its slot at dst, by thread 0: one box of kTileK x kTile (K-major, at k0 and the
// tile's first row o0), one 3-D box of 64 x kTileK x kTile / 64 (MN-major, one_box) or kTile / 64 boxes of
// 64 x kTileK (MN-major otherwise), all completing on `bar`.
template <bool kKMajor, int kTile, int kTileK>
__device__ __forceinline__ void issue_operand(uint32_t dst, const CUtensorMap* map, bool one_box, int32_t k0,
                                              int32_t o0, uint32_t bar) {
  if constexpr (kKMajor) {
    arch::tma_load_2d(dst, map, k0, o0, bar);
  } else if (one_box) {
    arch::tma_load_3d(dst, map, 0, k0, o0 / 64, bar);
  } else {
#pragma unroll
    for (int j = 0; j < kTile / 64; ++j) arch::tma_load_2d(dst + j * kTileK * 128, map, o0 + 64 * j, k0, bar);
  }
}

// Calls f(std::integral_constant<int, r>) for r = 0, 1, ... in order while f returns true.
template <int... kR, class F>
__device__ __forceinline__ void for_each_slot(std::integer_sequence<int, kR...>, F&& f) {
  (f(std::integral_constant<int, kR>{}) && ...);
}

// Bytes of dynamic shared memory the TMA kernel of tiling T asks for: the ring, up to 1023 bytes to align it
// to 1024 (the swizzle's period), and the slots' barriers.
template <class T>
constexpr int tma_smem_bytes() {
  return T::kSmemBytes + 1024 + 8 * T::kStages;
}

// kAKMajor: op(A) = A^T (k contiguous); kBKMajor: op(B) = B (k contiguous). map_a and map_b: the operands'
// tensor maps (tma_map.hpp): boxes of kTileK x kTileM (kTileN) for K-major operands; for MN-major ones one
// 3-D box of 64 x kTileK x (tile / 64) where a_one_box (b_one_box), else tile / 64 boxes of 64 x kTileK.
template <class In, bool kAKMajor, bool kBKMajor, class T>
__global__ void __launch_bounds__(T::kThreads, T::kMinBlocks)
    mma_lowp_tma_kernel(const LowpArgs p, const __grid_constant__ CUtensorMap map_a,
                        const __grid_constant__ CUtensorMap map_b, const bool a_one_box, const bool b_one_box) {
  using Op = MmaOp<In>;
  constexpr int kTileM = T::kTileM, kTileN = T::kTileN, kTileK = T::kTileK, kStages = T::kStages;
  constexpr int kWarpsM = T::kWarpsM, kWarpM = T::kWarpM, kWarpN = T::kWarpN, kKSteps = T::kKSteps;
  constexpr int kFragsM = T::kFragsM, kFragsN = T::kFragsN, kStageBytes = T::kStageBytes;
  static_assert(T::kKBytes == 128, "mma_lowp TMA: 128 bytes of k per k-tile (one 128-byte swizzle row)");
  static_assert(Op::kElemBytes == 2 || (kAKMajor && kBKMajor), "mma_lowp TMA: TF32 takes k-contiguous operands only");
  static_assert((kAKMajor || kTileM % 64 == 0) && (kBKMajor || kTileN % 64 == 0),
                "mma_lowp TMA: MN-major tiles are whole 64-element boxes");
  static_assert(kTileM <= 256 && kTileN <= 256 && T::kATileBytes % 1024 == 0 && kStageBytes % 1024 == 0,
                "mma_lowp TMA: boxes of at most 256 rows; every box 1024-byte aligned");

  extern __shared__ __align__(1024) unsigned char mma_lowp_tma_smem[];
  const uint32_t raw = static_cast<uint32_t>(__cvta_generic_to_shared(mma_lowp_tma_smem));
  const uint32_t smem0 = (raw + 1023u) & ~1023u;
  const uint32_t bars = smem0 + kStages * kStageBytes;
  const int tid = static_cast<int>(threadIdx.x), lane = tid % 32, warp = tid / 32;
  const int warp_m0 = (warp % kWarpsM) * kWarpM, warp_n0 = (warp / kWarpsM) * kWarpN;
  const int64_t k_tiles = ceil_div_nonneg(p.k, int64_t(kTileK));
  if (tid == 0) {
    for (int s = 0; s < kStages; ++s) arch::mbarrier_init(bars + 8 * s, 1);
    arch::fence_mbarrier_init();
  }
  __syncthreads();
  uint32_t phases = 0;  // bit s: the parity of slot s's next phase

  // Where each lane's ldmatrix reads (a_lane_spot, b_lane_spot): K-major tiles as in mma_lowp_kernel (128-byte
  // lines), MN-major ones in the TMA layout.
  using AAddr = std::conditional_t<kAKMajor, FragAddress<true, 128, kFragsM>, FragAddressTmaMn<kFragsM, kTileK>>;
  using BAddr = std::conditional_t<kBKMajor, FragAddress<true, 128, kFragsN / 2>, FragAddressTmaMn<kFragsN / 2, kTileK>>;
  const AAddr a_addr(warp_m0, a_lane_spot<kAKMajor>(lane));
  const BAddr b_addr(warp_n0, b_lane_spot<kBKMajor>(lane));
  auto load_frags = [&](uint32_t (&af)[kFragsM][4], uint32_t (&bf)[kFragsN / 2][4], uint32_t a_s, uint32_t b_s,
                        int s) {
    load_step_fragments<Op, kAKMajor, kBKMajor>(af, bf, a_addr, b_addr, a_s, b_s, s);
  };
  auto wait_slot = [&](int slot) {
    arch::mbarrier_wait(bars + 8 * slot, (phases >> slot) & 1u);
    phases ^= 1u << slot;
  };

  for (int64_t t = blockIdx.x; t < p.total_tiles; t += gridDim.x) {
    int64_t mt, nt;
    tile_coords<T::kGroupM>(t, p.m_tiles, p.total_tiles / p.m_tiles, mt, nt);
    // Coordinates fit 32 bits: the launcher takes this kernel only for m, n, k below 2^31.
    const int32_t m0 = int32_t(mt * kTileM), n0 = int32_t(nt * kTileN);
    // k-tile kt into ring slot `slot`, by thread 0 only.
    auto issue = [&](int slot, int64_t kt) {
      const uint32_t a_s = smem0 + slot * kStageBytes, b_s = a_s + T::kATileBytes, bar = bars + 8 * slot;
      const int32_t k0 = int32_t(kt * kTileK);
      arch::mbarrier_arrive_expect_tx(bar, kStageBytes);
      issue_operand<kAKMajor, kTileM, kTileK>(a_s, &map_a, a_one_box, k0, m0, bar);
      issue_operand<kBKMajor, kTileN, kTileK>(b_s, &map_b, b_one_box, k0, n0, bar);
    };

    float acc[kFragsM][kFragsN][4];
    zero_accumulators<Op>(acc);

    __syncthreads();  // the previous C tile's warps are done with every slot
    if (k_tiles == 0) {  // the launcher never sends k = 0 (launch_scale_c does), but nothing here would arrive
      store_c_tile<Op>(p, acc, m0, n0, warp_m0, warp_n0, lane);
      continue;
    }
    if (tid == 0)
      for (int s = 0; s < kStages - 1; ++s)
        if (s < k_tiles) issue(s, s);
    wait_slot(0);
    uint32_t af[2][kFragsM][4], bf[2][kFragsN / 2][4];
    load_frags(af[0], bf[0], smem0, smem0 + T::kATileBytes, 0);

    // k-tile kt, which lies in slot r (a C tile's k-tile j is in slot j % kStages): every slot and step is a
    // compile-time constant, so each ldmatrix address is a register fixed for the kernel plus an immediate
    // (the loop below runs kStages k-tiles per turn). Returns whether another k-tile follows.
    auto k_tile = [&](int64_t kt, auto r_c) {
      constexpr int r = decltype(r_c)::value;
      constexpr int next_slot = (r + 1) % kStages, refill_slot = (r + kStages - 1) % kStages;
      const bool more = kt + 1 < k_tiles;
      for_each_step(std::make_integer_sequence<int, kKSteps>{}, [&](auto s_c) {
        constexpr int s = decltype(s_c)::value;
        constexpr bool last = s == kKSteps - 1;
        if constexpr (last) {
          // This k-tile's last fragments are in registers (loaded in the previous step): once every warp is
          // here, the previous k-tile's slot is free for the copy at the next k-tile's first step.
          __syncthreads();
          if (more) wait_slot(next_slot);  // past the last k-tile nothing was copied: neither wait nor load
        }
        constexpr uint32_t from = uint32_t((last ? next_slot : r) * kStageBytes);
        if (!last || more)
          load_frags(af[(s + 1) & 1], bf[(s + 1) & 1], smem0 + from, smem0 + from + T::kATileBytes, (s + 1) % kKSteps);
        if constexpr (s == 0) {
          if (tid == 0 && kt + kStages - 1 < k_tiles) issue(refill_slot, kt + kStages - 1);
        }
        mma_step<Op>(acc, af[s & 1], bf[s & 1]);
      });
      return more;
    };
    for (int64_t kt = 0; kt < k_tiles; kt += kStages)
      for_each_slot(std::make_integer_sequence<int, kStages>{}, [&](auto r_c) { return k_tile(kt + r_c(), r_c); });

    store_c_tile<Op>(p, acc, m0, n0, warp_m0, warp_n0, lane);
  }
}

}  // namespace tcgemm::detail::mma_lowp
