// sm90_mma: Hopper FP64 GEMM on mma.sync.aligned.m16n8k{4,8,16}.row.col.f64 (DMMA.16 in SASS), fed by a
// multistage cp.async shared-memory pipeline. Full BLAS semantics: C <- alpha op(A) op(B) + beta C,
// column-major, any m, n, k, leading dimension and base-pointer alignment.
//
// This header holds the kernel template and its building blocks; sm90_mma.cu instantiates it from the
// shape table kSm90Shapes (config_rules.hpp) and holds the launcher. bench/sm90_probe.cu includes it to
// time variants outside the table.
//
// Design (all indices are inside one thread block's tile unless said otherwise):
//
// * Fragment ownership. In every m16n8k* f64 shape, lane = 4 * groupID + threadID_in_group (g, t) holds
//   A rows {g, g+8}, B column g and the k values t + 4w (w < k/4). Three permutations are free, because
//   they are applied identically to both operands of the product (k) or to an operand and to C (m, n):
//     - k: logical k = t + 4w of the mma is stored at physical k = 4t + w (+ offset of the mma in the
//       16-deep "slab"). So over a 16-deep slab a thread owns the 4 consecutive physical k [4t, 4t+4).
//     - m: logical row r (0..15) of m-tile i of a warp is physical warp row RT*(r % 8) + 2i + r / 8,
//       RT = rows per thread = warp_m / 8. So a thread owns the RT consecutive rows [RT*g, RT*g + RT).
//     - n: logical column c (0..7) of n-tile j is physical warp column NT*c + j, NT = warp_n / 8. So a
//       thread owns B columns [NT*g, NT*g + NT) and C columns [2NT*t, 2NT*t + 2NT).
//   Consequence: every fragment load is a 16-byte ld.shared.v2.f64 (two rows, or two k, at once), and a
//   thread's C values form a contiguous RT x 2NT block (16-byte stores in the epilogue). A 16-byte load
//   lands directly in the DMMA operand registers when it delivers an A pair {row g, row g+8} at one k
//   (mn-contiguous A) or a B pair {k t, k t+4} of one column (k-contiguous B): the 'N','N' layouts. The
//   other forms: 'T','T' runs as C^T = B A ('N','N' layouts, C stored transposed); 'N','T' uses m16n8k4
//   (one B value per MMA, so either half of a 16-byte load fits); 'T','N' needs register moves for A.
//
// * Shared-memory layouts (no padding; XOR swizzle of 16-byte chunks inside 128-byte bank lines). Each
//   operand is stored the way its global source is contiguous, so cp.async copies 16-byte chunks:
//     - "mn-contiguous" [k][mn] (A with transa = 'N', B with transb = 'T'): row k, chunk c stored at
//       chunk c ^ sw(k), sw spreads the 2 bits of (k / 4) % 4 (= t of the reading lanes) into the 3 chunk
//       bits that the lane's g parity does not use. A quarter-warp (lanes 8q..8q+7 = g in {2q, 2q+1},
//       t in 0..3) then reads 8 distinct 16-byte slots of the bank line: conflict-free.
//     - "k-contiguous" [mn][k] (A with transa = 'T', B with transb = 'N'): row r, chunk c stored at chunk
//       c ^ ((r / PER) % 2), PER = values per thread along mn; the two g of a quarter-warp read rows of
//       opposite parity, so their chunks 2t + p land on opposite halves of the slot pairs: conflict-free.
//   The smem layout is a compile-time property of (trans, tile); tcgemm_config.pad_a/pad_b must be 0.
//
// * Pipeline: `stages` (run-time, within the shape's range) buffers of tile_k-deep A and B slabs. The
//   copy of k-tile kt + stages - 1 is issued while k-tile kt is multiplied. Fragment loads (Traits::
//   kPipeline): kPipeGroup double buffers whole k8 groups in registers (next group loaded before the
//   current group's MMAs, the stage barrier before the last group's MMAs, so the tensor pipe has queued
//   work while warps wait); kPipeStep does the same per k4 step with half the registers; kPipeNone loads
//   each group right before its MMAs. With 64x32 warp tiles (128 accumulator registers) kPipeGroup fits
//   255 registers only for the 'N','N' layouts; the launcher picks the pipeline per form (sm90_mma.cu).
//
// * Edges: the edge-handling copies carry a byte count (cp.async src-size): 16, 8 or 0 bytes are read and
//   the rest of the 16-byte destination is zero-filled. Rows/columns beyond m/n and k beyond k therefore
//   contribute zeros, and the MMA code has no edge branches. 16-byte copies are used when the operand's
//   base is 16-byte aligned and its leading dimension is even (decided per call on the host); otherwise
//   8-byte copies fill the same layout. Their byte counts, 64-bit bound compares and fallback pointers
//   cost ~200 integer instructions per k-tile per thread, so the main loop exists twice: an interior block
//   (C tile inside m x n) first runs an edge-free copy of it (whole chunks, one source pointer and one
//   shared offset per operand) for every k-tile whose copies lie inside k, then hands over to the
//   edge-handling copy (kPipeNone fragments: with the double-buffered ones it did not fit 255 registers)
//   for the last stages - 1 k-tiles; edge blocks run the edge-handling loop throughout.
//
// * Epilogue: C = alpha * acc + beta * C, C not read when beta == 0, only in-bounds elements written.
//
// * Rasterization: blocks walk the C tile grid in groups of kRasterGroupM tile rows (column-major inside
//   a group), so blocks resident at the same time share A and B panels in L2.
#pragma once

#include <cstdint>
#include <type_traits>

#include <cuda_runtime.h>

#include "config_rules.hpp"

