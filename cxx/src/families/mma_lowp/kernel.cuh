// Family mma_lowp's kernel template (launch.hpp says when it runs; kernel.cu instantiates the library's
// tiling; the internal probe bench/mma_lowp_probe.cu times other tilings). C = alpha * op(A) op(B) + beta * C
// on mma.sync.aligned: m16n8k16 for F16 and BF16 inputs with FP32 accumulation, or F16 with FP16 accumulation
// (MmaOp<F16Acc16>), m16n8k8 for TF32 (FP32 inputs rounded to TF32) (PTX ISA, "Warp-level matrix
// multiply-accumulate instructions").
//
// A block of kWarpsM x kWarpsN warps computes a kTileM x kTileN tile of C; each warp a kWarpM x kWarpN block
// as 16 x 8 fragments (four FP32 accumulators per thread each). k goes by tiles of kTileK through a ring of
// kStages shared-memory buffers filled by cp.async (16 bytes per copy, issued kStages - 1 tiles ahead).
//
// Why it is written the way it is (ncu on the first version: tensor pipe 49% busy, latency-bound at 8 warps
// per SM, stalls on dependencies):
//  - Fragments are double-buffered in registers: the ldmatrix of k step s + 1 is issued before the MMAs of
//    step s, so the MMAs never wait on the shared-memory load they use. ldmatrix and mma are volatile asm,
//    which the compiler keeps in source order, so this order has to be written out.
//  - The barrier of a k-tile sits before the last k step of the previous one (as CUTLASS's multistage MMA
//    does): the last step's fragments are already in registers, so the first fragments of the next tile
//    are loaded while the last MMAs of this one run, and the ring slot just finished is free to refill.
//  - The global side of each copy is a pointer that moves by a constant per k-tile; which pieces lie
//    inside the matrix along m or n is worked out once per C tile, and only the last k-tile tests k.
//
// Shared-memory layouts. Each operand tile is stored as its global layout gives it, so every cp.async
// copies 16 contiguous bytes:
//  - "K-major" (a transposed A, an untransposed B: k contiguous): kTileM (or kTileN) lines of kTileK elements;
//  - "MN-major" (an untransposed A, a transposed B: m or n contiguous): kTileK lines (k) of kTileM elements;
// each line made of 16-byte pieces whose places are XOR-swizzled (tile_offset) so that the 8 lines one
// ldmatrix reads at one piece fall in 8 different 16-byte bank groups.
// The .trans form of ldmatrix turns MN-major 8 x 8 blocks of 16-bit elements into the fragments the K-major
// ones give, so the MMA loop is one code for all four operand forms. It has no 32-bit form, so TF32 takes
// K-major operands only (the caller transposes the others first).
//
// Fragments, in bytes so that one code serves both instruction shapes (g = lane / 4, t = lane % 4): a k
// step is 32 bytes of k (16 16-bit elements or 8 TF32). A's four registers hold rows g, g + 8 at the first
// and the second 16 bytes of the step: (g, b0), (g + 8, b0), (g, b1), (g + 8, b1), each 4 bytes at byte 4t
// of the 16; B's two hold column g at the first and the second 16 bytes; C's four hold (g, 2t), (g, 2t + 1),
// (g + 8, 2t), (g + 8, 2t + 1). An 8 x 8 ldmatrix block (8 lines of 16 bytes) gives exactly one such
// register per lane.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "arch/ldmatrix_sm80.cuh"
#include "arch/shared_memory_limits.hpp"
#include "core/checked_math.hpp"
#include "families/common/static_steps.cuh"
#include "families/common/tile_raster.cuh"
#include "families/lowp_c_element.cuh"
#include "families/wmma_lowp/launch.hpp"

