// Family wmma_lowp: the article's Example 6 structure (A and B tiles in dynamic shared memory, padded
// leading dimensions, tile_k deep) on the WMMA shapes for 16-bit and TF32 inputs, with BLAS semantics, and a
// pipeline of `stages` shared-memory buffers.
//
// A block computes a kTileM x kTileN block of C with warps of W x W (rules.hpp: 32 x 32 at 64 x 64, else
// 64 x 64), each holding (W / FM) x (W / FN) accumulator fragments. With 64 x 64 warps that is 16 fragments:
// every fragment loaded from shared memory then feeds 4 MMAs (8 for the 8-wide shapes' other operand),
// which keeps the shared-memory traffic per MMA under what the SM can serve; 32 x 32 warp tiles need about
// twice as many bytes per MMA.
//
// Shared-memory tiles (rules.hpp, lowp_tiles) keep each operand in its order in memory, so cp.async moves
// 16-byte pieces straight from global memory and WMMA reads them with the matching layout (matrix_a
// row_major for a transposed A, col_major otherwise; matrix_b col_major for an untransposed B, row_major
// otherwise). The padding of the leading dimension is what decides bank conflicts of the fragment loads:
// with a leading dimension of a multiple of 128 bytes the 8 rows a fragment load reads at once fall in the
// same banks; 16 bytes more puts each in its own. Every fragment pointer is 32-byte aligned, as
// load_matrix_sync requires: fragments start at k offsets that are multiples of FK (32 bytes of input) and at
// m or n offsets that are multiples of 8 times a leading dimension of whole 16-byte units; an m- or
// n-contiguous operand with 8-wide fragments has each group of 8 at the start of a 16-element slot.
//
// Pipeline: stages = 1 is the article's loop (copy a k-tile, wait for it, compute it, then the next).
// stages = S >= 2 is a ring: S - 1 k-tiles are in flight while one is multiplied; at each k-tile the block
// waits for the oldest copy group, passes one barrier (after which the buffer computed in the previous
// iteration is free) and issues the copy of the k-tile S - 1 ahead into that buffer.
//
// Edges: cp.async's zero-fill form reads only the bytes inside op(A) or op(B) and fills the rest of a piece
// with zeros (elements outside add nothing to C). Operands that do not allow 16-byte copies (pointer not
// 16-byte aligned, or a leading dimension that is not a whole number of 16-byte units) are staged element by
// element into the same layout, synchronously.
//
// Epilogue: each warp stores one accumulator fragment at a time into its own scratch in shared memory
// (store_matrix_sync), and its lanes apply C = alpha * acc + beta * C to the elements inside m x n, reading C
// only when beta != 0 and converting to C's type. The fragment's lane mapping stays opaque.
#pragma once

#include <cstdint>
#include <type_traits>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include "arch/cp_async_sm80.cuh"
#include "core/checked_math.hpp"
#include "core/device.hpp"
#include "core/errors.hpp"
#include "families/lowp_c_element.cuh"
#include "families/wmma_lowp/launch.hpp"
#include "families/wmma_lowp/rules.hpp"

