// Family wmma_lowp, the pipelined kernel: the fixed configurations (rules.hpp, lowp_fixed_config: C tiles of
// 128 x 128, 256 x 128 or 128 x 256, k-tiles of four k steps, 16-byte paddings, 3 stages) with every field a
// compile-time constant. Same WMMA MMAs and results as the run-time kernel (kernel.cuh), and the same padded
// tiles but for the 8-wide shapes' m- or n-contiguous ones, which are not stretched here (rules.hpp,
// LowpOperandTile); what differs is the schedule, which is the mma.sync fast path's (families/mma_lowp/kernel.cuh)
// written with WMMA fragments:
//  - A's fragments are double-buffered in registers (step s + 1's loads come before step s's mma_sync calls),
//    B's are reloaded column by column during them, so no MMA waits on the shared-memory load of its own
//    operands;
//  - a k-tile's barrier sits before the last k step of the previous one (whose fragments are already in
//    registers), so the next k-tile's first fragments load while the last MMAs of this one run, and the ring
//    slot just finished is free to refill at once;
//  - whole k-tiles' copies are cached in L1 (.ca; the zero-filling copies at the operands' edges keep .cg): a
//    padded line starts 16 bytes past a 32-byte boundary every other line, and .cg fetched each such source
//    sector from L2 twice (arch/cp_async_sm80.cuh, Cache);
//  - a k-tile's copies are spread over the first three k steps, each thread's pieces at one shared base plus
//    constants and one source pointer that moves by a constant per k-tile;
//  - C tiles go in groups of 8 m tiles (tile_coords), so that the A rows and B columns a wave of blocks reads
//    stay in L2;
//  - every fragment is filled by ldmatrix (fragment_ldmatrix.cuh): BF16 'N','N' went from 0.36 to 0.70 of the
//    WMMA ceiling at n = 8192, and TF32, which takes this kernel on packed copies already rounded (launch.hpp,
//    lowp_tf32_packs), from 0.35 to 0.75 (bench/results/2026-12-02-h200-wmma-ldmatrix/); the 8-wide shapes
//    followed (bench/results/2026-12-02-h200-wmma-8wide/);
//  - a k-tile's copies test the operand's edges only when the k-tile is not whole: the decision is made once
//    per k-tile and each case is its own straight-line body of k steps (a test inside the steps split them
//    into branches across which the compiler did not interleave loads and MMAs).
// With two warps per scheduler (64 x 64 warp tiles take ~250 registers) little hides the latency of an
// instruction that waits on another, so the order of the loop is much of the speed: F16 (FP32 accumulation) at
// n = 8192 (H200) went from 325 TFLOP/s (the run-time kernel's fixed instances) to 379-381 with this schedule
// (bench/results/2026-12-01-h200-wmma-pipelined/), to 421-429 with the ldmatrix fills and the edge tests above
// (2026-12-02), and to 442-452 with single-buffered B fragments and L1-cached copies (0.70-0.71 of the WMMA
// ceiling; bench/results/2026-12-02-h200-wmma-schedule/).
// Tried and not kept (2026-12-02's READMEs):
//  - 4 stages instead of 3 at 256 x 128 (212 KiB; no gain), the MMAs row by row instead of column by column (no
//    gain), single-buffered A fragments instead of B (+2.9% with the L1 copies, against +4.4%);
//  - a persistent grid that issues the next C tile's first k-tiles before the epilogue (no gain at 256 x 128,
//    6% lost at 128 x 128);
//  - the copy engine instead of cp.async, which fed the mma.sync fast path 8-10% faster: its boxes land
//    densely and cannot skip the padding. One cp.async.bulk per tile line (128-512 bytes) reached 2-3 TB/s
//    across the chip and halved the kernel (F16 441 -> 182-255 TFLOP/s); one TMA box of a k-contiguous tile's
//    lines with their padding (144-byte rows, no swizzle; m- or n-contiguous tiles are wider than a box) lost
//    6-33% (bench/results/2026-12-02-h200-wmma-tma/).
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "arch/cp_async_sm80.cuh"
#include "core/checked_math.hpp"
#include "families/common/static_steps.cuh"
#include "families/common/tile_raster.cuh"
#include "families/wmma_lowp/fragment_ldmatrix.cuh"
#include "families/wmma_lowp/kernel_common.cuh"