namespace tcgemm::detail::sm90 {

// ---- instruction and memory constants ------------------------------------------------------------
constexpr int kMmaM = 16;             // rows of one mma tile
constexpr int kMmaN = 8;              // columns of one mma tile
constexpr int kSlabK = 16;            // k depth over which each lane owns 4 consecutive k
constexpr int kKPerLane = 4;          // physical k owned by one lane inside a slab: [4t, 4t + 4)
constexpr int kLanesPerGroup = 4;     // threadID_in_group range
constexpr int kChunkBytes = 16;       // cp.async / ld.shared.v2.f64 width
constexpr int kChunkDoubles = 2;
constexpr int kBankLineChunks = 8;    // 32 banks x 4 bytes = 128 bytes = 8 chunks
constexpr int kRasterGroupM = 8;      // C tile rows per rasterization group (4 and 16: same speed)
constexpr int kWarpSizeThreads = 32;
constexpr int64_t kMaxSmemPerBlock = 227 * 1024;  // opt-in shared memory of a cc 9.0 block
constexpr int kMaxPendingStages = 8;
constexpr int kPipeNone = 0, kPipeGroup = 1, kPipeStep = 2;  // upper bound of stages - 2 handled by cp_async_wait_pending
// The mma k-shape used by the library (16, 8 or 4). Chosen by measurement: see bench/sm90_probe.cu.
#ifndef TCGEMM_SM90_MMA_K
#define TCGEMM_SM90_MMA_K 8
#endif
constexpr int kMmaK = TCGEMM_SM90_MMA_K;

// Everything a kernel instance needs from one call (host fills it, kernel reads it by value).
struct Params {
  const double* A;
  const double* B;
  double* C;
  int64_t lda, ldb, ldc;
  int64_t m, n, k;
  double alpha, beta;
  int64_t tiles_m, tiles_n;  // C tile grid, one block per tile (validation: at most 2^31 - 1 tiles)
  int stages;                // pipeline depth, validated against the shape's range
  int c_vec16;               // 1: 16-byte C accesses allowed (base 16-byte aligned and ldc even)
};

// ---- PTX wrappers ------------------------------------------------------------------------------------
__device__ __forceinline__ uint32_t smem_address(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// src_bytes < 16 reads only src_bytes and zero-fills the rest of the 16-byte destination.
__device__ __forceinline__ void cp_async_16(uint32_t dst, const void* src, int src_bytes) {
  // No "memory" clobber: the destination stage is not read before cp_async_wait + __syncthreads, which
  // are compiler barriers, so fragment loads of other stages may be scheduled across the copies.
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes));
}
__device__ __forceinline__ void cp_async_8(uint32_t dst, const void* src, int src_bytes) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes));
}
// Whole-chunk forms (no src-size operand) for copies known to be in bounds.
__device__ __forceinline__ void cp_async_16_full(uint32_t dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src));
}
__device__ __forceinline__ void cp_async_8_full(uint32_t dst, const void* src) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(dst), "l"(src));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n"); }

template <int kPending>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
}
// wait_group takes an immediate; `stages` is a run-time value, so branch (uniformly) to the right one.
__device__ __forceinline__ void cp_async_wait_pending(int pending) {
  switch (pending) {
    case 0: cp_async_wait<0>(); break;
    case 1: cp_async_wait<1>(); break;
    case 2: cp_async_wait<2>(); break;
    case 3: cp_async_wait<3>(); break;
    case 4: cp_async_wait<4>(); break;
    case 5: cp_async_wait<5>(); break;
    case 6: cp_async_wait<6>(); break;
    default: cp_async_wait<kMaxPendingStages - 1>(); break;
  }
}

// threadIdx.x read through a volatile asm: the compiler cannot merge it with an earlier read, so a value
// needed only after the main loop is not held in a register across it.
__device__ __forceinline__ int thread_index_reread() {
  int tid;
  asm volatile("mov.u32 %0, %%tid.x;\n" : "=r"(tid));
  return tid;
}

// D = A B + D on one m16n8k{kK} tile; a, b in the PTX fragment order (see the file comment).
template <int kK>
struct Mma;
template <>
struct Mma<4> {
  static constexpr int kARegs = 2, kBRegs = 1;
  __device__ __forceinline__ static void run(double (&d)[4], const double (&a)[2], const double (&b)[1]) {
    asm("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
        : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
        : "d"(a[0]), "d"(a[1]), "d"(b[0]));
  }
};
template <>
struct Mma<8> {
  static constexpr int kARegs = 4, kBRegs = 2;
  __device__ __forceinline__ static void run(double (&d)[4], const double (&a)[4], const double (&b)[2]) {
    asm("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%0,%1,%2,%3};\n"
        : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
        : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
  }
};
template <>
struct Mma<16> {
  static constexpr int kARegs = 8, kBRegs = 4;
  __device__ __forceinline__ static void run(double (&d)[4], const double (&a)[8], const double (&b)[4]) {
    asm("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, "
        "{%12,%13,%14,%15}, {%0,%1,%2,%3};\n"
        : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
        : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]),
          "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]));
  }
};

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
__host__ __device__ constexpr int clamp_bytes(int64_t bytes) {
  return bytes <= 0 ? 0 : (bytes >= kChunkBytes ? kChunkBytes : static_cast<int>(bytes));
}

// ---- one operand's shared-memory tile --------------------------------------------------------------
// kTileMn x kTileK slab of op(X) for one stage. kPer = consecutive mn values a lane owns (A: rows per
// thread RT, B: columns per thread NT). kMnContiguous: element (mn, k) of op(X) is X[mn + k * ld]
// (stored [k][mn]); otherwise X[k + mn * ld] (stored [mn][k]).
template <int kTileMn, int kTileK, int kThreads, int kPer, bool kMnContiguous>
struct OperandTile {
  static constexpr int kStageDoubles = kTileMn * kTileK;
  static constexpr int kStageBytes = kStageDoubles * 8;
  // Row = one k (mn-contiguous) or one mn (k-contiguous), in bytes.
  static constexpr int kRowBytes = (kMnContiguous ? kTileMn : kTileK) * 8;
  static constexpr int kRowChunks = kRowBytes / kChunkBytes;
  static constexpr int kRows = kMnContiguous ? kTileK : kTileMn;

  static_assert(kTileK % kSlabK == 0, "tile_k must be a multiple of the 16-deep k slab");
  static_assert(kPer == 2 || kPer == 4 || kPer == 8,
                "a lane owns 2, 4 or 8 consecutive rows/columns (warp tile 16..64 wide): 16-byte fragment "
                "loads need at least 2, and the swizzle keeps a quarter-warp conflict-free only up to 8");
  static_assert(kRowChunks % kBankLineChunks == 0,
                "a shared-memory row must be whole 128-byte bank lines (tile_m, tile_n multiples of 16)");
  static_assert(kThreads % kRowChunks == 0 && kRows % (kThreads / kRowChunks) == 0,
                "the block's threads must copy whole rows of 16-byte chunks, the same count each");

  // mn-contiguous swizzle: chunk bits not used by the reading lane's g parity receive t = (k / 4) % 4.
  static constexpr int kGParityBit = log2_exact(kPer / kChunkDoubles);
  __device__ __forceinline__ static int swizzle_k_row(int k) {
    const int t = (k >> 2) & 3;
    if constexpr (kGParityBit == 2) return t;                           // bits 0,1
    else if constexpr (kGParityBit == 1) return (t & 1) | ((t & 2) << 1);  // bits 0,2
    else return t << 1;                                                 // bits 1,2
  }
  // k-contiguous swizzle: chunk bit 0 flips with the parity of the owning lane's g.
  __device__ __forceinline__ static int swizzle_mn_row(int row) { return (row / kPer) & 1; }

  __device__ __forceinline__ static uint32_t chunk_offset(int row, int chunk) {
    const int sw = kMnContiguous ? swizzle_k_row(row) : swizzle_mn_row(row);
    return static_cast<uint32_t>(row * kRowBytes + (chunk ^ sw) * kChunkBytes);
  }