namespace tcgemm::detail::mma_lowp {

// The instruction of each input type; every one takes 4 A, 2 B and 4 FP32 C registers per thread and a
// 32-byte k step.
template <class In>
struct MmaOp;
template <>
struct MmaOp<__half> {
  static constexpr int kElemBytes = 2, kStepK = 16;
  // Element e of a fragment's accumulators: (g + 8 (e / 2), 2t + e % 2) (the layout above).
  static __device__ __forceinline__ float element(const float (&c)[4], int e) { return c[e]; }
  static __device__ __forceinline__ void round(uint32_t&) {}
  static __device__ __forceinline__ void mma(float (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  }
};
template <>
struct MmaOp<__nv_bfloat16> {
  static constexpr int kElemBytes = 2, kStepK = 16;
  // Element e of a fragment's accumulators: (g + 8 (e / 2), 2t + e % 2) (the layout above).
  static __device__ __forceinline__ float element(const float (&c)[4], int e) { return c[e]; }
  static __device__ __forceinline__ void round(uint32_t&) {}
  static __device__ __forceinline__ void mma(float (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  }
};
template <>
struct MmaOp<float> {  // TF32
  static constexpr int kElemBytes = 4, kStepK = 8;
  // Element e of a fragment's accumulators: (g + 8 (e / 2), 2t + e % 2) (the layout above).
  static __device__ __forceinline__ float element(const float (&c)[4], int e) { return c[e]; }
  // The instruction reads the top 19 bits of each register; round to nearest (away from zero on ties, as
  // cuBLAS's conversion does) rather than let the low bits be dropped.
  static __device__ __forceinline__ void round(uint32_t& r) {
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(__uint_as_float(r)));
  }
  static __device__ __forceinline__ void mma(float (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  }
};

// F16 inputs with FP16 accumulation (tcgemm_gemm_ex's compute F16): m16n8k16 with f16 C and D, two
// registers of two halves per fragment, c[0] = (g, 2t), (g, 2t + 1) and c[1] = (g + 8, 2t), (g + 8, 2t + 1).
// The kernel keeps four float slots per fragment for every instruction; this one keeps its half pairs as
// raw bits in the first two (the compiler drops the unused two), so one kernel serves both accumulators.
struct F16Acc16 {};
template <>
struct MmaOp<F16Acc16> : MmaOp<__half> {
  static __device__ __forceinline__ void mma(float (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
    uint32_t d0 = __float_as_uint(c[0]), d1 = __float_as_uint(c[1]);
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%0, %1};\n"
        : "+r"(d0), "+r"(d1)
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
    c[0] = __uint_as_float(d0);
    c[1] = __uint_as_float(d1);
  }
  static __device__ __forceinline__ float element(const float (&c)[4], int e) {
    const uint32_t pair = __float_as_uint(c[e >> 1]);
    return __half2float(__ushort_as_half(static_cast<unsigned short>((e & 1) ? pair >> 16 : pair & 0xFFFFu)));
  }
};

// TF32 inputs already rounded to TF32 (by the conversion pass that makes them k-contiguous): no rounding at
// fragment load.
struct Tf32Rounded {};
template <>
struct MmaOp<Tf32Rounded> : MmaOp<float> {
  static __device__ __forceinline__ void round(uint32_t&) {}
};

// A block's tiling: a TM x TN tile of C, k by TK elements of In through STAGES buffers, WARPS_M x WARPS_N
// warps, MIN_BLOCKS blocks per SM asked of the register allocator (__launch_bounds__); C tiles taken in
// groups of GROUP_M tiles down m (0: all of m) (tile_coords).
template <class In, int TM, int TN, int TK, int WARPS_M, int WARPS_N, int STAGES, int MIN_BLOCKS = 1,
          int GROUP_M = 0, bool SPREAD = false>
struct Tiling {
  static constexpr int kMinBlocks = MIN_BLOCKS, kGroupM = GROUP_M;
  static constexpr bool kSpreadCopies = SPREAD;
  static constexpr int kElemBytes = MmaOp<In>::kElemBytes;
  static constexpr int kTileM = TM, kTileN = TN, kTileK = TK, kStages = STAGES;
  static constexpr int kWarpsM = WARPS_M, kWarpsN = WARPS_N, kThreads = WARPS_M * WARPS_N * 32;
  static constexpr int kWarpM = TM / WARPS_M, kWarpN = TN / WARPS_N;
  static constexpr int kFragsM = kWarpM / 16, kFragsN = kWarpN / 8;
  static constexpr int kKBytes = TK * kElemBytes;  // one k-tile's bytes of k
  static constexpr int kKSteps = kKBytes / 32;     // 32 bytes of k per MMA
  static constexpr int kATileBytes = TM * kKBytes, kBTileBytes = TN * kKBytes;
  static constexpr int kStageBytes = kATileBytes + kBTileBytes;
  static constexpr int kSmemBytes = STAGES * kStageBytes;
  static_assert(kKBytes == 64 || kKBytes == 128, "mma_lowp: k-major lines of 64 or 128 bytes (tile_offset)");
  static_assert(kKSteps >= 2, "mma_lowp: the fragment double buffer needs two k steps per tile");
  static_assert(TM * kElemBytes >= 128 && TN * kElemBytes >= 128,
                "mma_lowp: m- or n-major lines of at least 128 bytes (tile_offset)");
  static_assert(kWarpM % 16 == 0 && kWarpN % 16 == 0, "mma_lowp: whole 16 x 16 blocks per warp (ldmatrix.x4)");
  static_assert((kATileBytes / 16) % kThreads == 0 && (kBTileBytes / 16) % kThreads == 0,
                "mma_lowp: every thread copies the same number of 16-byte pieces");
  static_assert(STAGES >= 2, "mma_lowp: the pipeline needs at least two stages");
  static_assert(kSmemBytes <= arch::kSm90MaxSmemOptinBytes, "mma_lowp: within an sm_90 block's shared memory");
};

// Byte offset of 16-byte piece `piece` of line `line` in an operand tile whose lines are kLineBytes long.
// 64-byte lines: the 8 lines one ldmatrix reads at one piece span four 128-byte rows of banks, two lines
// each: piece ^ ((line >> 1) & 3) gives the 8 reads 8 different 16-byte bank groups. Lines of 128 bytes or
// more: the 8 lines share their banks; piece ^ (line & 7) separates them.
template <int kLineBytes>
__device__ __forceinline__ uint32_t tile_offset(int line, int piece) {
  if constexpr (kLineBytes == 64) return uint32_t(line * 64 + ((piece ^ ((line >> 1) & 3)) << 4));
  else return uint32_t(line * kLineBytes + ((piece ^ (line & 7)) << 4));
}

__device__ __forceinline__ void cp_async16(uint32_t smem, const void* global, bool valid) {
  // src-size 0 copies nothing and fills the 16 bytes with zeros: pieces past the matrix add nothing.
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem), "l"(global), "r"(valid ? 16 : 0));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int kPending>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending));
}

