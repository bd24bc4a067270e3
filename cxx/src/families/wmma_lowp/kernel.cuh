// Family wmma_lowp, the run-time kernel: the article's Example 6 structure (A and B tiles in dynamic shared
// memory, padded leading dimensions, tile_k deep) on the WMMA shapes for 16-bit and TF32 inputs, with BLAS
// semantics, and a pipeline of `stages` shared-memory buffers. Every configuration field (tile_k, paddings,
// stages) is read at run time, so the padding and tile_k sweeps run through this one kernel; the fixed
// configurations run kernel_pipelined.cuh instead (dispatch.cuh).
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
// Epilogue: kernel_common.cuh, store_c_fragments.
#pragma once

#include <cstdint>
#include <type_traits>

#include "arch/cp_async_sm80.cuh"
#include "core/checked_math.hpp"
#include "families/wmma_lowp/kernel_common.cuh"

namespace tcgemm::detail::wmma_lowp {

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
  // line0 < step, so when step divides the lines every thread has lines / step of them.
  w.count = lines % step == 0 ? lines / step : w.line0 < lines ? (lines - w.line0 + step - 1) / step : 0;
  w.src_offset = kKContig ? w.line0 * ld + w.c : w.c + w.line0 * ld;
  w.line_bytes = int64_t(step) * ld * kEb;
  w.ktile_bytes = kKContig ? tile_k * kEb : tile_k * ld * kEb;
  w.d0 = uint32_t(tile_offset<kKContig, kStretch>(kKContig ? w.line0 : w.c, kKContig ? w.c : w.line0, ld_s) * kEb);
  w.d_step = uint32_t(step * ld_s * kEb);
  return w;
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

template <class In, class Acc, int FM, int FN, int FK, int kTileM, int kTileN, bool kAKContig, bool kBKContig>
__global__ void __launch_bounds__(LowpShape<In, Acc, FM, FN, FK, kTileM, kTileN, kAKContig, kBKContig>::kThreads,
                                  LowpShape<In, Acc, FM, FN, FK, kTileM, kTileN, kAKContig, kBKContig>::kMinBlocks)
    wmma_lowp_kernel(const LowpArgs p) {
  namespace wmma = nvcuda::wmma;
  using Shape = LowpShape<In, Acc, FM, FN, FK, kTileM, kTileN, kAKContig, kBKContig>;
  using FragA = typename Shape::FragA;
  using FragB = typename Shape::FragB;
  constexpr int W = Shape::kWarpTile;
  extern __shared__ __align__(128) unsigned char lowp_smem[];
  const int tile_k = p.tile_k;
  const int lda_s = p.lda_s, ldb_s = p.ldb_s;
  const int64_t a_tile_bytes = p.a_tile_bytes;
  const int64_t stage_bytes = a_tile_bytes + p.b_tile_bytes;
  const int S = p.stages;
  const bool vec_a = p.vec_a, vec_b = p.vec_b;
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
          load_fragment(a_frag[i], a_s + tile_offset<kAKContig, Shape::kStretchA>(o, ks * FK, lda_s), lda_s);
        }
#pragma unroll
        for (int j = 0; j < Shape::kFragsN; ++j) {
          const int o = warp_col * W + j * FN;
          FragB b_frag;
          load_fragment(b_frag, b_s + tile_offset<kBKContig, Shape::kStretchB>(o, ks * FK, ldb_s), ldb_s);
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

    store_c_fragments(p, acc, scratch, row0 + warp_row * W, col0 + warp_col * W, lane);
  }
}


}  // namespace tcgemm::detail::wmma_lowp