  // Copy one 16-byte chunk (two consecutive doubles) of which `bytes` (0, 8 or 16) are in bounds; the
  // rest of the destination is zero-filled. kVec16: one 16-byte copy (src 16-byte aligned); otherwise two
  // 8-byte copies (src 8-byte aligned). A source with no byte in bounds is replaced by `x`, the matrix
  // base, so no address outside the matrix is formed for the copy engine.
  template <bool kVec16>
  __device__ __forceinline__ static void copy_chunk(uint32_t dst, const double* src, int bytes, const double* x) {
    if constexpr (kVec16) {
      cp_async_16(dst, bytes ? src : x, bytes);
    } else {
      const int lo = bytes < 8 ? bytes : 8;
      const int hi = bytes - lo;
      cp_async_8(dst, lo ? src : x, lo);
      cp_async_8(dst + 8, hi ? src + 1 : x, hi);
    }
  }

  // The copies of one operand, one stage at a time, k-tile after k-tile. Thread tid copies chunk
  // (tid % kRowChunks) of rows tid / kRowChunks + it * kRowStep: consecutive threads read consecutive 16
  // bytes of a row (coalesced along the contiguous dimension of the source). Only a few values stay live
  // across the main loop (a running source pointer, a stage offset, the chunk and one edge count): with
  // 128 threads a thread issues 8 + 4 copies per stage, and hoisted per-copy addresses would cost the
  // fragment buffers their registers.
  static constexpr int kRowStep = kThreads / kRowChunks;
  static constexpr int kCopies = kRows / kRowStep;
  struct Copier {
    const double* src;  // the thread's first chunk in the next k-tile to copy
    uint32_t dst0;      // byte offset in a stage of row row0 (k-contiguous: with the swizzled chunk)
    int chunk;          // chunk index inside a row
    int row0;           // first row (mn-contiguous: k; k-contiguous: mn)
    int edge;           // mn-contiguous: bytes of the chunk inside mn_ext; k-contiguous: rows inside mn_ext
  };

  // k_start: first k of the first k-tile the copier will copy.
  __device__ __forceinline__ static Copier make_copier(const double* x, int64_t ld, int64_t mn_ext, int64_t mn0,
                                                       int64_t k_start, int tid) {
    Copier c;
    c.chunk = tid % kRowChunks;
    c.row0 = tid / kRowChunks;
    if constexpr (kMnContiguous) {
      const int64_t mn = mn0 + c.chunk * kChunkDoubles;
      c.src = x + (k_start + c.row0) * ld + mn;
      c.dst0 = static_cast<uint32_t>(c.row0 * kRowBytes);
      c.edge = clamp_bytes((mn_ext - mn) * 8);
    } else {
      c.src = x + (mn0 + c.row0) * ld + k_start + c.chunk * kChunkDoubles;
      c.dst0 = chunk_offset(c.row0, c.chunk);
      const int64_t rows = mn_ext - mn0 - c.row0;
      c.edge = rows < kRows ? static_cast<int>(rows) : kRows;
    }
    return c;
  }

  // Issue the cp.async copies of k-tile k0 / kTileK (op(X)(mn0 .. + kTileMn, k0 .. + kTileK), zero-filled
  // outside the matrix) into the stage at shared address `stage`; advance to the next k-tile.
  template <bool kVec16>
  __device__ __forceinline__ static void copy_stage(Copier& c, uint32_t stage, const double* x, int64_t ld,
                                                    int64_t k_ext, int64_t k0) {
    const double* src = c.src;
    if constexpr (kMnContiguous) {
      // chunk = 2 consecutive mn at one k: bytes limited by mn (edge), whole chunk in or out along k.
      const int64_t rows = k_ext - k0 - c.row0;
      const int rows_left = rows < kRows ? static_cast<int>(rows) : kRows;
      const uint32_t chunk16 = static_cast<uint32_t>(c.chunk * kChunkBytes);
#pragma unroll
      for (int it = 0; it < kCopies; ++it) {
        // Row row0 + it * kRowStep; its swizzle needs (row / 4) % 4, known at compile time when row0 < 4.
        int t_row;
        if constexpr (kRowStep <= kKPerLane) t_row = ((it * kRowStep) >> 2) & 3;
        else t_row = ((c.row0 >> 2) + it * (kRowStep >> 2)) & 3;
        const uint32_t dst =
            stage + c.dst0 + it * kRowStep * kRowBytes + (chunk16 ^ (swizzle_k_row(t_row << 2) * kChunkBytes));
        copy_chunk<kVec16>(dst, src, it * kRowStep < rows_left ? c.edge : 0, x);
        src += kRowStep * ld;
      }
      c.src += kTileK * ld;
    } else {
      // chunk = 2 consecutive k at one mn: bytes limited by k, whole chunk in or out along mn (edge).
      const int k_bytes = clamp_bytes((k_ext - k0 - c.chunk * kChunkDoubles) * 8);
#pragma unroll
      for (int it = 0; it < kCopies; ++it) {
        uint32_t dst;
        if constexpr (kRowStep % (2 * kPer) == 0) {
          dst = stage + c.dst0 + it * kRowStep * kRowBytes;  // swizzle parity equal to row0's
        } else {
          dst = stage + chunk_offset(c.row0 + it * kRowStep, c.chunk);
        }
        copy_chunk<kVec16>(dst, src, it * kRowStep < c.edge ? k_bytes : 0, x);
        src += kRowStep * ld;
      }
      c.src += kTileK;
    }
  }