using arch::ldmatrix_x4;  // arch/ldmatrix_sm80.cuh

// Where each lane's ldmatrix.x4 reads, as the FragAddress types take it: line `line` (0..15) of a 16-wide
// block, at 16-byte half `half` of a k step. A: lanes 0-15 address lines m..m+15 at the step's first 16 bytes,
// lanes 16-31 the same lines at its second (K-major); matrix q = lane / 8 is (k + (q / 2) * 8, m + (q % 2) * 8)
// transposed on load (MN-major). B, two 8-column blocks per ldmatrix (registers 0, 1 for columns n..n+7, 2, 3
// for n+8..n+15): matrix q is (n + (q / 2) * 8, the step's (q % 2)-th 16 bytes) (K-major) or
// (k + (q % 2) * 8, n + (q / 2) * 8) transposed (MN-major).
struct LaneSpot {
  int line, half;
};
template <bool kKMajor>
__device__ __forceinline__ LaneSpot a_lane_spot(int lane) {
  const int q = lane >> 3;
  return kKMajor ? LaneSpot{lane & 15, lane >> 4} : LaneSpot{(q >> 1) * 8 + (lane & 7), q & 1};
}
template <bool kKMajor>
__device__ __forceinline__ LaneSpot b_lane_spot(int lane) {
  const int q = lane >> 3;
  return kKMajor ? LaneSpot{(q >> 1) * 8 + (lane & 7), q & 1} : LaneSpot{(q & 1) * 8 + (lane & 7), q >> 1};
}

// The shared-memory byte offsets one lane's ldmatrix.x4 reads for the 16-wide block b (of m or n) of a
// warp's share of an operand tile at k step s, kept so that the loop adds constants only (otherwise every
// ldmatrix waits on a chain of swizzle arithmetic, with 2 warps per scheduler to hide it). The lane reads
// (LaneSpot: line_lane = spot.line, h = spot.half)
// line `line_lane` of the block (0..15) at 16-byte piece h (0 or 1) of the step (K-major), or line
// `line_lane` of the step's 16 k and the block's piece h (MN-major), as tile_offset swizzles it:
//  - K-major: line w + 16 b + line_lane, piece 2 s + h. Its swizzle depends on line_lane only (w and 16 b
//    are multiples of 16), and 2 s + h = 2 s ^ h, so the piece lands at (2 s) ^ c with c = h ^ swizzle:
//    offset = base + 16 b line + ((c << 4) ^ 32 s).
//  - MN-major (16-bit elements, 8 per piece): line 16 s + line_lane (swizzle line_lane & 7), piece
//    w / 8 + 2 b + h: offset = per_block[b] + 16 s line.
template <bool kKMajor, int kLineBytes, int kBlocks>
struct FragAddress {
  uint32_t base = 0, c16 = 0;
  uint32_t per_block[kKMajor ? 1 : kBlocks] = {};

