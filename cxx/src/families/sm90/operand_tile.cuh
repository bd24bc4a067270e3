// sm90_mma: one operand's shared-memory tile (layout, swizzle, the copies into it and the fragment loads
// out of it). The layouts are described under "Shared-memory layouts" in README.md beside it.
#pragma once

#include <cstdint>

#include "families/sm90/common.cuh"

namespace tcgemm::detail::sm90 {

// ---- one operand's shared-memory tile --------------------------------------------------------------
// kTileMn x kTileK k-block of op(X) for one stage. kMnPerLane = consecutive mn values a lane owns (A: rows per
// thread RT, B: columns per thread NT). kMnContiguous: element (mn, k) of op(X) is X[mn + k * ld]
// (stored [k][mn]); otherwise X[k + mn * ld] (stored [mn][k]).
// kVec16: the copies move 16-byte chunks (the source 16-byte aligned: base aligned, leading dimension even);
// otherwise 8-byte elements.
// kMmaLeft: the operand is the left (A) side of the DMMA, whose register quad holds two rows at one k
// ({row g, row g + 8} at k t, then at k t + 4). From a k-contiguous tile a 16-byte load delivers one row at
// two k, so the pair would have to be swapped between registers after the load (with the fragment
// buffers of a 64 x 32 warp tile that spilled); such a tile is read with 8-byte loads, each landing in its
// place in the quad. They cost a 2-way bank conflict (a half-warp's 16 lanes read one 8-byte half of 8
// chunks), so the left operand should be the narrow side of the warp tile.
template <int kTileMn, int kTileK, int kThreads, int kMnPerLane, bool kMnContiguous, bool kVec16,
          bool kMmaLeft = false>
struct OperandTile {
  static constexpr bool kMnContiguousLayout = kMnContiguous;
  static constexpr bool kSplitPairLoads = kMmaLeft && !kMnContiguous;
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

  // ---- the copies (cp.async, global -> shared) ----
  // Copy unit: a 16-byte chunk (kVec16) or one 8-byte element. Consecutive threads copy consecutive units of
  // a row, so a warp's cp.async instruction reads whole 128-byte segments of one or two rows and writes
  // whole chunks of two bank lines (2 shared-memory wavefronts for 8-byte units). The first
  // 8-byte path gave each thread a chunk as two 8-byte halves: an instruction then wrote every other 8 bytes
  // of 512 and read them from 16 sectors; ncu at 1001^3 counted 2.25x the shared-memory wavefronts of the
  // 16-byte path at 1000^3 and 53% L1 hits of re-read halves, and the call took 1.5x as long.
  // A row of at least two bank lines (mn-contiguous: 32..128 mn; k-contiguous: tile_k 32) with 8-byte units
  // is copied by as many threads as it has chunks, each thread taking one unit in each half of the row: the
  // second at kSubStrideBytes = half a row, whole bank lines, which the chunk swizzle commutes with. One row
  // pointer serves both and the rows per pass stay those of the 16-byte path (with one unit per thread, the
  // doubled row pointers spilled in the 128x64 and 32x64 instances). A 16-deep k-contiguous row (one bank
  // line) takes one unit per thread: a warp then covers two whole rows.
  static constexpr int kUnitBytes = kVec16 ? kChunkBytes : 8;
  static constexpr int kUnitDoubles = kUnitBytes / 8;
  static constexpr int kUnitsPerChunk = kChunkBytes / kUnitBytes;
  static constexpr int kRowUnits = kRowBytes / kUnitBytes;
  static constexpr int kSubCopies =  // units per thread per row
      (kUnitsPerChunk == 2 && kRowBytes % (2 * kBankLineChunks * kChunkBytes) == 0) ? 2 : 1;
  static constexpr int kSubStrideBytes = kRowBytes / kSubCopies;
  static constexpr int kSubStrideDoubles = kSubStrideBytes / 8;
  static constexpr int kThreadsPerRow = kRowUnits / kSubCopies;
  // One pass of the block's threads copies kRowStep rows; kCopies passes copy the stage.
  static constexpr int kRowStep = kThreads / kThreadsPerRow;
  static constexpr int kCopies = kRows / kRowStep;
  static_assert(kThreads % kThreadsPerRow == 0 && kRows % kRowStep == 0,
                "the block's threads must copy whole rows of copy units, the same count each");
  static_assert((kRowStep & (kRowStep - 1)) == 0,
                "rows per pass must be a power of two: the copies split a row's swizzle input (row / 4) % 4 "
                "into row0's part and a compile-time part");
  static_assert(kSubCopies == 1 || kSubStrideBytes % (kBankLineChunks * kChunkBytes) == 0,
                "a thread's second unit of a row must sit whole bank lines after its first (swizzle unchanged)");