namespace tcgemm::detail::wmma_lowp {

constexpr int kWarpThreads = 32;
constexpr int64_t kDefaultDynamicSmemBytes = 48 * 1024;

// The WMMA fragment element type of each input kind.
template <class In>
struct InputTraits;
template <>
struct InputTraits<__half> {
  using Frag = __half;
};
template <>
struct InputTraits<__nv_bfloat16> {
  using Frag = __nv_bfloat16;
};
template <>
struct InputTraits<float> {  // TF32: stored as float, rounded to nearest when a fragment is loaded
  using Frag = nvcuda::wmma::precision::tf32;
};

template <class Acc>
__device__ __forceinline__ float acc_to_float(Acc v) {
  if constexpr (std::is_same<Acc, float>::value) return v;
  else return __half2float(v);
}

// The bits of one element: staging moves raw bits (all-zero bits are +0 in every input type).
template <class In>
using ElemBits = typename std::conditional<sizeof(In) == 2, uint16_t, uint32_t>::type;

// Compile-time facts of one kernel instance. kAKContig / kBKContig: whether op(A) / op(B) is k-contiguous in
// memory (A transposed, B not), which is also the shared tile's order.
template <class In, class Acc, int FM, int FN, int FK, int kTileM, int kTileN, bool kAKContig, bool kBKContig>
struct LowpShape {
  static_assert(lowp_tile_allowed(kTileM, kTileN), "wmma_lowp: not one of the family's block tiles");
  static constexpr int kWarpTile = lowp_warp_tile(kTileM, kTileN);
  static constexpr int kWarpsM = kTileM / kWarpTile;
  static constexpr int kThreads = lowp_warps(kTileM, kTileN) * kWarpThreads;
  static constexpr int kFragsM = kWarpTile / FM;
  static constexpr int kFragsN = kWarpTile / FN;
  static constexpr int kPiece = 16 / int(sizeof(In));  // elements per 16-byte copy
  static constexpr int kStretchA = (!kAKContig && FM == 8) ? 2 : 1;
  static constexpr int kStretchB = (!kBKContig && FN == 8) ? 2 : 1;
  // 64 x 64 warp tiles take up to ~250 registers: 8 warps per SM (two 4-warp blocks or one of 8); 32 x 32
  // ones leave room for 3 blocks (a cap of 128 registers for 4 blocks spills).
  static constexpr int kMinBlocks = kWarpTile == 32 ? 3 : kThreads == 128 ? 2 : 1;
  static_assert(kWarpTile % FM == 0 && kWarpTile % FN == 0,
                "wmma_lowp: the fragment shape must tile the warp's block of C");
  static_assert(FK * sizeof(In) == 32,
                "wmma_lowp: one k step must be 32 bytes of input, so that every fragment pointer stays 32-byte "
                "aligned (load_matrix_sync's rule)");
  static_assert((kStretchA == 1 && kStretchB == 1) || kPiece == 8,
                "wmma_lowp: a stretched tile moves whole groups of 8 elements per 16-byte copy");
  static_assert(kTileM % kPiece == 0 && kTileN % kPiece == 0,
                "wmma_lowp: an o-contiguous tile row is whole 16-byte pieces");
};

// The configuration of a fixed instance (kTileK > 0; rules.hpp, lowp_fixed_config): tile_k, 16-byte paddings,
// 3 stages and hence the shared tiles' leading dimensions and sizes are compile-time constants, so that
// fragment addresses and the copies' trip counts fold into immediates. The run-time kernel (kTileK == 0)
// issued 4.8 instructions per HMMA (ncu), and with 8 warps per SM the instruction count sets its speed; the
// constants bought 7-18% on BF16, TF32, FP16 accumulation and the 8-wide shapes at n = 8192, nothing on F16
// 16x16x16 (bench/results/2026-11-29-h200-wmma-unrolled/). The launcher takes a fixed instance only when the
// call's configuration is exactly this one (lowp_fixed_instance_applies), so results do not depend on which
// instance ran.
template <class In, int FM, int FN, int FK, bool kAKContig, bool kBKContig, int kTileK>
struct LowpFixed {
  static constexpr bool kOn = kTileK > 0;
  static constexpr int kStages = kLowpFixedStages;
  static constexpr LowpTiles kTiles =
      lowp_tiles(lowp_fixed_config(wmma_shape_of(FM, FN, FK), int(sizeof(In))), int(sizeof(In)), kAKContig,
                 !kBKContig);
  static_assert(!kOn || kTileK == lowp_fixed_tile_k(int(sizeof(In))), "wmma_lowp: a fixed instance's tile_k");
};

// Offset (elements) of element (o, k) in a shared operand tile (rules.hpp, LowpOperandTile).
template <bool kKContig, int kStretch>
__device__ __forceinline__ int tile_offset(int o, int k, int ld) {
  if constexpr (kKContig) return o * ld + k;
  else if constexpr (kStretch == 2) return k * ld + ((o >> 3) << 4) + (o & 7);
  else return k * ld + o;
}

// Where one operand's k-tile comes from: element (o, k) of the operand is x[k + o * ld] when it is
// k-contiguous, x[o + k * ld] otherwise; the tile starts at (o0, k0); the operand is o_lim x k_lim.
struct OperandSource {
  const void* x;
  int64_t ld;
  int64_t o0, k0;
  int64_t o_lim, k_lim;
};

// A thread's share of an operand's k-tiles as 16-byte cp.async copies. The tile is `lines` lines of `len`
// contiguous elements (k-contiguous: kTileO lines of tile_k; o-contiguous: tile_k lines of kTileO), each line
// ppl = len / E pieces. When ppl is a power of two that divides kThreads (always for o-contiguous tiles;
// every tile_k the tables use but 96), a thread keeps one piece column c and walks lines line0, line0 + step,
// ...: consecutive threads read consecutive 16-byte pieces of a line, and a k-tile costs one 64-bit
// multiply-add to find the thread's first piece, then a copy and two adds per piece (plus one test per
// piece at the operand's edges). The walk depends only on the thread, the leading dimensions and tile_k,
// so the kernel sets it up once (a division and 64-bit index math per piece had cost four times the MMA
// loop's instructions). Other tile_k take copy_tile_irregular.
struct CopyWalk {
  int64_t src_offset;   // elements from the tile's (o0, k0) to this thread's first piece
  int64_t line_bytes;   // source bytes between this thread's lines
  int64_t ktile_bytes;  // source bytes between consecutive k-tiles
  uint32_t d0, d_step;  // shared-memory bytes: first piece within a stage's tile, between lines
  int line0, step;      // this thread's first line, and lines between its lines
  int count;            // how many lines it copies
  int c;                // its piece column: elements from the start of a line
  bool regular;         // the mapping applies
};
template <class In, bool kKContig, int kStretch, int kTileO, int kThreads>
__device__ __forceinline__ CopyWalk copy_walk(int64_t ld, int ld_s, int tile_k, int tid) {
  constexpr int E = 16 / int(sizeof(In));
  constexpr int64_t kEb = sizeof(In);
  static_assert(kKContig || ((kTileO / E) & (kTileO / E - 1)) == 0,
                "wmma_lowp: an o-contiguous line is a power-of-two number of pieces");
  const int len = kKContig ? tile_k : kTileO, lines = kKContig ? kTileO : tile_k;
  const int ppl = len / E;  // tile_k is a multiple of FK, itself a multiple of E
  CopyWalk w{};
  w.regular = (ppl & (ppl - 1)) == 0 && ppl <= kThreads;
  if (!w.regular) return w;
  const int shift = __ffs(ppl) - 1;
  const int step = kThreads >> shift;
  w.c = (tid & (ppl - 1)) * E;
  w.line0 = tid >> shift;
  w.step = step;
  // line0 < step, so when step divides the lines every thread has lines / step of them (a constant in the
  // fixed instances, which unrolls the copy loop).
  w.count = lines % step == 0 ? lines / step : w.line0 < lines ? (lines - w.line0 + step - 1) / step : 0;
  w.src_offset = kKContig ? w.line0 * ld + w.c : w.c + w.line0 * ld;
  w.line_bytes = int64_t(step) * ld * kEb;
  w.ktile_bytes = kKContig ? tile_k * kEb : tile_k * ld * kEb;
  w.d0 = uint32_t(tile_offset<kKContig, kStretch>(kKContig ? w.line0 : w.c, kKContig ? w.c : w.line0, ld_s) * kEb);
  w.d_step = uint32_t(step * ld_s * kEb);
  return w;
}

// Bytes of a 16-byte piece that has `left` elements of its operand before the operand's end.
template <class In>
__device__ __forceinline__ int piece_bytes(int64_t left) {
  constexpr int E = 16 / int(sizeof(In));
  return left >= E ? 16 : left > 0 ? int(left * int64_t(sizeof(In))) : 0;
}

// One k-tile along a walk: src is this thread's first piece, tile the stage's tile (shared address). The
// tile's lines inside the operand are those below line_lim, and bytes (<= 16) of each of this thread's
// pieces lie inside it; the rest is zero-filled (its source is not read; `base` stands in as a valid
// address). inside: the whole k-tile lies inside the operand (every tile but the edges), then no tests. The
// copies need no compiler fence: a tile is read only after cp.async.wait_group and a barrier.
__device__ __forceinline__ void copy_walk_tile(const CopyWalk& w, const char* src, uint32_t tile, bool inside,
                                               int64_t line_lim, int bytes, const void* base) {
  uint32_t d = tile + w.d0;
  if (inside) {
#pragma unroll 4
    for (int i = 0; i < w.count; ++i, src += w.line_bytes, d += w.d_step)
      arch::cp_async<16, arch::Clobber::kNone>(d, src);
    return;
  }
  for (int i = 0, l = w.line0; i < w.count; ++i, l += w.step, src += w.line_bytes, d += w.d_step) {
    const int b = l < line_lim ? bytes : 0;
    arch::cp_async_zfill<16, arch::Clobber::kMemory>(d, b ? src : base, b);
  }
}

// One k-tile of a k-contiguous operand whose lines are not a power-of-two number of pieces (tile_k 48, 96,
// ...): consecutive threads take consecutive pieces, with a division each.
template <class In, int kTileO, int kThreads>
__device__ __forceinline__ void copy_tile_irregular(In* dst, int ld_s, int tile_k, const OperandSource& s,
                                                    int tid) {
  constexpr int E = 16 / int(sizeof(In));
  constexpr int64_t kEb = sizeof(In);
  const char* x = static_cast<const char*>(s.x);
  const int ppl = tile_k / E;
  for (int u = tid; u < kTileO * ppl; u += kThreads) {
    const int o = u / ppl, k = (u - o * ppl) * E;
    const int64_t go = s.o0 + o, gk = s.k0 + k;
    const int bytes = go < s.o_lim ? piece_bytes<In>(s.k_lim - gk) : 0;
    const void* src = bytes ? x + (gk + go * s.ld) * kEb : s.x;
    arch::cp_async_zfill<16, arch::Clobber::kMemory>(arch::smem_address(dst + tile_offset<true, 1>(o, k, ld_s)),
                                                     src, bytes);
  }
}

// The same k-tile element by element (operands without 16-byte copies), zeros outside the operand.
template <class In, bool kKContig, int kStretch, int kTileO, int kThreads>
__device__ __forceinline__ void copy_tile_scalar(In* dst, int ld_s, int tile_k, const OperandSource& s, int tid) {
  using Bits = ElemBits<In>;
  const Bits* x = static_cast<const Bits*>(s.x);
  Bits* d = reinterpret_cast<Bits*>(dst);
#pragma unroll 1
  for (int u = tid; u < kTileO * tile_k; u += kThreads) {
    int o, k;
    if constexpr (kKContig) {
      o = u / tile_k;
      k = u - o * tile_k;
    } else {
      k = u / kTileO;
      o = u % kTileO;
    }
    const int64_t go = s.o0 + o, gk = s.k0 + k;
    Bits v = 0;
    if (go < s.o_lim && gk < s.k_lim) v = kKContig ? x[gk + go * s.ld] : x[go + gk * s.ld];
    d[tile_offset<kKContig, kStretch>(o, k, ld_s)] = v;
  }
}

// One k-tile of one operand into its stage's tile (shared address tile_addr, pointer tile), by the route its
// copies allow: the walk (16-byte copies, regular mapping), 16-byte copies with a division each (k-contiguous
// operands whose tile_k the walk does not fit), or element by element (no 16-byte copies).
template <class In, bool kKContig, int kStretch, int kTileO, int kThreads>
__device__ __forceinline__ void copy_operand_k_tile(const CopyWalk& w, bool vec, int64_t kt, uint32_t tile_addr,
                                                    In* tile, int ld_s, int tile_k, const OperandSource& s,
                                                    int tid) {
  if (vec && w.regular) {
    const int64_t o_left = s.o_lim - s.o0, k_left = s.k_lim - s.k0;
    const char* first = static_cast<const char*>(s.x) +
                        ((kKContig ? s.o0 * s.ld : s.o0) + w.src_offset) * int64_t(sizeof(In)) + kt * w.ktile_bytes;
    copy_walk_tile(w, first, tile_addr, o_left >= kTileO && k_left >= tile_k, kKContig ? o_left : k_left,
                   piece_bytes<In>((kKContig ? k_left : o_left) - w.c), s.x);
  } else if (vec) {
    if constexpr (kKContig) copy_tile_irregular<In, kTileO, kThreads>(tile, ld_s, tile_k, s, tid);
  } else {
    copy_tile_scalar<In, kKContig, kStretch, kTileO, kThreads>(tile, ld_s, tile_k, s, tid);
  }
}

template <class In, class Acc, int FM, int FN, int FK, int kTileM, int kTileN, bool kAKContig, bool kBKContig,
          int kFixedTileK>
__global__ void __launch_bounds__(LowpShape<In, Acc, FM, FN, FK, kTileM, kTileN, kAKContig, kBKContig>::kThreads,
                                  LowpShape<In, Acc, FM, FN, FK, kTileM, kTileN, kAKContig, kBKContig>::kMinBlocks)
    wmma_lowp_kernel(const LowpArgs p) {
  namespace wmma = nvcuda::wmma;
  using Shape = LowpShape<In, Acc, FM, FN, FK, kTileM, kTileN, kAKContig, kBKContig>;
  using FragIn = typename InputTraits<In>::Frag;
  using LayoutA = typename std::conditional<kAKContig, wmma::row_major, wmma::col_major>::type;
  using LayoutB = typename std::conditional<kBKContig, wmma::col_major, wmma::row_major>::type;
  using FragA = wmma::fragment<wmma::matrix_a, FM, FN, FK, FragIn, LayoutA>;
  using FragB = wmma::fragment<wmma::matrix_b, FM, FN, FK, FragIn, LayoutB>;
  constexpr int W = Shape::kWarpTile;
  extern __shared__ __align__(128) unsigned char lowp_smem[];
  // The configuration: compile-time constants in a fixed instance, the call's otherwise.
  using Fixed = LowpFixed<In, FM, FN, FK, kAKContig, kBKContig, kFixedTileK>;
  static_assert(!Fixed::kOn || (kTileM == kLowpFixedTile && kTileN == kLowpFixedTile),
                "wmma_lowp: fixed instances have the fixed C tile");
  const int tile_k = Fixed::kOn ? kFixedTileK : p.tile_k;
  const int lda_s = Fixed::kOn ? Fixed::kTiles.a.ld : p.lda_s, ldb_s = Fixed::kOn ? Fixed::kTiles.b.ld : p.ldb_s;
  const int64_t a_tile_bytes = Fixed::kOn ? Fixed::kTiles.a_bytes : p.a_tile_bytes;
  const int64_t stage_bytes = a_tile_bytes + (Fixed::kOn ? Fixed::kTiles.b_bytes : p.b_tile_bytes);
  const int S = Fixed::kOn ? Fixed::kStages : p.stages;
  const bool vec_a = Fixed::kOn || p.vec_a, vec_b = Fixed::kOn || p.vec_b;
  const int tid = static_cast<int>(threadIdx.x);
  const int warp = tid / kWarpThreads, lane = tid % kWarpThreads;
  const int warp_row = warp % Shape::kWarpsM, warp_col = warp / Shape::kWarpsM;
  Acc* scratch = reinterpret_cast<Acc*>(lowp_smem + S * stage_bytes) + warp * FM * FN;
  // alpha == 0: A and B are not read (BLAS), so no k-tile is copied and the accumulators stay 0.
  const int64_t k_tiles = p.alpha == 0.0f ? 0 : ceil_div_bounded(p.k, tile_k);
  // k-tiles below k_full are whole; the last one, if partial, stops at its last k step with data (the rest
  // of it is zeros).
  const int64_t k_full = p.k / tile_k;
  const int full_steps = tile_k / FK;
  const int last_steps = static_cast<int>(ceil_div_bounded(p.k - k_full * tile_k, FK));
  const CopyWalk walk_a =
      copy_walk<In, kAKContig, Shape::kStretchA, kTileM, Shape::kThreads>(p.lda, lda_s, tile_k, tid);
  const CopyWalk walk_b =
      copy_walk<In, kBKContig, Shape::kStretchB, kTileN, Shape::kThreads>(p.ldb, ldb_s, tile_k, tid);
  const uint32_t smem0 = arch::smem_address(lowp_smem);

  for (int64_t t = blockIdx.x; t < p.total_tiles; t += gridDim.x) {
    const int64_t row0 = (t % p.m_tiles) * kTileM, col0 = (t / p.m_tiles) * kTileN;
    // Copies k-tile kt into buffer `slot` (no commit here).
    const auto copy_k_tile = [&](int slot, int64_t kt) {
      const uint32_t stage = smem0 + uint32_t(slot * stage_bytes);
      unsigned char* base = lowp_smem + slot * stage_bytes;
      const int64_t k0 = kt * tile_k;
      copy_operand_k_tile<In, kAKContig, Shape::kStretchA, kTileM, Shape::kThreads>(
          walk_a, vec_a, kt, stage, reinterpret_cast<In*>(base), lda_s, tile_k,
          OperandSource{p.A, p.lda, row0, k0, p.m, p.k}, tid);
      copy_operand_k_tile<In, kBKContig, Shape::kStretchB, kTileN, Shape::kThreads>(
          walk_b, vec_b, kt, stage + uint32_t(a_tile_bytes), reinterpret_cast<In*>(base + a_tile_bytes), ldb_s,
          tile_k, OperandSource{p.B, p.ldb, col0, k0, p.n, p.k}, tid);
    };

    wmma::fragment<wmma::accumulator, FM, FN, FK, Acc> acc[Shape::kFragsM][Shape::kFragsN];
#pragma unroll
    for (int i = 0; i < Shape::kFragsM; ++i)
#pragma unroll
      for (int j = 0; j < Shape::kFragsN; ++j) wmma::fill_fragment(acc[i][j], Acc(0.0f));

    __syncthreads();  // every warp is done with the previous C tile's buffers
    for (int s = 0; s < S - 1; ++s) {
      if (s < k_tiles) copy_k_tile(s, s);
      arch::cp_async_commit<arch::Clobber::kMemory>();
    }
    int read_slot = 0;
    for (int64_t kt = 0; kt < k_tiles; ++kt) {
      if (S == 1) {
        if (kt > 0) __syncthreads();  // every warp is done with the only buffer
        copy_k_tile(0, kt);
        arch::cp_async_commit<arch::Clobber::kMemory>();
        arch::cp_async_wait<0>();
        __syncthreads();
      } else {
        // k-tile kt has landed (this thread's copies)...
        arch::cp_async_wait_pending_upto<kLowpMaxStages - 2>(S - 2);
        __syncthreads();  // ...everyone's, and the buffer read in kt - 1 is free
        const int64_t ahead = kt + S - 1;
        if (ahead < k_tiles) copy_k_tile(read_slot == 0 ? S - 1 : read_slot - 1, ahead);
        arch::cp_async_commit<arch::Clobber::kMemory>();  // an empty group past the end keeps the count
      }
      const unsigned char* base = lowp_smem + read_slot * stage_bytes;
      const In* a_s = reinterpret_cast<const In*>(base);
      const In* b_s = reinterpret_cast<const In*>(base + a_tile_bytes);
      const int k_steps = kt < k_full ? full_steps : last_steps;
      // One k step: the warp's A fragments, then each B fragment against all of them.
      const auto k_step = [&](int ks) {
        FragA a_frag[Shape::kFragsM];
#pragma unroll
        for (int i = 0; i < Shape::kFragsM; ++i) {
          const int o = warp_row * W + i * FM;
          wmma::load_matrix_sync(a_frag[i], a_s + tile_offset<kAKContig, Shape::kStretchA>(o, ks * FK, lda_s),
                                 lda_s);
          if constexpr (sizeof(In) == 4) {
            for (int e = 0; e < a_frag[i].num_elements; ++e) a_frag[i].x[e] = wmma::__float_to_tf32(a_frag[i].x[e]);
          }
        }
#pragma unroll
        for (int j = 0; j < Shape::kFragsN; ++j) {
          const int o = warp_col * W + j * FN;
          FragB b_frag;
          wmma::load_matrix_sync(b_frag, b_s + tile_offset<kBKContig, Shape::kStretchB>(o, ks * FK, ldb_s),
                                 ldb_s);
          if constexpr (sizeof(In) == 4) {
            for (int e = 0; e < b_frag.num_elements; ++e) b_frag.x[e] = wmma::__float_to_tf32(b_frag.x[e]);
          }
#pragma unroll
          for (int i = 0; i < Shape::kFragsM; ++i) wmma::mma_sync(acc[i][j], a_frag[i], b_frag, acc[i][j]);
        }
      };
      // The k-tile's steps unrolled for the usual depths (a k-tile of 32 or 64 16-bit elements, 32 TF32), so
      // that the fragment offsets are constants and the compiler can load one step's fragments while the
      // previous step's MMAs run: 6-23% faster at n = 8192 than the plain loop (H200), which other depths keep.
      const auto unrolled = [&](auto steps_c) {
#pragma unroll
        for (int ks = 0; ks < decltype(steps_c)::value; ++ks) k_step(ks);
      };
      if (k_steps == 4) {
        unrolled(std::integral_constant<int, 4>{});
      } else if (k_steps == 2) {
        unrolled(std::integral_constant<int, 2>{});
      } else {
        for (int ks = 0; ks < k_steps; ++ks) k_step(ks);
      }
      read_slot = (S == 1 || read_slot == S - 1) ? 0 : read_slot + 1;
    }

    // Epilogue, one fragment at a time through the warp's scratch (column-major, leading dimension FM).
#pragma unroll
    for (int i = 0; i < Shape::kFragsM; ++i)
#pragma unroll
      for (int j = 0; j < Shape::kFragsN; ++j) {
        wmma::store_matrix_sync(scratch, acc[i][j], FM, wmma::mem_col_major);
        __syncwarp();
        const int64_t fr = row0 + warp_row * W + i * FM;
        const int64_t fc = col0 + warp_col * W + j * FN;
        // Not unrolled: the loop body holds C's type switch, and 16 fragments of unrolled copies of it made
        // the family's instances several times larger for no measurable time.
#pragma unroll 1
        for (int e = lane; e < FM * FN; e += kWarpThreads) {
          const int64_t r = fr + e % FM, c = fc + e / FM;
          if (r < p.m && c < p.n) {
            const int64_t at = r + c * p.ldc;
            float v = p.alpha * acc_to_float<Acc>(scratch[e]);
            if (p.beta != 0.0f) v = fmaf(p.beta, load_c_element(p.C, p.c_type, at), v);
            store_c_element(p.C, p.c_type, at, v);
          }
        }
        __syncwarp();  // the scratch is read before the next fragment overwrites it
      }
  }
}

template <class In, class Acc, int FM, int FN, int FK, int kTileM, int kTileN, bool kAKContig, bool kBKContig,
          int kFixedTileK>
tcgemm_status launch_instance(const LowpArgs& args, int64_t smem_bytes, const DeviceContext& ctx,
                              cudaStream_t stream) {
  auto* kernel = wmma_lowp_kernel<In, Acc, FM, FN, FK, kTileM, kTileN, kAKContig, kBKContig, kFixedTileK>;
  if (smem_bytes > kDefaultDynamicSmemBytes)
    TCGEMM_TRY(ensure_dynamic_smem_limit(reinterpret_cast<const void*>(kernel), ctx, "wmma_lowp_kernel"));
  constexpr int kThreads = LowpShape<In, Acc, FM, FN, FK, kTileM, kTileN, kAKContig, kBKContig>::kThreads;
  kernel<<<lowp_grid(args), kThreads, static_cast<size_t>(smem_bytes), stream>>>(args);
  TCGEMM_CHECK_LAUNCH("wmma_lowp_kernel");
  return TCGEMM_SUCCESS;
}

// An operand form's instance: the fixed one (LowpFixed) when the call's configuration is exactly the fixed
// configuration, the run-time one otherwise.
template <class In, class Acc, int FM, int FN, int FK, int kTileM, int kTileN, bool kAKContig, bool kBKContig>
tcgemm_status launch_form_instance(const LowpArgs& args, int64_t smem_bytes, const DeviceContext& ctx,
                                   cudaStream_t stream) {
  if constexpr (kTileM == kLowpFixedTile && kTileN == kLowpFixedTile) {
    constexpr int kIn = int(sizeof(In));
    if (lowp_fixed_instance_applies(args, wmma_shape_of(FM, FN, FK), kIn, kTileM, kTileN))
      return launch_instance<In, Acc, FM, FN, FK, kTileM, kTileN, kAKContig, kBKContig, lowp_fixed_tile_k(kIn)>(
          args, smem_bytes, ctx, stream);
  }
  return launch_instance<In, Acc, FM, FN, FK, kTileM, kTileN, kAKContig, kBKContig, 0>(args, smem_bytes, ctx, stream);
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
