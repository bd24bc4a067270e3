// Family batched_direct: strided or pointer-array batches of products with m, n <= 24 (tcgemm_dgemm_strided_batched,
// tcgemm_dgemm_batched). Every warp of a persistent grid works alone through its own share of the batch, one to
// four tile-products at a time (a product of its own 8x8 tiles, or two or four sharing one), each lane copying its
// own elements of the FP64 m8n8k4 fragments into the warp's shared-memory ring.
//
// Why a second family beside batched_small. A product of order 4..12 moves a few hundred bytes and needs a few
// tensor-core instructions; what limits it is the work spent per product around them. batched_small stages whole
// groups of products in a block-wide shared-memory ring (slot loops over padded tiles, block barriers) and writes
// each tile through a scratch: about 350 warp instructions a product at 5^3 (ncu, H100), and sizes 4..10 stayed at
// 0.3-0.6 of the memory roofline, their product rates unchanged from the H100 to the 40% faster memory of the H200.
//
// Here each warp works alone. The operand fragments of mma.m8n8k4.f64 (the CUDA Fortran tensor-core article's
// 8x8x4 shape, issued as PTX so that every lane knows which elements it holds) are copied element by element,
// each lane its own, with 8-byte cp.async into the warp's own ring of `stages` buffers, laid out by lane (lane l's
// e-th element at e * 32 + l: conflict-free, and no lane reads what another copied, so neither barriers nor warp
// syncs are needed). Elements past k are zero-filled by the copy itself; rows past m, columns past n and products
// past the batch are not copied at all (what the buffer holds there reaches only elements of the tile that are
// never written). The accumulators go to C from registers. Copies in flight hold no registers: a warp keeps
// stages - 1 jobs of copies in flight, where loading into registers (the first version) left each warp one
// product's loads in flight at 64-140 registers and the smallest sizes latency-bound (HBM needs about 30 KB in
// flight per SM). The copies are not 16-byte vectors, but a warp's copies of one small matrix touch the same few
// 32-byte sectors, so HBM still sees whole matrices.
//
// Shapes by m and n (rules below): a product of up to 2 or 4 rows and columns shares one 8x8 tile with 3 or 1
// others (their op(A) rows and op(B) columns side by side; the off-diagonal blocks of the tile are cross terms,
// computed and never written); up to 8: one tile; up to 24: up to 3 x 3 tiles. A job of the ring is
// `items` tile-products and `ksteps` k-steps of 4; with beta != 0 the job of a product's first k-steps also copies
// the lane's elements of C, and with pointer arrays each job keeps its products' C pointers (the epilogue then
// waits on no load).
#pragma once

#include <cstdint>