namespace tcgemm::detail::wmma_lowp {

// Compile-time facts of a pipelined instance: the fixed configuration of its tile and the shared tiles it gives.
template <class In, class Acc, int FM, int FN, int FK, int kTileM, int kTileN, bool kAKContig, bool kBKContig>
struct PipelinedShape : LowpShape<In, Acc, FM, FN, FK, kTileM, kTileN, kAKContig, kBKContig> {
  static_assert(lowp_fixed_tile(kTileM, kTileN), "wmma_lowp: the pipelined kernel runs the fixed tiles only");
  static constexpr int kInBytes = int(sizeof(In));
  static constexpr tcgemm_wmma_config kConfig =
      lowp_fixed_config(wmma_shape_of(FM, FN, FK), kInBytes, kTileM, kTileN);
  // The tiles as ldmatrix reads them: never stretched (rules.hpp, LowpOperandTile; LowpShape's stretch factors
  // are the run-time kernel's), so this kernel needs kSmemBytes, at most what the configuration was validated for.
  static constexpr LowpTiles kTiles = lowp_tiles(kConfig, kInBytes, kAKContig, !kBKContig, true);
  static_assert(kTiles.a.stretch == 1 && kTiles.b.stretch == 1, "wmma_lowp: ldmatrix reads unstretched tiles");
  static constexpr int kTileK = kConfig.tile_k, kStages = kConfig.stages, kSteps = kTileK / FK;
  static constexpr int kLdA = kTiles.a.ld, kLdB = kTiles.b.ld;
  static constexpr int kABytes = int(kTiles.a_bytes), kStageBytes = int(kTiles.a_bytes + kTiles.b_bytes);
  // What the configuration is validated for (the run-time kernel's stretched layout), and what this kernel uses.
  static constexpr int64_t kValidatedSmemBytes =
      lowp_smem_bytes(kConfig, kInBytes, int(sizeof(Acc)), kAKContig, !kBKContig);
  static constexpr int64_t kSmemBytes =
      lowp_smem_bytes(kConfig, kInBytes, int(sizeof(Acc)), kAKContig, !kBKContig, true);
  static_assert(kSmemBytes <= kValidatedSmemBytes,
                "wmma_lowp: the pipelined kernel needs at most the shared memory its configuration was validated for");
  // Whether a call can ask for the instance: some 8-wide operand forms of 256-wide tiles, validated stretched, do
  // not fit a block's shared memory. Only those that do are built.
  static constexpr bool kFits = kValidatedSmemBytes <= kLowpMaxSmemOptin;
  static constexpr int kGroupM = 8;
  static_assert(kSteps >= 2 && kSteps % 2 == 0,
                "wmma_lowp: the fragment double buffer alternates by k step, and the next k-tile's first step must "
                "land in buffer 0: an even number of k steps per k-tile");
  static_assert(kStages >= 2, "wmma_lowp: the pipelined kernel needs a ring of at least two stages");
  // TF32 runs on the packed copies only (launch.hpp, lowp_tf32_packs): k-contiguous and already rounded, so
  // that every fragment comes from ldmatrix and none is rounded here.
  static_assert(kInBytes == 2 || (kAKContig && kBKContig),
                "wmma_lowp: the pipelined kernel takes TF32 operands as the packed copies ('T','N') only");
  // Every fragment is filled by ldmatrix (fragment_ldmatrix.cuh); none goes through load_matrix_sync, and no
  // TF32 fragment is rounded here.
  using FillA = LdmatrixFill<In, FM, FN, FK, true, kAKContig, kLdA>;
  using FillB = LdmatrixFill<In, FM, FN, FK, false, kBKContig, kLdB>;
  static_assert(FillA::kFills && FillB::kFills, "wmma_lowp: the pipelined kernel fills every fragment by ldmatrix");
};

// One thread's share of the copies of one operand's k-tiles in a pipelined instance. The tile is kLines lines
// of kLen elements (k-contiguous: kTileO lines of tile_k; o-contiguous: tile_k lines of kTileO), kPieces
// 16-byte pieces a line; thread tid copies piece tid % kPieces of lines tid / kPieces + j * kStep (j <
// kCopies): consecutive threads read consecutive pieces of a line, the shared offsets are one base plus a
// constant per j, and the source is one pointer that moves by a constant per k-tile. The state is kept to
// three values because the kernel runs at the register limit; the edge tests (a C tile or k-tile that is not
// whole) work out the rest from the thread index.
template <class In, bool kKContig, int kTileO, int kTileK, int kLd, int kThreads>
struct PipelinedCopier {
  static constexpr int kE = 16 / int(sizeof(In));
  static constexpr int64_t kEb = sizeof(In);
  static constexpr int kLen = kKContig ? kTileK : kTileO, kLines = kKContig ? kTileO : kTileK;
  static constexpr int kPieces = kLen / kE;
  static constexpr int kStep = kThreads / kPieces;
  static constexpr int kCopies = kLines / kStep;
  static_assert(kLen % kE == 0 && kThreads % kPieces == 0 && kLines % kStep == 0,
                "wmma_lowp: every thread copies the same pieces of every line it copies");