  // Bytes of a unit in bounds, from the bytes left in the row (<= 0: none).
  __device__ __forceinline__ static int unit_bytes_in(int64_t bytes) {
    return bytes <= 0 ? 0 : (bytes >= kUnitBytes ? kUnitBytes : static_cast<int>(bytes));
  }
  // Byte offset in a stage of unit `unit` of row `row`, swizzled (the swizzle moves whole chunks; an 8-byte
  // unit keeps its half of the chunk).
  __device__ __forceinline__ static uint32_t unit_offset(int row, int unit) {
    return chunk_offset(row, unit / kUnitsPerChunk) + static_cast<uint32_t>((unit % kUnitsPerChunk) * kUnitBytes);
  }
  // Copy one unit of which `bytes` are in bounds; the rest of the destination is zero-filled. A source with no
  // byte in bounds is replaced by `x`, the matrix base, so no address outside the matrix is formed for the
  // copy engine.
  __device__ __forceinline__ static void copy_unit(uint32_t dst, const double* src, int bytes, const double* x) {
    arch::cp_async_zfill<kUnitBytes, kCopyClobber>(dst, bytes ? src : x, bytes);
  }

  // The copies of one operand, one stage at a time, k-tile after k-tile. Thread tid copies unit
  // tid % kThreadsPerRow (and its sub-copies' units) of rows tid / kThreadsPerRow + it * kRowStep:
  // consecutive threads read consecutive bytes of a row (coalesced along the contiguous dimension of the
  // source). Only a few values stay live across the main loop (a running source pointer, a stage offset,
  // the unit and one edge count): with 128 threads a thread issues 8 + 4 16-byte copies per stage, and
  // hoisted per-copy addresses would cost the fragment buffers their registers.
  struct Copier {
    const double* src;  // the thread's first unit in the next k-tile to copy
    uint32_t dst0;      // byte offset in a stage of row row0 (k-contiguous: with the swizzled unit)
    int unit;           // unit index inside a row
    int row0;           // first row (mn-contiguous: k; k-contiguous: mn)
    int edge;           // mn-contiguous: bytes of the unit inside mn_ext (with sub-copies: mn inside mn_ext
                        // from the first unit on, 0..kTileMn); k-contiguous: rows inside mn_ext
  };

  // k_start: first k of the first k-tile the copier will copy.
  __device__ __forceinline__ static Copier make_copier(const double* x, int64_t ld, int64_t mn_ext, int64_t mn0,
                                                       int64_t k_start, int tid) {
    Copier c;
    c.unit = tid % kThreadsPerRow;
    c.row0 = tid / kThreadsPerRow;
    if constexpr (kMnContiguous) {
      const int64_t mn = mn0 + c.unit * kUnitDoubles;
      c.src = x + (k_start + c.row0) * ld + mn;
      c.dst0 = static_cast<uint32_t>(c.row0 * kRowBytes);
      const int64_t left = mn_ext - mn;
      if constexpr (kSubCopies == 1) c.edge = unit_bytes_in(left * 8);
      else c.edge = left <= 0 ? 0 : (left >= kTileMn ? kTileMn : static_cast<int>(left));
    } else {
      c.src = x + (mn0 + c.row0) * ld + k_start + c.unit * kUnitDoubles;
      c.dst0 = unit_offset(c.row0, c.unit);
      const int64_t rows = mn_ext - mn0 - c.row0;
      c.edge = rows < kRows ? static_cast<int>(rows) : kRows;
    }
    return c;
  }