namespace tcgemm::detail {

struct BatchedDirectShape {
  int slot;    // rows and columns of one product within a tile: 2 or 4 (shared tile), 8 (tiles of its own)
  int tm, tn;  // 8x8 tiles per product along m and n (1 when slot < 8)
  int items;   // tile-products per job of a warp's ring
  int ksteps;  // k-steps of 4 per job
  int stages;  // buffers in a warp's ring (>= 2): stages - 1 jobs in flight while one is multiplied
  int min_blocks;  // blocks per SM asked of the register allocator (__launch_bounds__): 4 caps a thread at 128
                   // registers, 3 at 168, 2 at 255 (3 x 3 tiles with beta != 0 take them all); without it ptxas took 72-224 by its own measure, spilling at 128; no
                   // more than the rings of strided batches leave room for on an H100 (test_batched_rules_cpu);
                   // an A100's 164 KB fit fewer of the larger rings (speed only, not measured there)
  constexpr int per_tile() const { return 8 / slot; }  // products per item
  constexpr bool valid() const {
    return (slot == 2 || slot == 4 || slot == 8) && (slot == 8 || (tm == 1 && tn == 1)) && tm >= 1 && tm <= 3 &&
           tn >= 1 && tn <= 3 && items >= 1 && ksteps >= 1 && stages >= 2 && min_blocks >= 1;
  }
};

constexpr int kBatchedDirectThreads = 128;  // 4 warps: fine steps of residency (each warp is independent)
// Products of up to this many rows and columns run on batched_direct (the default of
// TCGEMM_BATCHED_DIRECT_MAX_SIZE; 0 switches the family off, for measurements and tests of batched_small's small
// classes), but for two by two tiles, where batched_small's 16-class (16-byte copies of whole 16-row columns)
// takes over a little earlier: past 15 with beta = 0 (16^3 0.91 against 0.93 of the roofline, 16x16x64 0.88
// against 0.93), past 13 with beta != 0 (14^3 0.76 against 0.89, 16^3 0.74 against 0.98; 13^3 0.77 against 0.73).
// From 17 to 24 (tilings of three tiles a side) batched_direct is ahead of batched_small's 20- and 24-classes at
// every size measured but 24x24x48 (0.82 against 0.84): 17^3 0.54 -> 0.79, 21^3 0.58 -> 0.81, 22^3 0.69 -> 0.84,
// 8x24x16 0.42 -> 0.88 at beta = 0, 21^3 0.65 -> 0.86 at beta = 1.
constexpr int kBatchedDirectMaxSize = 24;
constexpr int kBatchedDirectTwoByTwoMax = 15, kBatchedDirectTwoByTwoMaxReadC = 13;
// The largest size the family has tilings for (up to 3 x 3 tiles).
constexpr int kBatchedDirectLargestSize = 24;

// Whether batched_direct takes products with these m and n (m, n >= 1) and beta, up to max_size.
inline bool batched_direct_takes(int64_t m, int64_t n, bool read_c, int64_t max_size) {
  const int64_t s = m > n ? m : n;
  if (s > max_size || s > kBatchedDirectLargestSize) return false;
  if (m > 8 && n > 8 && s <= 16) return s <= (read_c ? kBatchedDirectTwoByTwoMaxReadC : kBatchedDirectTwoByTwoMax);
  return true;
}

// Measured on the H200 (bench/results/2026-11-29-h200-batched-direct): the sizes up to 8 are bound by the
// instructions a job costs around its copies (loop, cursor, pointers, the wait), so several tile-products per job
// pay off (5^3: 0.53 of the roofline with one, 0.75 with two, 0.80 with four), until the registers of beta != 0's
// C values cost more residency than they save (7^3 and 8^3 with beta = 1: 0.83 and 0.93 with four, 0.90 and 0.99
// with two). Products of two by two tiles gain from k-chunks of 16 (one job for k up to 16: 9^3 0.70 -> 0.77,
// 12^3 with beta = 1 0.77 -> 0.88). Tilings of three tiles a side: one product a job, k-chunks of 8.
constexpr BatchedDirectShape kBatchedDirectShapes[] = {
    // beta = 0
    {2, 1, 1, 2, 1, 4, 4},  // four products of up to 2 x 2 on one tile
    {4, 1, 1, 2, 1, 4, 4},  // two products of up to 4 x 4 on one tile
    {8, 1, 1, 4, 2, 3, 4},  // up to 8 x 8
    {8, 2, 1, 2, 2, 4, 4},  // up to 16 x 8
    {8, 1, 2, 2, 2, 4, 4},  // up to 8 x 16
    {8, 2, 2, 1, 4, 3, 4},  // up to 16 x 16
    {8, 3, 1, 1, 2, 4, 3},  // up to 24 x 8
    {8, 1, 3, 1, 2, 4, 3},  // up to 8 x 24
    {8, 3, 2, 1, 2, 4, 3},  // up to 24 x 16
    {8, 2, 3, 1, 2, 4, 3},  // up to 16 x 24
    {8, 3, 3, 1, 2, 4, 3},  // up to 24 x 24
    // beta != 0 (C copied with a pass's first job, its values held in registers to the epilogue)
    {2, 1, 1, 4, 1, 4, 3},
    {4, 1, 1, 4, 1, 4, 3},
    {8, 1, 1, 2, 2, 4, 4},
    {8, 2, 1, 2, 2, 4, 2},  // an 80 KB ring: 2 blocks an SM
    {8, 1, 2, 2, 2, 4, 2},
    {8, 2, 2, 1, 4, 3, 3},
    {8, 3, 1, 1, 2, 4, 3},
    {8, 1, 3, 1, 2, 4, 3},
    {8, 3, 2, 1, 2, 3, 2},
    {8, 2, 3, 1, 2, 3, 2},
    {8, 3, 3, 1, 2, 3, 2},
};
constexpr int kBatchedDirectShapesPerBeta = 11;
constexpr int kBatchedDirectShapeCount = sizeof(kBatchedDirectShapes) / sizeof(kBatchedDirectShapes[0]);

// A lane's elements per job: op(A) and op(B) of every item and k-step, then (beta != 0) C of every item, then
// (pointer arrays) one C pointer per item.
constexpr int batched_direct_job_elements(const BatchedDirectShape& s, bool read_c, bool arrays) {
  return s.items * s.ksteps * (s.tm + s.tn) + (read_c ? s.items * s.tm * s.tn * 2 : 0) + (arrays ? s.items : 0);
}
// Shared memory of a block: every warp's ring.
constexpr int64_t batched_direct_smem_bytes(const BatchedDirectShape& s, bool read_c, bool arrays) {
  return int64_t(kBatchedDirectThreads / 32) * s.stages * batched_direct_job_elements(s, read_c, arrays) * 32 * 8;
}

// Which tiling a product with these m and n takes (an index into either half of kBatchedDirectShapes), or -1
// past 24.
inline int batched_direct_tiles_index(int64_t m, int64_t n) {
  const int64_t s = m > n ? m : n;
  if (s > 24) return -1;
  if (s <= 2) return 0;
  if (s <= 4) return 1;
  const int tm = int((m + 7) / 8), tn = int((n + 7) / 8);
  constexpr int kIndex[3][3] = {{2, 4, 7}, {3, 5, 9}, {6, 8, 10}};  // [tm - 1][tn - 1]
  return kIndex[tm - 1][tn - 1];
}

// The shape of a product with these m and n (m, n >= 1) in kBatchedDirectShapes, or -1 past 24: the first
// kBatchedDirectShapesPerBeta entries for beta = 0, the next as many for beta != 0.
inline int batched_direct_shape_index(int64_t m, int64_t n, bool read_c) {
  const int i = batched_direct_tiles_index(m, n);
  return i < 0 ? -1 : i + (read_c ? kBatchedDirectShapesPerBeta : 0);
}

}  // namespace tcgemm::detail