  __device__ __forceinline__ FragAddress(int w, LaneSpot spot) {
    const int line_lane = spot.line, h = spot.half;
    if constexpr (kKMajor) {
      const int swz = kLineBytes == 64 ? (line_lane >> 1) & 3 : line_lane & 7;
      base = uint32_t((w + line_lane) * kLineBytes);
      c16 = uint32_t((h ^ swz) << 4);
    } else {
#pragma unroll
      for (int b = 0; b < kBlocks; ++b) per_block[b] = tile_offset<kLineBytes>(line_lane, w / 8 + 2 * b + h);
    }
  }
  __device__ __forceinline__ uint32_t at(uint32_t tile, int b, int s) const {
    if constexpr (kKMajor) return tile + base + uint32_t(16 * b * kLineBytes) + (c16 ^ uint32_t(32 * s));
    else return tile + per_block[b] + uint32_t(16 * s * kLineBytes);
  }
};

// One thread's share of the copies of one operand tile (kMN rows of op(A) or columns of op(B) x kKBytes of
// k), for one C tile. K-major: line = m (or n), the piece's k = piece * elements per piece, element at
// x[mn * ld + k]; MN-major: line = k, the piece's m = piece * elements per piece, element at x[k * ld + mn].
// Thread tid copies piece tid % kPiecesPerLine of lines tid / kPiecesPerLine + j * kLineStep: the piece is
// the same for all j and, kLineStep being a multiple of 8, so is the swizzle, so the shared offsets are a
// base plus a constant per j and the global ones a pointer plus a constant per j. The strides are worked
// out from ld at each use rather than kept: the kernel runs at the register limit.
template <bool kKMajor, int kMN, int kKBytes, int kElemBytes, int kThreads>
struct TileCopier {
  static constexpr int kLineBytes = kKMajor ? kKBytes : kMN * kElemBytes;
  static constexpr int kPiecesPerLine = kLineBytes / 16;
  static constexpr int kElemsPerPiece = 16 / kElemBytes;
  static constexpr int kCopies = kMN * kKBytes / 16 / kThreads;
  static constexpr int kLineStep = kThreads / kPiecesPerLine;
  static_assert(kThreads % kPiecesPerLine == 0, "mma_lowp: a thread's pieces share their place in the line");
  static_assert(kCopies == 1 || kLineStep % 8 == 0, "mma_lowp: a thread's pieces share their swizzle");
  static_assert(kCopies <= 32, "mma_lowp: one bit per copy in the validity mask");

  const char* src;        // piece 0's bytes for the next k-tile
  uint32_t smem_offset;   // of piece 0 within the operand tile
  uint32_t mn_mask;       // bit j: piece j lies inside the operand along m or n
  int k_first;            // k of piece 0 within a k-tile (K-major: the piece's k; MN-major: its line)

  __device__ __forceinline__ TileCopier(const void* x, int64_t ld, int64_t mn0, int64_t mn_lim, int tid) {
    const int line = tid / kPiecesPerLine, piece = tid % kPiecesPerLine;
    smem_offset = tile_offset<kLineBytes>(line, piece);
    const char* base = static_cast<const char*>(x);
    mn_mask = 0;
    if constexpr (kKMajor) {
      k_first = piece * kElemsPerPiece;
      src = base + ((mn0 + line) * ld + k_first) * kElemBytes;
#pragma unroll
      for (int j = 0; j < kCopies; ++j)
        if (mn0 + line + j * kLineStep < mn_lim) mn_mask |= 1u << j;
    } else {
      k_first = line;
      const int64_t mn = mn0 + piece * kElemsPerPiece;
      src = base + (int64_t(line) * ld + mn) * kElemBytes;
      if (mn < mn_lim) mn_mask = (kCopies == 32) ? ~0u : ((1u << kCopies) - 1u);
    }
  }