  // Issue the cp.async copies of k-tile k0 / kTileK (op(X)(mn0 .. + kTileMn, k0 .. + kTileK), zero-filled
  // outside the matrix) into the stage at shared address `stage`; advance to the next k-tile.
  __device__ __forceinline__ static void copy_stage(Copier& c, uint32_t stage, const double* x, int64_t ld,
                                                    int64_t k_ext, int64_t k0) {
    const double* src = c.src;
    if constexpr (kMnContiguous) {
      // A unit holds consecutive mn at one k: bytes limited by mn (edge), whole units in or out along k.
      const int64_t rows = k_ext - k0 - c.row0;
      const int rows_left = rows < kRows ? static_cast<int>(rows) : kRows;
      // The swizzle XORs chunk bits (bytes 16..127); an 8-byte unit's half (byte bit 3) is left alone.
      const uint32_t unit_byte = static_cast<uint32_t>(c.unit * kUnitBytes);
#pragma unroll
      for (int it = 0; it < kCopies; ++it) {
        // Row row0 + it * kRowStep; its swizzle needs (row / 4) % 4, known at compile time when row0 < 4.
        int t_row;
        if constexpr (kRowStep <= kKPerLane) t_row = ((it * kRowStep) >> 2) & 3;
        else t_row = ((c.row0 >> 2) + it * (kRowStep >> 2)) & 3;
        const uint32_t dst =
            stage + c.dst0 + it * kRowStep * kRowBytes + (unit_byte ^ (swizzle_k_row(t_row << 2) * kChunkBytes));
        const bool k_in = it * kRowStep < rows_left;
#pragma unroll
        for (int h = 0; h < kSubCopies; ++h) {
          const int bytes = kSubCopies == 1 ? c.edge : unit_bytes_in(int64_t(c.edge - h * kSubStrideDoubles) * 8);
          copy_unit(dst + h * kSubStrideBytes, src + h * kSubStrideDoubles, k_in ? bytes : 0, x);
        }
        src += kRowStep * ld;
      }
      c.src += kTileK * ld;
    } else {
      // A unit holds consecutive k at one mn: bytes limited by k, whole units in or out along mn (edge).
      const int64_t k_left = k_ext - k0 - c.unit * kUnitDoubles;
      const int k_bytes = unit_bytes_in(k_left * 8);  // the first unit's
#pragma unroll
      for (int it = 0; it < kCopies; ++it) {
        uint32_t dst;
        if constexpr (kRowStep % (2 * kMnPerLane) == 0) {
          dst = stage + c.dst0 + it * kRowStep * kRowBytes;  // swizzle parity equal to row0's
        } else {
          dst = stage + unit_offset(c.row0 + it * kRowStep, c.unit);
        }
        const bool mn_in = it * kRowStep < c.edge;
#pragma unroll
        for (int h = 0; h < kSubCopies; ++h)
          copy_unit(dst + h * kSubStrideBytes, src + h * kSubStrideDoubles,
                    mn_in ? (h == 0 ? k_bytes : unit_bytes_in((k_left - h * kSubStrideDoubles) * 8)) : 0, x);
        src += kRowStep * ld;
      }
      c.src += kTileK;
    }
  }

