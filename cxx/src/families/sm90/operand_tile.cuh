// sm90_mma: one operand's shared-memory tile (layout, swizzle, the copies into it and the fragment loads
// out of it). The layouts are described under "Shared-memory layouts" in kernel.cuh.
#pragma once

#include <cstdint>

#include "families/sm90/common.cuh"

namespace tcgemm::detail::sm90 {

// ---- one operand's shared-memory tile --------------------------------------------------------------
// kTileMn x kTileK k-block of op(X) for one stage. kMnPerLane = consecutive mn values a lane owns (A: rows per
// thread RT, B: columns per thread NT). kMnContiguous: element (mn, k) of op(X) is X[mn + k * ld]
// (stored [k][mn]); otherwise X[k + mn * ld] (stored [mn][k]).
template <int kTileMn, int kTileK, int kThreads, int kMnPerLane, bool kMnContiguous>
struct OperandTile {
  static constexpr int kStageDoubles = kTileMn * kTileK;
  static constexpr int kStageBytes = kStageDoubles * 8;
  // Row = one k (mn-contiguous) or one mn (k-contiguous), in bytes.
  static constexpr int kRowBytes = (kMnContiguous ? kTileMn : kTileK) * 8;
  static constexpr int kRowChunks = kRowBytes / kChunkBytes;
  static constexpr int kRows = kMnContiguous ? kTileK : kTileMn;

  static_assert(kTileK % kKBlock == 0, "tile_k must be a multiple of the 16-deep k-block");
  static_assert(kMnPerLane == 2 || kMnPerLane == 4 || kMnPerLane == 8,
                "a lane owns 2, 4 or 8 consecutive rows/columns (warp tile 16..64 wide): 16-byte fragment "
                "loads need at least 2, and the swizzle keeps a quarter-warp conflict-free only up to 8");
  static_assert(kRowChunks % kBankLineChunks == 0,
                "a shared-memory row must be whole 128-byte bank lines (tile_m, tile_n multiples of 16)");
  static_assert(kThreads % kRowChunks == 0 && kRows % (kThreads / kRowChunks) == 0,
                "the block's threads must copy whole rows of 16-byte chunks, the same count each");

  // mn-contiguous swizzle: chunk bits not used by the reading lane's g parity receive t = (k / 4) % 4.
  static constexpr int kGParityBit = log2_exact(kMnPerLane / kChunkDoubles);
  __device__ __forceinline__ static int swizzle_k_row(int k) {
    const int t = (k >> 2) & 3;
    if constexpr (kGParityBit == 2) return t;                           // bits 0,1
    else if constexpr (kGParityBit == 1) return (t & 1) | ((t & 2) << 1);  // bits 0,2
    else return t << 1;                                                 // bits 1,2
  }
  // k-contiguous swizzle: chunk bit 0 flips with the parity of the owning lane's g.
  __device__ __forceinline__ static int swizzle_mn_row(int row) { return (row / kMnPerLane) & 1; }

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
      arch::cp_async_zfill<16, kCopyClobber>(dst, bytes ? src : x, bytes);
    } else {
      const int lo = bytes < 8 ? bytes : 8;
      const int hi = bytes - lo;
      arch::cp_async_zfill<8, kCopyClobber>(dst, lo ? src : x, lo);
      arch::cp_async_zfill<8, kCopyClobber>(dst + 8, hi ? src + 1 : x, hi);
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
        if constexpr (kRowStep % (2 * kMnPerLane) == 0) {
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
      static_assert(kRowStep % kMnPerLane == 0,
                    "the swizzle parity of row row0 + it * kRowStep must be row0's, flipped by "
                    "it * kRowStep / kMnPerLane");
#pragma unroll
      for (int it = 0; it < kCopies; ++it) {
        const uint32_t flip = ((it * kRowStep / kMnPerLane) & 1) * kChunkBytes;
        copy_full<kVec16>(smem + (base ^ flip) + it * kRowStep * kRowBytes, src);
        src += kRowStep * ld;
      }
      c.src += kTileK;
    }
  }
  template <bool kVec16>
  __device__ __forceinline__ static void copy_full(uint32_t dst, const double* src) {
    if constexpr (kVec16) {
      arch::cp_async<16, kCopyClobber>(dst, src);
    } else {
      arch::cp_async<8, kCopyClobber>(dst, src);
      arch::cp_async<8, kCopyClobber>(dst + 8, src + 1);
    }
  }