  // Issues the copies of the next k-tile into the operand tile at `tile`; k_rem is how much of k remains
  // from this k-tile's start, at most the tile's depth (pieces at or past it are zero-filled). A piece
  // outside the operand is a copy of 0 bytes (zero fill) from its own address, which cp.async does not read
  // (PTX ISA: src-size), so no address is chosen per piece.
  template <int kPart, int kParts>
  __device__ __forceinline__ void copy(uint32_t tile, int k_rem, int64_t ld) {
    // Part kPart of kParts of the copies (the loop spreads a k-tile's copies over its k steps).
    constexpr int kBegin = kPart * kCopies / kParts, kEnd = (kPart + 1) * kCopies / kParts;
    const int64_t line_stride = int64_t(kLineStep) * ld * kElemBytes;
    const char* s = src + kBegin * line_stride;
#pragma unroll
    for (int j = kBegin; j < kEnd; ++j) {
      const int k_at = kKMajor ? k_first : k_first + j * kLineStep;
      const bool valid = ((mn_mask >> j) & 1u) && k_at < k_rem;
      cp_async16(tile + smem_offset + uint32_t(j * kLineStep * kLineBytes), s, valid);
      s += line_stride;
    }
    if (kPart == kParts - 1) src += kKMajor ? int64_t(kKBytes) : int64_t(kKBytes / kElemBytes) * ld * kElemBytes;
  }
};