  // The copies of a k-tile that lies wholly inside the matrix (every chunk 16 bytes in bounds): no byte
  // counts, no edge compares, no fallback pointers, and only a source pointer and one shared-memory
  // offset live across the main loop. ncu on the H100 (n = 4096) showed the general path above costing
  // ~200 integer instructions per k-tile per thread (64-bit edge compares and selects), 1.6x cuBLAS's
  // instructions per DMMA, and the tensor pipe idled while the 2 warps per scheduler issued them. The
  // kernel uses these copies for every k-tile of an interior block except the k-edge tail.
  struct FullCopier {
    const double* src;  // the thread's first chunk in the next k-tile to copy
    uint32_t dst0;      // byte offset in a stage of the thread's first chunk, before the swizzle (mn-
                        // contiguous) or with it (k-contiguous)
  };
  __device__ __forceinline__ static FullCopier make_full_copier(const double* x, int64_t ld, int64_t mn0,
                                                               int64_t k_start, int tid) {
    const int chunk = tid % kRowChunks, row0 = tid / kRowChunks;
    FullCopier c;
    if constexpr (kMnContiguous) {
      static_assert(kRowStep <= kKPerLane,
                    "each copied row's swizzle must be known at compile time: rows row0 + it * kRowStep with "
                    "row0 < kRowStep <= 4 have (row / 4) % 4 = (it * kRowStep / 4) % 4");
      c.src = x + (k_start + row0) * ld + mn0 + chunk * kChunkDoubles;
      // The swizzle XORs chunk bits 0..2 (bytes 16..127): it commutes with adding multiples of 128 bytes
      // (row and stage offsets), so the copies add the stage offset and XOR a compile-time swizzle.
      c.dst0 = static_cast<uint32_t>(row0 * kRowBytes + chunk * kChunkBytes);
    } else {
      c.src = x + (mn0 + row0) * ld + k_start + chunk * kChunkDoubles;
      c.dst0 = chunk_offset(row0, chunk);
    }
    return c;
  }
  // smem: shared address of the operand's stage 0; stage_off: byte offset of the stage (a multiple of
  // 128, so the swizzle XOR may be applied after adding it).
  template <bool kVec16>
  __device__ __forceinline__ static void copy_stage_full(FullCopier& c, uint32_t smem, uint32_t stage_off,
                                                         int64_t ld) {
    const double* src = c.src;
    const uint32_t base = stage_off + c.dst0;
    if constexpr (kMnContiguous) {
#pragma unroll
      for (int it = 0; it < kCopies; ++it) {
        // Row row0 + it * kRowStep; its swizzle needs (row / 4) % 4 (see make_full_copier).
        const int t_row = ((it * kRowStep) >> 2) & 3;
        const uint32_t dst = smem + (base ^ static_cast<uint32_t>(swizzle_k_row(t_row << 2) * kChunkBytes)) +
                             static_cast<uint32_t>(it * kRowStep * kRowBytes);
        copy_full<kVec16>(dst, src);
        src += kRowStep * ld;
      }
      c.src += kTileK * ld;
    } else {
      static_assert(kRowStep % kPer == 0,
                    "the swizzle parity of row row0 + it * kRowStep must be row0's, flipped by it * kRowStep / kPer");
#pragma unroll
      for (int it = 0; it < kCopies; ++it) {
        const uint32_t flip = ((it * kRowStep / kPer) & 1) * kChunkBytes;
        copy_full<kVec16>(smem + (base ^ flip) + it * kRowStep * kRowBytes, src);
        src += kRowStep * ld;
      }
      c.src += kTileK;
    }
  }
  template <bool kVec16>
  __device__ __forceinline__ static void copy_full(uint32_t dst, const double* src) {
    if constexpr (kVec16) {
      cp_async_16_full(dst, src);
    } else {
      cp_async_8_full(dst, src);
      cp_async_8_full(dst + 8, src + 1);
    }
  }

  // Per-lane byte offsets (inside a stage) of the lane's fragment loads; warp_mn0 = warp's first mn.
  struct Lane {
    uint32_t off[kMnContiguous ? kPer / kChunkDoubles : 2];
  };
  __device__ __forceinline__ static Lane lane_offsets(int lane, int warp_mn0) {
    const int g = lane >> 2, t = lane & 3;
    Lane l;
    if constexpr (kMnContiguous) {
      // k row 4t (+ slab, + v: compile-time), chunks of mn warp_mn0 + kPer*g .. + kPer.
      const int chunk0 = (warp_mn0 + kPer * g) / kChunkDoubles;
#pragma unroll
      for (int c = 0; c < kPer / kChunkDoubles; ++c) l.off[c] = chunk_offset(kKPerLane * t, chunk0 + c);
    } else {
      // mn row warp_mn0 + kPer*g (+ q: compile-time), chunk 2t + p of the slab (p = which k pair).
      const int row = warp_mn0 + kPer * g;
#pragma unroll
      for (int p = 0; p < 2; ++p) l.off[p] = chunk_offset(row, 2 * t + p);
    }
    return l;
  }

  // Load the lane's values for physical k [4t + v0, 4t + v0 + kGv) of slab `slab`: frag[v][q], q < kPer.
  template <int kSlab, int kV0, int kGv>
  __device__ __forceinline__ static void load(double (&frag)[kGv][kPer], const char* stage, const Lane& l) {
    if constexpr (kMnContiguous) {
#pragma unroll
      for (int v = 0; v < kGv; ++v)
#pragma unroll
        for (int c = 0; c < kPer / kChunkDoubles; ++c) {
          const double2 x = *reinterpret_cast<const double2*>(stage + l.off[c] +
                                                              (kSlab * kSlabK + kV0 + v) * kRowBytes);
          frag[v][2 * c] = x.x;
          frag[v][2 * c + 1] = x.y;
        }
    } else {
      static_assert(kV0 % 2 == 0 && kGv % 2 == 0, "k-contiguous loads deliver k in pairs");
#pragma unroll
      for (int pp = 0; pp < kGv / 2; ++pp)
#pragma unroll
        for (int q = 0; q < kPer; ++q) {
          // The slab's chunks start kSlab * 8 chunks into the row; the swizzle only touches bit 0.
          const double2 x = *reinterpret_cast<const double2*>(
              stage + l.off[kV0 / 2 + pp] + q * kRowBytes + kSlab * (kSlabK / kChunkDoubles) * kChunkBytes);
          frag[2 * pp][q] = x.x;
          frag[2 * pp + 1][q] = x.y;
        }
    }
  }

  // kPipeStep: ring of two k4-step buffers. mn-contiguous: x[b][0][q] = value of step with parity b.
  // k-contiguous: x[b][w][q] = k pair b (steps 2p, 2p + 1 -> w = 0, 1), loaded at the pair's first step.
  struct Ring {
    double x[2][2][kPer];
  };
  template <int kStep>
  __device__ __forceinline__ static void load_step(Ring& r, const char* stage, const Lane& l) {
    constexpr int kSlab = kStep / kKPerLane, kV = kStep % kKPerLane;
    if constexpr (kMnContiguous) {
#pragma unroll
      for (int c = 0; c < kPer / kChunkDoubles; ++c) {
        const double2 x =
            *reinterpret_cast<const double2*>(stage + l.off[c] + (kSlab * kSlabK + kV) * kRowBytes);
        r.x[kStep & 1][0][2 * c] = x.x;
        r.x[kStep & 1][0][2 * c + 1] = x.y;
      }
    } else if constexpr (kV % 2 == 0) {
#pragma unroll
      for (int q = 0; q < kPer; ++q) {
        const double2 x = *reinterpret_cast<const double2*>(
            stage + l.off[kV / 2] + q * kRowBytes + kSlab * (kSlabK / kChunkDoubles) * kChunkBytes);
        r.x[(kStep >> 1) & 1][0][q] = x.x;
        r.x[(kStep >> 1) & 1][1][q] = x.y;
      }
    }
  }
  template <int kStep>
  __device__ __forceinline__ static double step_value(const Ring& r, int q) {
    if constexpr (kMnContiguous) return r.x[kStep & 1][0][q];
    else return r.x[(kStep >> 1) & 1][kStep & 1][q];
  }
};

// ---- the kernel --------------------------------------------------------------------------------------
template <int kTileM_, int kTileN_, int kTileK_, int kWarpsM_, int kWarpsN_, int kMmaK_, bool kAMnContiguous,
          bool kBMnContiguous, bool kVec16_, int kPipeline_ = 1, int kMinBlocks_ = 1, bool kTransposeC_ = false>