  const char* src;  // this thread's first piece of the next k-tile to copy
  uint32_t dst;     // its byte offset within an operand tile
  int o_left;       // rows (A) or columns (B) of the operand from the C tile's first, at most kTileO

  __device__ __forceinline__ PipelinedCopier(const void* x, int64_t ld, int64_t o0, int64_t o_lim, int tid) {
    const int line0 = tid / kPieces, c = (tid % kPieces) * kE;
    src = static_cast<const char*>(x) + (kKContig ? (o0 + line0) * ld + c : o0 + c + int64_t(line0) * ld) * kEb;
    dst = uint32_t(tile_offset<kKContig, 1>(kKContig ? line0 : c, kKContig ? c : line0, kLd) * int(kEb));
    o_left = o_lim - o0 < kTileO ? int(o_lim - o0) : kTileO;
  }

  // Whether the next k-tile to copy lies inside the operand along m (n) as well as k (k_left: k from its start
  // to the operand's end): then copy<true> issues its copies without a test.
  __device__ __forceinline__ bool whole(int64_t k_left) const { return k_left >= kTileK && o_left == kTileO; }

  // Issues part kPart of kParts of the next k-tile's copies into the operand tile at shared address `tile`.
  // kWhole: the k-tile is whole (whole()); otherwise pieces or parts of pieces outside the operand are
  // zero-filled with `base` as their source (cp.async reads src_bytes only). The choice is a template
  // argument so that the k steps it is spread over stay straight-line code: a test inside them split each step
  // into branches across which the compiler did not move loads and MMAs (up to 25% at n = 8192).
  template <bool kWhole, int kPart, int kParts>
  __device__ __forceinline__ void copy(uint32_t tile, int64_t k_left, const void* base, int64_t ld) {
    constexpr int kBegin = kPart * kCopies / kParts, kEnd = (kPart + 1) * kCopies / kParts;
    const int64_t line_bytes = int64_t(kStep) * ld * kEb;
    const char* s = src + kBegin * line_bytes;
    if constexpr (kWhole) {
#pragma unroll
      for (int j = kBegin; j < kEnd; ++j, s += line_bytes)
        arch::cp_async<16, arch::Clobber::kNone, arch::Cache::kL1>(tile + dst + uint32_t(j * kStep * kLd * kEb), s);
    } else {
      const int tid = static_cast<int>(threadIdx.x);
      const int line0 = tid / kPieces, c = (tid % kPieces) * kE;
      // Along the line the piece covers elements c .. c + kE - 1; the line itself is an m (n) or a k.
      const int piece = piece_bytes<In>((kKContig ? k_left : int64_t(o_left)) - c);
      const int64_t line_lim = kKContig ? int64_t(o_left) : k_left;
#pragma unroll
      for (int j = kBegin; j < kEnd; ++j, s += line_bytes) {
        const int bytes = line0 + j * kStep < line_lim ? piece : 0;
        arch::cp_async_zfill<16, arch::Clobber::kNone>(tile + dst + uint32_t(j * kStep * kLd * kEb),
                                                       bytes ? s : base, bytes);
      }
    }
    if (kPart == kParts - 1) src += kKContig ? kTileK * kEb : kTileK * ld * kEb;
  }
};

template <class In, class Acc, int FM, int FN, int FK, int kTileM, int kTileN, bool kAKContig, bool kBKContig>
__global__ void __launch_bounds__(PipelinedShape<In, Acc, FM, FN, FK, kTileM, kTileN, kAKContig, kBKContig>::kThreads,
                                  PipelinedShape<In, Acc, FM, FN, FK, kTileM, kTileN, kAKContig, kBKContig>::kMinBlocks)
    wmma_lowp_pipelined_kernel(const LowpArgs p) {
  namespace wmma = nvcuda::wmma;
  using Shape = PipelinedShape<In, Acc, FM, FN, FK, kTileM, kTileN, kAKContig, kBKContig>;
  using FragA = typename Shape::FragA;
  using FragB = typename Shape::FragB;
  constexpr int W = Shape::kWarpTile, kSteps = Shape::kSteps, kStages = Shape::kStages, kTileK = Shape::kTileK;
  constexpr int kFragsM = Shape::kFragsM, kFragsN = Shape::kFragsN;
  constexpr int kStageBytes = Shape::kStageBytes, kABytes = Shape::kABytes;
  using CopyA = PipelinedCopier<In, kAKContig, kTileM, kTileK, Shape::kLdA, Shape::kThreads>;
  using CopyB = PipelinedCopier<In, kBKContig, kTileN, kTileK, Shape::kLdB, Shape::kThreads>;
  // The k steps over which a k-tile's copies are spread: all but the last, whose barrier counts them.
  constexpr int kCopySteps = kSteps - 1;

  extern __shared__ __align__(128) unsigned char lowp_pipelined_smem[];
  const uint32_t smem0 = arch::smem_address(lowp_pipelined_smem);
  const int tid = static_cast<int>(threadIdx.x), warp = tid / kWarpThreads, lane = tid % kWarpThreads;
  const int warp_m0 = (warp % Shape::kWarpsM) * W, warp_n0 = (warp / Shape::kWarpsM) * W;
  Acc* scratch = reinterpret_cast<Acc*>(lowp_pipelined_smem + kStages * kStageBytes) + warp * FM * FN;
  // alpha == 0: A and B are not read (BLAS), so no k-tile is copied and the accumulators stay 0.
  const int64_t k_tiles = p.alpha == 0.0f ? 0 : ceil_div_bounded(p.k, kTileK);

  // This warp's fragments (compile-time offsets but for the stage), each lane's ldmatrix line worked out once
  // (fragment_ldmatrix.cuh). A's are double-buffered by k step; B's are not: each B fragment is reloaded with
  // the next step's as soon as the MMAs of its column are issued, and the step's remaining columns (for the
  // last column, the next step's first ones) cover the load. That frees kFragsN fragments' registers in a
  // kernel that runs at the 255-register limit (64 x 64 warp tiles), and with the L1-cached copies above it
  // took F16 (FP32 accumulation) 'N','N' at n = 8192 from 0.67 to 0.70-0.71 of the WMMA ceiling on the H200
  // (bench/results/2026-12-02-h200-wmma-schedule/).
  FragA fa[2][kFragsM];
  FragB fb[kFragsN];
  constexpr int E = Shape::kInBytes;
  using FillA = typename Shape::FillA;
  using FillB = typename Shape::FillB;
  const uint32_t a_lane = smem0 + FillA::lane_offset(lane) +
                          uint32_t(tile_offset<kAKContig, 1>(warp_m0, 0, Shape::kLdA) * E);
  const uint32_t b_lane = smem0 + uint32_t(kABytes) + FillB::lane_offset(lane) +
                          uint32_t(tile_offset<kBKContig, 1>(warp_n0, 0, Shape::kLdB) * E);
  // A's fragments of k step s from stage `stage` into buffer `buf`; B's fragment j of step s.
  const auto load_a_step = [&](int buf, int stage, int s) {
#pragma unroll
    for (int i = 0; i < kFragsM; ++i)
      FillA::fill(fa[buf][i], a_lane + uint32_t(stage * kStageBytes) +
                                  uint32_t(tile_offset<kAKContig, 1>(i * FM, s * FK, Shape::kLdA) * E));
  };
  const auto load_b = [&](int stage, int s, int j) {
    FillB::fill(fb[j], b_lane + uint32_t(stage * kStageBytes) +
                           uint32_t(tile_offset<kBKContig, 1>(j * FN, s * FK, Shape::kLdB) * E));
  };

  for (int64_t t = blockIdx.x; t < p.total_tiles; t += gridDim.x) {
    int64_t mt, nt;
    tile_coords<Shape::kGroupM>(t, p.m_tiles, p.total_tiles / p.m_tiles, mt, nt);
    const int64_t row0 = mt * kTileM, col0 = nt * kTileN;
    CopyA copy_a(p.A, p.lda, row0, p.m, tid);
    CopyB copy_b(p.B, p.ldb, col0, p.n, tid);
    // Copies part kPart of kParts of k-tile kc into ring slot `stage` (no commit here); kWhole: the k-tile is
    // whole in both operands.
    const auto copy_stage = [&](auto whole, int stage, int64_t kc, auto part, auto parts) {
      constexpr bool kWhole = decltype(whole)::value;
      constexpr int kPart = decltype(part)::value, kParts = decltype(parts)::value;
      const uint32_t a_s = smem0 + uint32_t(stage * kStageBytes);
      const int64_t k_left = p.k - kc * kTileK;
      copy_a.template copy<kWhole, kPart, kParts>(a_s, k_left, p.A, p.lda);
      copy_b.template copy<kWhole, kPart, kParts>(a_s + uint32_t(kABytes), k_left, p.B, p.ldb);
    };
    using Whole = std::integral_constant<int, 1>;
    using First = std::integral_constant<int, 0>;

    wmma::fragment<wmma::accumulator, FM, FN, FK, Acc> acc[kFragsM][kFragsN];
#pragma unroll
    for (int i = 0; i < kFragsM; ++i)
#pragma unroll
      for (int j = 0; j < kFragsN; ++j) wmma::fill_fragment(acc[i][j], Acc(0.0f));

    __syncthreads();  // every warp is done with the previous C tile's stages
#pragma unroll
    for (int s = 0; s < kStages - 1; ++s) {
      if (s < k_tiles) copy_stage(std::false_type{}, s, s, First{}, Whole{});
      arch::cp_async_commit<arch::Clobber::kMemory>();  // one group per stage, empty or not: the waits count them
    }
    arch::cp_async_wait<kStages - 2>();
    __syncthreads();

    int read_stage = 0, write_stage = kStages - 1;
    if (k_tiles > 0) {
      load_a_step(0, 0, 0);
#pragma unroll
      for (int j = 0; j < kFragsN; ++j) load_b(0, 0, j);
    }
    // One k-tile's steps. kWhole: the k-tile copied during them (kt + kStages - 1) exists and is whole in
    // both operands, so its copies need no test; otherwise the copies test the edges, and there are none past
    // the last k-tile.
    const auto k_tile_steps = [&](int64_t kt, auto whole) {
      constexpr bool kWhole = decltype(whole)::value;
      for_each_step(std::make_integer_sequence<int, kSteps>{}, [&](auto s_c) {
        constexpr int s = decltype(s_c)::value;
        if (s == kSteps - 1) {
          // Step s's fragments are in registers: wait for the next k-tile and move to its slot.
          arch::cp_async_wait<kStages - 2>();
          __syncthreads();
          read_stage = read_stage + 1 == kStages ? 0 : read_stage + 1;
        }
        // The next step's A fragments (after the last step, the next k-tile's first; unused past the end).
        load_a_step((s + 1) & 1, read_stage, (s + 1) % kSteps);
        if constexpr (s < kCopySteps) {
          // Refill the slot the previous k-tile used (free since the barrier before its last step), a part per
          // step; one group per k-tile, committed before the wait of its last step counts it.
          const int64_t kc = kt + kStages - 1;
          if (kWhole || kc < k_tiles)
            copy_stage(whole, write_stage, kc, std::integral_constant<int, s>{},
                       std::integral_constant<int, kCopySteps>{});
          if (s == kCopySteps - 1) {
            arch::cp_async_commit<arch::Clobber::kMemory>();
            write_stage = write_stage + 1 == kStages ? 0 : write_stage + 1;
          }
        }
        // Column by column, each B fragment reloaded with the next step's once its MMAs are issued.
#pragma unroll
        for (int j = 0; j < kFragsN; ++j) {
#pragma unroll
          for (int i = 0; i < kFragsM; ++i) wmma::mma_sync(acc[i][j], fa[s & 1][i], fb[j], acc[i][j]);
          load_b(read_stage, (s + 1) % kSteps, j);
        }
      });
    };
    for (int64_t kt = 0; kt < k_tiles; ++kt) {
      const int64_t k_left = p.k - (kt + kStages - 1) * kTileK;  // of the k-tile these steps copy
      if (copy_a.whole(k_left) && copy_b.whole(k_left))
        k_tile_steps(kt, std::true_type{});
      else
        k_tile_steps(kt, std::false_type{});
    }

    store_c_fragments(p, acc, scratch, row0 + warp_m0, col0 + warp_n0, lane);
  }
}

}  // namespace tcgemm::detail::wmma_lowp