// The pieces of one k step that the cp.async kernel below and the TMA one (kernel_tma.cuh) share. a_addr and
// b_addr give each lane's ldmatrix address of a 16-wide block at a step (FragAddress, or FragAddressTmaMn for
// the TMA layout of an m- or n-contiguous operand).
template <class Op, int kFragsM, int kFragsN>
__device__ __forceinline__ void zero_accumulators(float (&acc)[kFragsM][kFragsN][4]) {
#pragma unroll
  for (int i = 0; i < kFragsM; ++i)
#pragma unroll
    for (int j = 0; j < kFragsN; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.0f;
}

// Fragments of k step s of the k-tile whose A and B tiles start at a_s and b_s; MN-major operands go through
// the .trans form.
template <class Op, bool kAKMajor, bool kBKMajor, int kFragsM, int kHalfFragsN, class AAddr, class BAddr>
__device__ __forceinline__ void load_step_fragments(uint32_t (&af)[kFragsM][4], uint32_t (&bf)[kHalfFragsN][4],
                                                    const AAddr& a_addr, const BAddr& b_addr, uint32_t a_s,
                                                    uint32_t b_s, int s) {
#pragma unroll
  for (int i = 0; i < kFragsM; ++i) {
    ldmatrix_x4<!kAKMajor>(af[i], a_addr.at(a_s, i, s));
#pragma unroll
    for (int e = 0; e < 4; ++e) Op::round(af[i][e]);
  }
#pragma unroll
  for (int jj = 0; jj < kHalfFragsN; ++jj) {
    ldmatrix_x4<!kBKMajor>(bf[jj], b_addr.at(b_s, jj, s));
#pragma unroll
    for (int e = 0; e < 4; ++e) Op::round(bf[jj][e]);
  }
}

// The MMAs of one k step: every 16 x 8 accumulator fragment of the warp, B's registers two 8-column blocks at a time.
template <class Op, int kFragsM, int kFragsN>
__device__ __forceinline__ void mma_step(float (&acc)[kFragsM][kFragsN][4], const uint32_t (&af)[kFragsM][4],
                                         const uint32_t (&bf)[kFragsN / 2][4]) {
#pragma unroll
  for (int jj = 0; jj < kFragsN / 2; ++jj)
#pragma unroll
    for (int i = 0; i < kFragsM; ++i) {
      Op::mma(acc[i][2 * jj], af[i], bf[jj][0], bf[jj][1]);
      Op::mma(acc[i][2 * jj + 1], af[i], bf[jj][2], bf[jj][3]);
    }
}

// The epilogue, straight from a warp's accumulators: C = alpha * acc + beta * C inside m x n, C read only
// when beta != 0 (BLAS), converted to C's type. FP32 C, the common case, has its own loop without the
// per-element type switch (it was a tenth of the kernel's instructions at n = 8192). Shared by the cp.async
// kernel below and the TMA one (kernel_tma.cuh).
template <class Op, int kFragsM, int kFragsN>
__device__ __forceinline__ void store_c_tile(const LowpArgs& p, const float (&acc)[kFragsM][kFragsN][4], int64_t m0,
                                             int64_t n0, int warp_m0, int warp_n0, int lane) {
  const int g = lane >> 2, t2 = (lane & 3) * 2;
  const int64_t r0 = m0 + warp_m0 + g, c0 = n0 + warp_n0 + t2;
  if (p.c_type == TCGEMM_TYPE_F32) {
    float* C = static_cast<float*>(p.C);
    const bool read_c = p.beta != 0.0f;
#pragma unroll
    for (int j = 0; j < kFragsN; ++j)
#pragma unroll
      for (int e1 = 0; e1 < 2; ++e1) {
        const int64_t c = c0 + j * 8 + e1;
        if (c >= p.n) continue;
        float* col = C + c * p.ldc;
#pragma unroll
        for (int i = 0; i < kFragsM; ++i)
#pragma unroll
          for (int e0 = 0; e0 < 2; ++e0) {
            const int64_t r = r0 + i * 16 + e0 * 8;
            if (r < p.m) {
              float v = p.alpha * Op::element(acc[i][j], e0 * 2 + e1);
              if (read_c) v = fmaf(p.beta, col[r], v);
              col[r] = v;
            }
          }
      }
  } else {
#pragma unroll
    for (int i = 0; i < kFragsM; ++i)
#pragma unroll
      for (int j = 0; j < kFragsN; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const int64_t r = r0 + i * 16 + (e >> 1) * 8;
          const int64_t c = c0 + j * 8 + (e & 1);
          if (r < p.m && c < p.n) {
            const int64_t at = r + c * p.ldc;
            float v = p.alpha * Op::element(acc[i][j], e);
            if (p.beta != 0.0f) v = fmaf(p.beta, load_c_element(p.C, p.c_type, at), v);
            store_c_element(p.C, p.c_type, at, v);
          }
        }
  }
}

// kAKMajor: op(A) = A^T (k contiguous); kBKMajor: op(B) = B (k contiguous).
template <class In, bool kAKMajor, bool kBKMajor, class T>
__global__ void __launch_bounds__(T::kThreads, T::kMinBlocks) mma_lowp_kernel(const LowpArgs p) {
  using Op = MmaOp<In>;
  static_assert(Op::kElemBytes == 2 || (kAKMajor && kBKMajor), "mma_lowp: TF32 takes k-contiguous operands only");
  constexpr int kTileM = T::kTileM, kTileN = T::kTileN, kTileK = T::kTileK, kStages = T::kStages;
  constexpr int kWarpsM = T::kWarpsM, kWarpM = T::kWarpM, kWarpN = T::kWarpN, kKSteps = T::kKSteps;
  constexpr int kFragsM = T::kFragsM, kFragsN = T::kFragsN, kThreads = T::kThreads;
  constexpr int kStageBytes = T::kStageBytes, kE = T::kElemBytes;
  // The k steps over which a k-tile's copies are spread (all but the last, whose barrier counts them).
  constexpr int kCopySteps = T::kSpreadCopies ? kKSteps - 1 : 1;
  using CopyA = TileCopier<kAKMajor, kTileM, T::kKBytes, kE, kThreads>;
  using CopyB = TileCopier<kBKMajor, kTileN, T::kKBytes, kE, kThreads>;
  constexpr int kALine = CopyA::kLineBytes, kBLine = CopyB::kLineBytes;

  extern __shared__ __align__(128) unsigned char mma_lowp_smem[];
  const uint32_t smem0 = static_cast<uint32_t>(__cvta_generic_to_shared(mma_lowp_smem));
  const int tid = static_cast<int>(threadIdx.x), lane = tid % 32, warp = tid / 32;
  const int warp_m0 = (warp % kWarpsM) * kWarpM, warp_n0 = (warp / kWarpsM) * kWarpN;
  const int64_t k_tiles = ceil_div_nonneg(p.k, int64_t(kTileK));

  // Where each lane's ldmatrix reads (a_lane_spot, b_lane_spot).
  const FragAddress<kAKMajor, kALine, kFragsM> a_addr(warp_m0, a_lane_spot<kAKMajor>(lane));
  const FragAddress<kBKMajor, kBLine, kFragsN / 2> b_addr(warp_n0, b_lane_spot<kBKMajor>(lane));

  // Fragments of k step s (0 .. kKSteps - 1) of the k-tile in the stage at a_s / b_s.
  auto load_frags = [&](uint32_t (&af)[kFragsM][4], uint32_t (&bf)[kFragsN / 2][4], uint32_t a_s, uint32_t b_s,
                        int s) {
    load_step_fragments<Op, kAKMajor, kBKMajor>(af, bf, a_addr, b_addr, a_s, b_s, s);
  };

  for (int64_t t = blockIdx.x; t < p.total_tiles; t += gridDim.x) {
    int64_t mt, nt;
    tile_coords<T::kGroupM>(t, p.m_tiles, p.total_tiles / p.m_tiles, mt, nt);
    const int64_t m0 = mt * kTileM, n0 = nt * kTileN;
    CopyA copy_a(p.A, p.lda, m0, p.m, tid);
    CopyB copy_b(p.B, p.ldb, n0, p.n, tid);
    int64_t k_left = p.k;  // of the next k-tile to copy
    // Copies part kPart of kParts of the next k-tile into ring slot `stage`.
    auto copy_stage = [&](int stage, auto part, auto parts) {
      constexpr int kPart = decltype(part)::value, kParts = decltype(parts)::value;
      const uint32_t a_s = smem0 + stage * kStageBytes;
      const int k_rem = k_left < kTileK ? int(k_left) : kTileK;
      copy_a.template copy<kPart, kParts>(a_s, k_rem, p.lda);
      copy_b.template copy<kPart, kParts>(a_s + T::kATileBytes, k_rem, p.ldb);
      if (kPart == kParts - 1) k_left -= kTileK;
    };
    using Whole = std::integral_constant<int, 1>;
    using First = std::integral_constant<int, 0>;

    float acc[kFragsM][kFragsN][4];
    zero_accumulators<Op>(acc);

    __syncthreads();  // the previous C tile's warps are done with every stage
#pragma unroll
    for (int s = 0; s < kStages - 1; ++s) {
      if (s < k_tiles) copy_stage(s, First{}, Whole{});
      cp_async_commit();  // one group per stage, empty or not, so the wait counts stay right
    }
    cp_async_wait<kStages - 2>();
    __syncthreads();

    int read_stage = 0, write_stage = kStages - 1;
    uint32_t af[2][kFragsM][4], bf[2][kFragsN / 2][4];
    load_frags(af[0], bf[0], smem0, smem0 + T::kATileBytes, 0);

    // One k step; s is a compile-time constant (std::integral_constant), as the copy parts need.
    auto step = [&](int64_t kt, auto s_c) {
      constexpr int s = decltype(s_c)::value;
      if (s == kKSteps - 1) {
        // Step s's fragments are in registers: wait for the next k-tile and move to its slot.
        cp_async_wait<kStages - 2>();
        __syncthreads();
        read_stage = read_stage + 1 == kStages ? 0 : read_stage + 1;
      }
      // The next step's fragments (the next k-tile's first, after the last step; unused past the end),
      // before this step's copies in the source so that the compiler, which keeps shared-memory accesses in
      // order, issues them ahead of this step's MMAs.
      const uint32_t a_s = smem0 + read_stage * kStageBytes;
      load_frags(af[(s + 1) & 1], bf[(s + 1) & 1], a_s, a_s + T::kATileBytes, (s + 1) % kKSteps);
      if constexpr (s < kCopySteps) {
        // Refill the slot the previous k-tile used (free since the barrier before its last step), a part
        // per step so that the copies' address arithmetic spreads between the MMAs; one group per k-tile,
        // committed before the wait of its last step counts it.
        if (kt + kStages - 1 < k_tiles)
          copy_stage(write_stage, std::integral_constant<int, s>{}, std::integral_constant<int, kCopySteps>{});
        if (s == kCopySteps - 1) {
          cp_async_commit();
          write_stage = write_stage + 1 == kStages ? 0 : write_stage + 1;
        }
      }
      mma_step<Op>(acc, af[s & 1], bf[s & 1]);
    };
    for (int64_t kt = 0; kt < k_tiles; ++kt)
      for_each_step(std::make_integer_sequence<int, kKSteps>{}, [&](auto s_c) { step(kt, s_c); });
    cp_async_wait<0>();

    store_c_tile<Op>(p, acc, m0, n0, warp_m0, warp_n0, lane);
  }
}

}  // namespace tcgemm::detail::mma_lowp