struct Traits {
  // kTransposeC: the kernel computes D = L R with L = op(B)^T, R = op(A)^T and stores D^T into C. The
  // launcher uses it for transa = transb = 'T': then L = B is mn-contiguous and R = A k-contiguous, the
  // layout pair whose 16-byte fragment loads land directly in the DMMA operand registers (as for 'N','N').
  static constexpr bool kTransposeC = kTransposeC_;
  // kVec16: both operands are copied in 16-byte chunks (both bases 16-byte aligned, both leading
  // dimensions even); otherwise both in 8-byte elements. Two instances rather than a run-time branch:
  // with both copy paths in one kernel the hoisted address arithmetic of the 8-byte path costs the
  // 16-byte path ~20 registers and pushed 64x32 warp tiles into spills.
  static constexpr bool kVec16 = kVec16_;
  // kPipeline: how fragment loads overlap the MMAs (shared memory -> registers).
  //   kPipeNone:  each k-group is loaded right before its MMAs; other warps hide the latency.
  //   kPipeGroup: the next k-group (8 or 16 k) is loaded before the current group's MMAs.
  //   kPipeStep:  the next k4 step is loaded before the current step's m16n8k4 MMAs. Per operand a ring
  //               of two buffers: one k row (mn-contiguous) or one k pair (k-contiguous, as delivered by
  //               a 16-byte load). Needs half the fragment registers of kPipeGroup.
  // kPipeGroup and kPipeStep load the first fragments of the next stage before the last MMAs of the
  // current one, so the tensor pipe has queued work while warps wait at the stage barrier.
  static constexpr int kPipeline = kPipeline_;
  static constexpr int kTileM = kTileM_, kTileN = kTileN_, kTileK = kTileK_;
  static constexpr int kWarpsM = kWarpsM_, kWarpsN = kWarpsN_;
  static constexpr int kThreads = kWarpsM * kWarpsN * 32;
  static constexpr int kWarpM = kTileM / kWarpsM;
  static constexpr int kWarpN = kTileN / kWarpsN;
  static constexpr int kMTiles = kWarpM / kMmaM;  // m16 tiles per warp
  static constexpr int kNTiles = kWarpN / kMmaN;  // n8 tiles per warp
  static constexpr int kRowsPerLane = kWarpM / 8;  // = 2 * kMTiles
  static constexpr int kColsPerLane = kNTiles;     // B columns per lane (C columns: 2 * kNTiles)
  static constexpr int kMmaKShape = kMmaK_;
  static constexpr int kGroupK = kMmaK_ > 8 ? kMmaK_ : 8;  // k per register-buffered fragment group
  static constexpr int kGv = kGroupK / kLanesPerGroup;    // physical k per lane per group
  static constexpr int kGroups = kTileK / kGroupK;        // groups per stage
  static constexpr int kStepsPerGroup = kGroupK / kMmaK_;
  using ATile = OperandTile<kTileM, kTileK, kThreads, kRowsPerLane, kAMnContiguous>;
  using BTile = OperandTile<kTileN, kTileK, kThreads, kColsPerLane, kBMnContiguous>;
  static constexpr int kStageBytes = ATile::kStageBytes + BTile::kStageBytes;
  static constexpr int kMinBlocksPerSm = kMinBlocks_;
  static constexpr int kSteps = kTileK / kLanesPerGroup;  // k4 steps per stage
  static_assert(kPipeline != kPipeStep || kMmaK_ == 4, "the k4-step pipeline issues m16n8k4 MMAs");

  static_assert(kMmaK_ == 4 || kMmaK_ == 8 || kMmaK_ == 16, "mma k-shape is 4, 8 or 16");
  static_assert(kTileM % (kWarpsM * kMmaM) == 0, "tile_m must split into warps_m warp rows of whole m16 tiles");
  static_assert(kTileN % (kWarpsN * kMmaN) == 0, "tile_n must split into warps_n warp columns of whole n8 tiles");
  static_assert(kTileK % kGroupK == 0, "tile_k must be a multiple of the fragment group depth");
  static_assert(kThreads <= 1024, "at most 1024 threads per block");
};

__host__ __device__ constexpr int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