  // Per-lane byte offsets (inside a stage) of the lane's fragment loads; warp_mn0 = warp's first mn.
  struct Lane {
    uint32_t off[kMnContiguous ? kMnPerLane / kChunkDoubles : 2];
  };
  __device__ __forceinline__ static Lane lane_offsets(int lane, int warp_mn0) {
    const int g = lane >> 2, t = lane & 3;
    Lane l;
    if constexpr (kMnContiguous) {
      // k row 4t (+ k-block, + v: compile-time), chunks of mn warp_mn0 + kMnPerLane*g .. + kMnPerLane.
      const int chunk0 = (warp_mn0 + kMnPerLane * g) / kChunkDoubles;
#pragma unroll
      for (int c = 0; c < kMnPerLane / kChunkDoubles; ++c) l.off[c] = chunk_offset(kKPerLane * t, chunk0 + c);
    } else {
      // mn row warp_mn0 + kMnPerLane*g (+ q: compile-time), chunk 2t + p of the k-block (p = which k pair).
      const int row = warp_mn0 + kMnPerLane * g;
#pragma unroll
      for (int p = 0; p < 2; ++p) l.off[p] = chunk_offset(row, 2 * t + p);
    }
    return l;
  }

  // Load the lane's values for physical k [4t + v0, 4t + v0 + kGroupKPerLane) of k-block kBlock:
  // frag[v][q], q < kMnPerLane.
  template <int kBlock, int kV0, int kGroupKPerLane>
  __device__ __forceinline__ static void load(double (&frag)[kGroupKPerLane][kMnPerLane], const char* stage,
                                              const Lane& l) {
    if constexpr (kMnContiguous) {
#pragma unroll
      for (int v = 0; v < kGroupKPerLane; ++v)
#pragma unroll
        for (int c = 0; c < kMnPerLane / kChunkDoubles; ++c) {
          const double2 x = *reinterpret_cast<const double2*>(stage + l.off[c] +
                                                              (kBlock * kKBlock + kV0 + v) * kRowBytes);
          frag[v][2 * c] = x.x;
          frag[v][2 * c + 1] = x.y;
        }
    } else {
      static_assert(kV0 % 2 == 0 && kGroupKPerLane % 2 == 0, "k-contiguous loads deliver k in pairs");
#pragma unroll
      for (int pp = 0; pp < kGroupKPerLane / 2; ++pp)
#pragma unroll
        for (int q = 0; q < kMnPerLane; ++q) {
          // The k-block's chunks start kBlock * 8 chunks into the row; the swizzle only touches bit 0.
          const double2 x = *reinterpret_cast<const double2*>(
              stage + l.off[kV0 / 2 + pp] + q * kRowBytes + kBlock * (kKBlock / kChunkDoubles) * kChunkBytes);
          frag[2 * pp][q] = x.x;
          frag[2 * pp + 1][q] = x.y;
        }
    }
  }

  // kPipeStep: ring of two k4-step buffers. mn-contiguous: x[b][0][q] = value of step with parity b.
  // k-contiguous: x[b][w][q] = k pair b (steps 2p, 2p + 1 -> w = 0, 1), loaded at the pair's first step.
  struct Ring {
    double x[2][2][kMnPerLane];
  };
  template <int kStep>
  __device__ __forceinline__ static void load_step(Ring& r, const char* stage, const Lane& l) {
    constexpr int kBlock = kStep / kKPerLane, kV = kStep % kKPerLane;
    if constexpr (kMnContiguous) {
#pragma unroll
      for (int c = 0; c < kMnPerLane / kChunkDoubles; ++c) {
        const double2 x =
            *reinterpret_cast<const double2*>(stage + l.off[c] + (kBlock * kKBlock + kV) * kRowBytes);
        r.x[kStep & 1][0][2 * c] = x.x;
        r.x[kStep & 1][0][2 * c + 1] = x.y;
      }
    } else if constexpr (kV % 2 == 0) {
#pragma unroll
      for (int q = 0; q < kMnPerLane; ++q) {
        const double2 x = *reinterpret_cast<const double2*>(
            stage + l.off[kV / 2] + q * kRowBytes + kBlock * (kKBlock / kChunkDoubles) * kChunkBytes);
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

}  // namespace tcgemm::detail::sm90