  // The copies of a k-tile that lies wholly inside the matrix (every unit in bounds): no byte
  // counts, no edge compares, no fallback pointers, and only a source pointer and one shared-memory
  // offset live across the main loop. ncu on the H100 (n = 4096) showed the general path above costing
  // ~200 integer instructions per k-tile per thread (64-bit edge compares and selects), 1.6x cuBLAS's
  // instructions per DMMA, and the tensor pipe idled while the 2 warps per scheduler issued them. The
  // kernel uses these copies for every k-tile of an interior block except the k-edge tail.
  struct FullCopier {
    const double* src;  // the thread's first unit in the next k-tile to copy
    uint32_t dst0;      // byte offset in a stage of the thread's first unit: mn-contiguous with only
                        // row0's part of the swizzle (see make_full_copier), k-contiguous with all of it
  };
  __device__ __forceinline__ static FullCopier make_full_copier(const double* x, int64_t ld, int64_t mn0,
                                                               int64_t k_start, int tid) {
    const int unit = tid % kThreadsPerRow, row0 = tid / kThreadsPerRow;
    FullCopier c;
    if constexpr (kMnContiguous) {
      // Row row0 + it * kRowStep (row0 < kRowStep) has swizzle input (row / 4) % 4. With kRowStep <= 4 that
      // is (it * kRowStep / 4) % 4, known at compile time. With kRowStep a multiple of 4 (narrow tiles: a
      // 32-wide row is 16 chunks, so 128 threads copy 8 rows at a time) it is row0 / 4 + it * kRowStep / 4,
      // whose two terms occupy different bits (row0 / 4 < kRowStep / 4, a power of two): the sum is an XOR,
      // and the swizzle, a linear map of those bits onto chunk bits, splits into row0's part (folded into
      // dst0 here) and a compile-time part XORed in by the copies.
      static_assert(kRowStep <= kKPerLane || kRowStep % kKPerLane == 0,
                    "each copied row's swizzle must split into row0's part and a compile-time part");
      c.src = x + (k_start + row0) * ld + mn0 + unit * kUnitDoubles;
      // The swizzle XORs chunk bits 0..2 (bytes 16..127): it commutes with adding multiples of 128 bytes
      // (row and stage offsets), so the copies add the stage offset and XOR a compile-time swizzle.
      const int row0_swizzle = kRowStep <= kKPerLane ? 0 : swizzle_k_row(row0);
      c.dst0 = static_cast<uint32_t>(row0 * kRowBytes + ((unit * kUnitBytes) ^ (row0_swizzle * kChunkBytes)));
    } else {
      c.src = x + (mn0 + row0) * ld + k_start + unit * kUnitDoubles;
      c.dst0 = unit_offset(row0, unit);
    }
    return c;
  }
  // smem: shared address of the operand's stage 0; stage_off: byte offset of the stage (a multiple of
  // 128, so the swizzle XOR may be applied after adding it).
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
#pragma unroll
        for (int h = 0; h < kSubCopies; ++h)
          arch::cp_async<kUnitBytes, kCopyClobber>(dst + h * kSubStrideBytes, src + h * kSubStrideDoubles);
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
        const uint32_t dst = smem + (base ^ flip) + it * kRowStep * kRowBytes;
#pragma unroll
        for (int h = 0; h < kSubCopies; ++h)
          arch::cp_async<kUnitBytes, kCopyClobber>(dst + h * kSubStrideBytes, src + h * kSubStrideDoubles);
        src += kRowStep * ld;
      }
      c.src += kTileK;
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
          const char* at =
              stage + l.off[kV0 / 2 + pp] + q * kRowBytes + kBlock * (kKBlock / kChunkDoubles) * kChunkBytes;
          if constexpr (kSplitPairLoads) {
            frag[2 * pp][q] = load_shared_f64(at);
            frag[2 * pp + 1][q] = load_shared_f64(at + 8);
          } else {
            const double2 x = *reinterpret_cast<const double2*>(at);
            frag[2 * pp][q] = x.x;
            frag[2 * pp + 1][q] = x.y;
          }
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
        const char* at = stage + l.off[kV / 2] + q * kRowBytes + kBlock * (kKBlock / kChunkDoubles) * kChunkBytes;
        if constexpr (kSplitPairLoads) {
          r.x[(kStep >> 1) & 1][0][q] = load_shared_f64(at);
          r.x[(kStep >> 1) & 1][1][q] = load_shared_f64(at + 8);
        } else {
          const double2 x = *reinterpret_cast<const double2*>(at);
          r.x[(kStep >> 1) & 1][0][q] = x.x;
          r.x[(kStep >> 1) & 1][1][q] = x.y;
        }
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