template <class T>
__global__ void __launch_bounds__(T::kThreads, T::kMinBlocksPerSm) sm90_mma_kernel(const Params p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  using ATile = typename T::ATile;
  using BTile = typename T::BTile;
  constexpr int kMT = T::kMTiles, kNT = T::kNTiles, kRT = T::kRowsPerLane, kGv = T::kGv;

  extern __shared__ __align__(128) unsigned char sm90_smem[];
  const int stages = p.stages;
  char* const a_smem = reinterpret_cast<char*>(sm90_smem);
  char* const b_smem = a_smem + stages * ATile::kStageBytes;

  const int tid = threadIdx.x;
  const int lane = tid & 31;
  const int warp = tid >> 5;
  const int warp_m0 = (warp % T::kWarpsM) * T::kWarpM;
  const int warp_n0 = (warp / T::kWarpsM) * T::kWarpN;

  // Rasterization: groups of kRasterGroupM tile rows, tile rows fastest inside a group.
  // 32-bit division when the tile grid allows it: 64-bit divisions are emulated (hundreds of instructions
  // per block, ~1% of a block's work at n = 2048).
  int64_t tile_row, tile_col;
  if (p.tiles_m * p.tiles_n <= INT32_MAX && p.tiles_n <= INT32_MAX / kRasterGroupM) {
    const uint32_t bid = blockIdx.x, tiles_m = static_cast<uint32_t>(p.tiles_m);
    const uint32_t per_group = kRasterGroupM * static_cast<uint32_t>(p.tiles_n);
    const uint32_t first_tm = (bid / per_group) * kRasterGroupM;
    const uint32_t group_rows = (tiles_m - first_tm) < kRasterGroupM ? (tiles_m - first_tm) : kRasterGroupM;
    const uint32_t in_group = bid % per_group;
    tile_row = first_tm + in_group % group_rows;
    tile_col = in_group / group_rows;
  } else {
    const int64_t bid = static_cast<int64_t>(blockIdx.x);
    const int64_t per_group = static_cast<int64_t>(kRasterGroupM) * p.tiles_n;
    const int64_t first_tm = (bid / per_group) * kRasterGroupM;
    const int64_t group_rows = (p.tiles_m - first_tm) < kRasterGroupM ? (p.tiles_m - first_tm) : kRasterGroupM;
    const int64_t in_group = bid % per_group;
    tile_row = first_tm + in_group % group_rows;
    tile_col = in_group / group_rows;
  }
  const int64_t m0 = tile_row * T::kTileM;
  const int64_t n0 = tile_col * T::kTileN;
  // The tile origin is parked in shared memory and read back after the first main loop: kept in registers
  // across it, it was spilled (the first loop holds 224 of 255 registers in accumulators and fragments).
  __shared__ int64_t tile_origin[2];
  static_assert(sizeof(tile_origin) == kSm90StaticSmemBytes,
                "config_rules.hpp counts this static shared memory in sm90_smem_bytes()");
  if (tid == 0) {
    tile_origin[0] = m0;
    tile_origin[1] = n0;
  }

  // int: k tiles of a matrix that fits in device memory stay far below 2^31.
  const int ktiles = static_cast<int>(ceil_div(p.k, T::kTileK));

  const uint32_t a_smem_addr = smem_address(a_smem), b_smem_addr = smem_address(b_smem);
  // Copies of k-tile kt (k0 = kt * tile_k) into `stage` with full edge handling; the copiers step through
  // consecutive k-tiles. Past the last k-tile only an empty group is committed, which keeps the wait
  // counts uniform.
  auto issue_general = [&](typename ATile::Copier& ac, typename BTile::Copier& bc, int stage, int kt) {
    if (kt < ktiles) {
      const int64_t k0 = static_cast<int64_t>(kt) * T::kTileK;
      ATile::template copy_stage<T::kVec16>(ac, a_smem_addr + stage * ATile::kStageBytes, p.A, p.lda, p.k, k0);
      BTile::template copy_stage<T::kVec16>(bc, b_smem_addr + stage * BTile::kStageBytes, p.B, p.ldb, p.k, k0);
    }
    cp_async_commit();
  };

  const typename ATile::Lane a_lane = ATile::lane_offsets(lane, warp_m0);
  const typename BTile::Lane b_lane = BTile::lane_offsets(lane, warp_n0);

  double acc[kMT][kNT][4];
#pragma unroll
  for (int i = 0; i < kMT; ++i)
#pragma unroll
    for (int j = 0; j < kNT; ++j)
#pragma unroll
      for (int r = 0; r < 4; ++r) acc[i][j][r] = 0.0;

  struct Frag {
    double a[kGv][kRT];
    double b[kGv][kNT];
  };
  auto load_group = [&](Frag& f, int stage, auto group_tag) {
    constexpr int kGroup = decltype(group_tag)::value;
    constexpr int kK = kGroup * T::kGroupK;
    constexpr int kSlab = kK / kSlabK, kV0 = (kK % kSlabK) / kLanesPerGroup;
    ATile::template load<kSlab, kV0, kGv>(f.a, a_smem + stage * ATile::kStageBytes, a_lane);
    BTile::template load<kSlab, kV0, kGv>(f.b, b_smem + stage * BTile::kStageBytes, b_lane);
  };
  auto mma_group = [&](const Frag& f) {
    using M = Mma<T::kMmaKShape>;
    constexpr int kWPerStep = T::kMmaKShape / kLanesPerGroup;
#pragma unroll
    for (int s = 0; s < T::kStepsPerGroup; ++s)
#pragma unroll
      for (int i = 0; i < kMT; ++i) {
        double a[M::kARegs];
#pragma unroll
        for (int r = 0; r < M::kARegs; ++r) a[r] = f.a[s * kWPerStep + (r >> 1)][2 * i + (r & 1)];
#pragma unroll
        for (int j = 0; j < kNT; ++j) {
          double b[M::kBRegs];
#pragma unroll
          for (int r = 0; r < M::kBRegs; ++r) b[r] = f.b[s * kWPerStep + r][j];
          M::run(acc[i][j], a, b);
        }
      }
  };

  int read_stage = 0;
  int write_stage = stages - 1;

  // Prologue: stages - 1 k-tiles in flight.
  {
    typename ATile::Copier ac = ATile::make_copier(p.A, p.lda, p.m, m0, 0, tid);
    typename BTile::Copier bc = BTile::make_copier(p.B, p.ldb, p.n, n0, 0, tid);
    for (int s = 0; s < stages - 1; ++s) issue_general(ac, bc, s, s);
  }
  cp_async_wait_pending(stages - 2);
  __syncthreads();

  // Fragment state carried from one main-loop iteration to the next (only the pipeline's own is used).
  Frag cur;
  typename ATile::Ring a_ring;
  typename BTile::Ring b_ring;
  if constexpr (T::kPipeline == kPipeStep) {
    ATile::template load_step<0>(a_ring, a_smem, a_lane);
    BTile::template load_step<0>(b_ring, b_smem, b_lane);
  } else if constexpr (T::kPipeline == kPipeGroup) {
    load_group(cur, 0, std::integral_constant<int, 0>{});
  }

  // Main-loop iterations [kt_begin, kt_end): iteration kt multiplies k-tile kt and issues the copies of
  // k-tile kt + stages - 1 through issue(stage, kt).
  auto main_loop = [&](int kt_begin, int kt_end, auto&& issue, auto pipeline_tag) {
    constexpr int kPipeline = decltype(pipeline_tag)::value;
    if constexpr (kPipeline == kPipeStep) {
      for (int kt = kt_begin; kt < kt_end; ++kt) {
        static_for<0, T::kSteps>([&](auto step_tag) {
          constexpr int kStep = decltype(step_tag)::value;
          if constexpr (kStep == 0) {
            issue(write_stage, kt + stages - 1);
            write_stage = (write_stage + 1 == stages) ? 0 : write_stage + 1;
          }
          if constexpr (kStep == T::kSteps - 1) {
            // k-tile kt + 1 must have landed, and every warp must be done reading k-tile kt - 1's buffer
            // (the next copy target) before the barrier is passed.
            cp_async_wait_pending(stages - 2);
            __syncthreads();
            read_stage = (read_stage + 1 == stages) ? 0 : read_stage + 1;
            if (kt + 1 < ktiles) {
              ATile::template load_step<0>(a_ring, a_smem + read_stage * ATile::kStageBytes, a_lane);
              BTile::template load_step<0>(b_ring, b_smem + read_stage * BTile::kStageBytes, b_lane);
            }
          } else {
            ATile::template load_step<kStep + 1>(a_ring, a_smem + read_stage * ATile::kStageBytes, a_lane);
            BTile::template load_step<kStep + 1>(b_ring, b_smem + read_stage * BTile::kStageBytes, b_lane);
          }
#pragma unroll
          for (int i = 0; i < kMT; ++i) {
            const double a[2] = {ATile::template step_value<kStep>(a_ring, 2 * i),
                                 ATile::template step_value<kStep>(a_ring, 2 * i + 1)};
#pragma unroll
            for (int j = 0; j < kNT; ++j) {
              const double b[1] = {BTile::template step_value<kStep>(b_ring, j)};
              Mma<4>::run(acc[i][j], a, b);
            }
          }
        });
      }
    } else if constexpr (kPipeline == kPipeGroup) {
      for (int kt = kt_begin; kt < kt_end; ++kt) {
        // Groups of this stage, unrolled; the last one crosses over to the next stage.
        static_for<0, T::kGroups>([&](auto group_tag) {
          constexpr int kGroup = decltype(group_tag)::value;
          if constexpr (kGroup == 0) {
            // Copies first: their address arithmetic then dies before the fragment buffers fill up.
            issue(write_stage, kt + stages - 1);
            write_stage = (write_stage + 1 == stages) ? 0 : write_stage + 1;
          }
          Frag next;
          if constexpr (kGroup == T::kGroups - 1) {
            // k-tile kt + 1 must have landed, and every warp must be done reading k-tile kt - 1's buffer
            // (the next copy target) before the barrier is passed.
            cp_async_wait_pending(stages - 2);
            __syncthreads();
            read_stage = (read_stage + 1 == stages) ? 0 : read_stage + 1;
            if (kt + 1 < ktiles) load_group(next, read_stage, std::integral_constant<int, 0>{});
          } else {
            load_group(next, read_stage, std::integral_constant<int, kGroup + 1>{});
          }
          mma_group(cur);
          cur = next;
        });
      }
    } else {
      for (int kt = kt_begin; kt < kt_end; ++kt) {
        static_for<0, T::kGroups>([&](auto group_tag) {
          constexpr int kGroup = decltype(group_tag)::value;
          if constexpr (kGroup == 0) {
            issue(write_stage, kt + stages - 1);
            write_stage = (write_stage + 1 == stages) ? 0 : write_stage + 1;
          }
          Frag f;
          load_group(f, read_stage, group_tag);
          mma_group(f);
        });
        // k-tile kt + 1 must have landed, and every warp must be done reading k-tile kt (the buffer the
        // next iteration's copy overwrites once stages - 1 iterations later) before the barrier is passed.
        cp_async_wait_pending(stages - 2);
        __syncthreads();
        read_stage = (read_stage + 1 == stages) ? 0 : read_stage + 1;
      }
    }
  };

  // Two copies of the main loop. The first runs while every k-tile it copies is wholly inside the matrix
  // (interior blocks: C tile inside m x n, k-tile inside k) with the edge-free copies, whose state is one
  // source pointer and one offset per operand: ncu at n = 4096 showed the edge-handling copies costing
  // ~200 integer instructions per k-tile per thread (64-bit compares and selects; 1.6x cuBLAS's
  // instructions per DMMA), and keeping both kinds live in one loop pushed 64x32 warp tiles into spills.
  // The second loop covers the rest (edge blocks: all of it; interior blocks: the last stages - 1
  // k-tiles and a partial k-tile) with the general copies, set up afresh where the first loop stopped.
  // The second loop loads fragments right before use (kPipeNone; any pipeline may hand over to it, as
  // each leaves the barrier after k-tile kt - 1 passed and reads k-tile kt from read_stage): the general
  // copies' state and double-buffered fragments together exceed 255 registers for 64x32 warp tiles.
  constexpr int kEdgePipeline = kPipeNone;
  const bool mn_interior = m0 + T::kTileM <= p.m && n0 + T::kTileN <= p.n;
  const int full_ktiles = mn_interior ? static_cast<int>(p.k / T::kTileK) : 0;
  int split = full_ktiles - (stages - 1);
  split = split < 0 ? 0 : split;
  {
    typename ATile::FullCopier ac = ATile::make_full_copier(p.A, p.lda, m0, int64_t(stages - 1) * T::kTileK, tid);
    typename BTile::FullCopier bc = BTile::make_full_copier(p.B, p.ldb, n0, int64_t(stages - 1) * T::kTileK, tid);
    main_loop(0, split, [&](int stage, int) {
      ATile::template copy_stage_full<T::kVec16>(ac, a_smem_addr, stage * ATile::kStageBytes, p.lda);
      BTile::template copy_stage_full<T::kVec16>(bc, b_smem_addr, stage * BTile::kStageBytes, p.ldb);
      cp_async_commit();
    }, std::integral_constant<int, T::kPipeline>{});
  }
  // Reload the tile origin (written before the prologue's barrier); the loops' "memory" clobbers keep
  // the compiler from carrying the old registers across.
  const int64_t tile_m0 = tile_origin[0], tile_n0 = tile_origin[1];
  const int tid2 = thread_index_reread();
  {
    const int64_t k_next = int64_t(split + stages - 1) * T::kTileK;
    typename ATile::Copier ac = ATile::make_copier(p.A, p.lda, p.m, tile_m0, k_next, tid2);
    typename BTile::Copier bc = BTile::make_copier(p.B, p.ldb, p.n, tile_n0, k_next, tid2);
    main_loop(split, ktiles, [&](int stage, int kt) { issue_general(ac, bc, stage, kt); },
              std::integral_constant<int, kEdgePipeline>{});
  }
  cp_async_wait<0>();  // nothing may be in flight into shared memory when the block exits

  // Epilogue. Lane (g, t) owns rows [kRT*g, kRT*g + kRT) and columns [2*kNT*t, 2*kNT*t + 2*kNT) of the
  // warp tile: row index 2i + h (m-tile i, half h), column index kNT*e + j (n-tile j, accumulator column e).
  const int g = (tid2 & 31) >> 2, t = tid2 & 3;
  const int64_t row0 = tile_m0 + ((tid2 >> 5) % T::kWarpsM) * T::kWarpM + kRT * g;
  const int64_t col0 = tile_n0 + ((tid2 >> 5) / T::kWarpsM) * T::kWarpN + 2 * kNT * t;
  const bool read_c = p.beta != 0.0;
  if constexpr (!T::kTransposeC) {
    // C column col: the lane's kRT rows are contiguous; pairs (2i, 2i + 1) are 16-byte stores.
    const bool vec_c = p.c_vec16 != 0 && row0 + kRT <= p.m;
#pragma unroll
    for (int e = 0; e < 2; ++e)
#pragma unroll
      for (int j = 0; j < kNT; ++j) {
        const int64_t col = col0 + kNT * e + j;
        if (col >= p.n) continue;
        double* c = p.C + col * p.ldc + row0;
        if (vec_c) {
#pragma unroll
          for (int i = 0; i < kMT; ++i) {
            double2 v;
            v.x = p.alpha * acc[i][j][e];
            v.y = p.alpha * acc[i][j][2 + e];
            if (read_c) {
              const double2 old = *reinterpret_cast<const double2*>(c + 2 * i);
              v.x = fma(p.beta, old.x, v.x);
              v.y = fma(p.beta, old.y, v.y);
            }
            *reinterpret_cast<double2*>(c + 2 * i) = v;
          }
        } else {
#pragma unroll
          for (int i = 0; i < kMT; ++i)
#pragma unroll
            for (int h = 0; h < 2; ++h) {
              if (row0 + 2 * i + h >= p.m) continue;
              double v = p.alpha * acc[i][j][2 * h + e];
              if (read_c) v = fma(p.beta, c[2 * i + h], v);
              c[2 * i + h] = v;
            }
        }
      }
  } else {
    // D row r is C column r: the lane's 2 kNT D columns are contiguous C rows; pairs (j, j + 1) of one
    // accumulator column e are 16-byte stores.
    const bool vec_c = p.c_vec16 != 0 && col0 + 2 * kNT <= p.n;
#pragma unroll
    for (int i = 0; i < kMT; ++i)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int64_t row = row0 + 2 * i + h;
        if (row >= p.m) continue;
        double* c = p.C + row * p.ldc + col0;
        if (vec_c) {
#pragma unroll
          for (int e = 0; e < 2; ++e)
#pragma unroll
            for (int j = 0; j < kNT; j += 2) {
              double2 v;
              v.x = p.alpha * acc[i][j][2 * h + e];
              v.y = p.alpha * acc[i][j + 1][2 * h + e];
              if (read_c) {
                const double2 old = *reinterpret_cast<const double2*>(c + kNT * e + j);
                v.x = fma(p.beta, old.x, v.x);
                v.y = fma(p.beta, old.y, v.y);
              }
              *reinterpret_cast<double2*>(c + kNT * e + j) = v;
            }
        } else {
#pragma unroll
          for (int e = 0; e < 2; ++e)
#pragma unroll
            for (int j = 0; j < kNT; ++j) {
              if (col0 + kNT * e + j >= p.n) continue;
              double v = p.alpha * acc[i][j][2 * h + e];
              if (read_c) v = fma(p.beta, c[kNT * e + j], v);
              c[kNT * e + j] = v;
            }
        }
      }
  }
#else
  // Built for an architecture without m16n8k*.f64: the launcher's check_kernel_image() keeps this from
  // ever running; trap loudly if it does.
  __trap();
#endif
}

// ---- host helpers ------------------------------------------------------------------------------------
// Dynamic shared memory of one block: `stages` A and B slabs, no padding.
constexpr int64_t smem_bytes(int tile_m, int tile_n, int tile_k, int stages) {
  return static_cast<int64_t>(stages) * (tile_m + tile_n) * tile_k * static_cast<int64_t>(sizeof(double));
}

// True when 16-byte accesses to every column of a column-major matrix are aligned.
inline bool vec16_ok(const void* base, int64_t ld) {
  return (reinterpret_cast<uintptr_t>(base) % kChunkBytes) == 0 && (ld % kChunkDoubles) == 0;
}

// The four operand forms. 'T','T' runs as D = B A (both transposed back) with C written transposed, so
// that its left operand is mn-contiguous and its right operand k-contiguous, as in 'N','N'.
enum Form : int { kFormNN = 0, kFormNT = 1, kFormTN = 2, kFormTT = 3 };
constexpr bool form_left_mn_contiguous(int form) { return form != kFormTN; }
constexpr bool form_right_mn_contiguous(int form) { return form == kFormNT; }
constexpr bool form_transpose_c(int form) { return form == kFormTT; }
constexpr int mma_k_for_pipeline(int pipeline) { return pipeline == kPipeStep ? 4 : 8; }

// One kernel family: a block shape plus the fragment pipeline used for each form. Instance<form, vec16>
// is the kernel configuration for one call.
template <int kTileM, int kTileN, int kTileK, int kWarpsM, int kWarpsN, int kMinBlocks, int kPipeNN, int kPipeNT,
          int kPipeTN>
struct Family {
  static constexpr int pipeline(int form) {
    return form == kFormNT ? kPipeNT : (form == kFormTN ? kPipeTN : kPipeNN);
  }
  template <int kForm, bool kVec16>
  using Instance = Traits<kTileM, kTileN, kTileK, kWarpsM, kWarpsN, mma_k_for_pipeline(pipeline(kForm)),
                          form_left_mn_contiguous(kForm), form_right_mn_contiguous(kForm), kVec16, pipeline(kForm),
                          kMinBlocks, form_transpose_c(kForm)>;
};

// What one call runs: the form, the copy width and the kernel parameters. transa, transb are 'N' or 'T'.
struct Plan {
  int form;
  bool vec16;
  Params params;
};
inline Plan make_plan(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha, const double* A,
                      int64_t lda, const double* B, int64_t ldb, double beta, double* C, int64_t ldc, int tile_m,
                      int tile_n, int stages) {
  Plan plan{};
  plan.form = transa == 'N' ? (transb == 'N' ? kFormNN : kFormNT) : (transb == 'N' ? kFormTN : kFormTT);
  // Both operands 16-byte copyable: base 16-byte aligned and leading dimension even.
  plan.vec16 = vec16_ok(A, lda) && vec16_ok(B, ldb);
  const bool swap = form_transpose_c(plan.form);
  Params& p = plan.params;
  p.A = swap ? B : A;
  p.lda = swap ? ldb : lda;
  p.B = swap ? A : B;
  p.ldb = swap ? lda : ldb;
  p.m = swap ? n : m;
  p.n = swap ? m : n;
  p.k = k;
  p.C = C;
  p.ldc = ldc;
  p.alpha = alpha;
  p.beta = beta;
  p.tiles_m = ceil_div(p.m, tile_m);
  p.tiles_n = ceil_div(p.n, tile_n);
  p.stages = stages;
  p.c_vec16 = vec16_ok(C, ldc) ? 1 : 0;
  return plan;
}

// Calls f(type_tag<Instance>{}) for the instance of Fam that runs `plan`; returns what f returns.
template <class T>
struct type_tag {
  using type = T;
};
template <class Fam, class F>
decltype(auto) with_instance(const Plan& plan, F&& f) {
  switch (plan.form * 2 + (plan.vec16 ? 1 : 0)) {
    case kFormNN * 2 + 1: return f(type_tag<typename Fam::template Instance<kFormNN, true>>{});
    case kFormNN * 2: return f(type_tag<typename Fam::template Instance<kFormNN, false>>{});
    case kFormNT * 2 + 1: return f(type_tag<typename Fam::template Instance<kFormNT, true>>{});
    case kFormNT * 2: return f(type_tag<typename Fam::template Instance<kFormNT, false>>{});
    case kFormTN * 2 + 1: return f(type_tag<typename Fam::template Instance<kFormTN, true>>{});
    case kFormTN * 2: return f(type_tag<typename Fam::template Instance<kFormTN, false>>{});
    case kFormTT * 2 + 1: return f(type_tag<typename Fam::template Instance<kFormTT, true>>{});
    default: return f(type_tag<typename Fam::template Instance<kFormTT, false>>{});
  }
}

// Enqueue kernel instance T over the whole C tile grid in one launch (one-dimensional grid; rasterization
// is done in the kernel). Validation (check_grid) guarantees at most 2^31 - 1 tiles, so a failed launch
// means nothing ran.
template <class T>
cudaError_t launch_grid(const Params& p, cudaStream_t stream) {
  const size_t smem = static_cast<size_t>(smem_bytes(T::kTileM, T::kTileN, T::kTileK, p.stages));
  sm90_mma_kernel<T><<<static_cast<unsigned>(p.tiles_m * p.tiles_n), T::kThreads, smem, stream>>>(p);
  return cudaGetLastError();
}

}  // namespace tcgemm::detail::sm90
