// Family batched_small: many small DGEMMs of one shape in one launch (tcgemm_dgemm_strided_batched,
// tcgemm_dgemm_batched). Products of order 2..64 are bound by memory traffic, not by arithmetic: a product
// moves 8 (mk + kn + mn) bytes (twice mn with beta != 0) for 2mnk flops, so what matters is that whole small
// matrices stream from HBM in wide, coalesced loads, with enough bytes in flight on every SM.
//
// A block takes `group` consecutive products at a time; per k-chunk it stages op(A) (size x kc) and op(B)
// (kc x size) of all of them in shared memory, zero-filled past m, n and k, reading each operand in its
// memory order (consecutive threads, consecutive addresses: a batch of dense matrices is one contiguous
// stream). The copies are cp.async into a ring of `stages` buffers: while the warps multiply one chunk and
// write its C, the next chunks (of the same group, or of the block's next group) are already on their way,
// and copies in flight hold no registers. The warps multiply 8x8 tiles with the CUDA Fortran tensor-core
// article's FP64 WMMA 8x8x4 instruction (Example 1's tile, several per warp), keep the accumulators in
// registers across k-chunks, and write each tile through a small shared scratch, alpha and beta applied, C
// read only when beta != 0.
//
// Products smaller than a tile share one: with size 4 (or 2), the 8x8 tile holds two (or four) products on
// its diagonal, op(A) of each in its own rows and op(B) in its own columns. The off-diagonal blocks of the
// product tile are cross terms, computed and never written. The tensor cores have arithmetic to spare here;
// what counts is that the block's loads are whole, consecutive products.
//
// Size classes by max(m, n): 2, 4, 6, 8, 12, 16, 20, 24, 32, 48, 64, 128 (a product pays for staging,
// multiplying and writing back its padding, so the small classes are close together; a 96 class measured no
// better than padding to 128 on the H100). On cc 9.x strided batches of products larger than 40 run on
// sm90_mma's kernel instead (batched_api.cpp); products with m or n beyond 128 go one by one through
// tcgemm_dgemm.
#pragma once

#include <cstdint>

namespace tcgemm::detail {

struct BatchedClass {
  int size;        // m and n up to this: 2 or 4 (products sharing a tile), or an even size from 6 on
  int kc;          // k per chunk (a multiple of 4)
  int group;       // products per block and chunk
  int warps;       // warps per block
  int rb, cb;      // a warp's block of 8x8 tiles (rows x columns) when a product has several warps
  int min_blocks;  // blocks per SM asked of the register allocator (__launch_bounds__); on an H100 the
                   // shared memory of `stages` buffers allows as many (static_assert in kernel.cu); parts
                   // with less shared memory per SM (A100: 164 KB, cc 8.6/8.9: 100 KB) fit fewer: speed
                   // only, measured on the H100 alone
  int stages;      // cp.async ring depth (>= 2): stages - 1 chunks in flight while one is multiplied

  // The one description of a class's staged layout, for the kernel (kernel.cuh) and the launcher.
  // Products on one 8x8 tile's diagonal (sizes 2 and 4), and the extent of the staged tile-products: size
  // rounded up to whole 8x8 tiles. A size between multiples of 8 (6, 12, 20) stages only its size x kc and
  // size x kc elements per product; the rows and columns between size and the tile extent are zeroed once
  // per ring buffer (kernel.cuh) and never copied.
  constexpr int per_tile() const { return size <= 4 ? 8 / size : 1; }
  constexpr int tile_size() const { return size <= 4 ? 8 : (size + 7) / 8 * 8; }
  constexpr int tile_products() const { return group / per_tile(); }
  constexpr int tiles_per_warp() const { return tile_products() * (tile_size() / 8) * (tile_size() / 8) / warps; }
  // A ring buffer: op(A) of the group's tile-products (tile_size x kc each, column-major, leading dimension
  // tile_size + 2), then op(B) (kc x tile_size, leading dimension kc + 2). The +2 keeps WMMA's 32-byte alignment
  // (kc and 8-row steps are multiples of 4 doubles) and shifts columns across banks.
  constexpr int ld_a() const { return tile_size() + 2; }
  constexpr int ld_b() const { return kc + 2; }
  constexpr int stage_a_doubles() const { return tile_products() * kc * ld_a(); }
  constexpr int stage_b_doubles() const { return tile_products() * tile_size() * ld_b(); }
  constexpr int stage_doubles() const { return stage_a_doubles() + stage_b_doubles(); }
  // The rules every class obeys (checked at compile time by the kernel).
  constexpr bool valid() const {
    return size % 2 == 0 && (size > 4 || 8 % size == 0) && group % per_tile() == 0 && kc % 4 == 0 &&
           tile_products() * (tile_size() / 8) * (tile_size() / 8) % warps == 0 && stages >= 2;
  }
};

constexpr int kBatchedMaxSize = 128;
// Measured on the H100 (bench/results/2026-11-27-h100-batched-ring): the smallest classes gain from more
// products per chunk (a chunk's fixed work, barrier and ring bookkeeping, is then shared by more of them:
// 4^3 0.74 -> 0.78 of the roofline, 8^3 0.83 -> 0.87 with 32 instead of 16 products), although fewer
// blocks fit an SM; 16 warps instead of 8 keep the roofline fraction of sizes 2, 4 and 6 (5^3: 0.39 -> 0.43)
// and raise pointer arrays by 40-60% (the 8-class stays at 8: 7^3 0.82 against 0.78). Every instance is free
// of register spills on sm_80 and sm_90 but one: the 128-class for pointer arrays with beta != 0 (4-8 bytes).
// Retuned on the H200, whose 40% more bandwidth than the H100's needs more bytes in flight per SM
// (bench/results/2026-11-29-h200-batched-classes): the 24-class with k-chunks of 12 and 3 stages has a 64 KB ring
// and 3 blocks per SM instead of an 80 KB ring and 2 (24^3 0.72 -> 0.84 of the roofline). The 48-class with
// k-chunks of 20, 3 stages and 4 blocks per SM ran 40^3 strided 0.57 -> 0.64, but the cap of 128 registers that 4
// blocks of 128 threads impose made its pointer-array instance with beta != 0 spill (72-80 bytes) and run 16%
// slower; not kept.
constexpr BatchedClass kBatchedClasses[] = {
    {2, 4, 256, 16, 1, 1, 2, 2},  // 4 products a tile, 64 tiles: 4 tiles a warp
    {4, 4, 128, 16, 1, 1, 2, 2},  // 2 products a tile, 64 tiles: 4 tiles a warp
    {6, 8, 32, 16, 1, 1, 2, 2},   // 32 products of one 8x8 tile (6 x 6 staged): 2 products a warp
    {8, 8, 32, 8, 1, 1, 2, 2},    // 32 products of one 8x8 tile: 4 products a warp
    {12, 12, 8, 8, 2, 2, 2, 2},   // 8 products of 2 x 2 tiles (12 x 12 staged): one product a warp
    {16, 16, 8, 8, 2, 2, 2, 2},   // 8 products of 2 x 2 tiles: one product a warp
    {20, 20, 4, 4, 3, 3, 3, 2},   // 4 products of 3 x 3 tiles (20 x 20 staged): one product a warp
    {24, 12, 4, 4, 3, 3, 3, 3},   // 4 products of 3 x 3 tiles: one product a warp
    {32, 32, 2, 8, 2, 2, 3, 2},   // 2 products of 16 tiles: 4 warps a product, 2 x 2 tiles each
    {48, 32, 1, 4, 3, 3, 3, 2},   // 36 tiles: 3 x 3 tiles a warp
    {64, 32, 1, 8, 4, 2, 3, 2},   // 64 tiles: 4 x 2 tiles a warp
    {128, 16, 1, 16, 4, 4, 1, 2}, // 256 tiles: 4 x 4 tiles a warp
};
constexpr int kBatchedClassCount = sizeof(kBatchedClasses) / sizeof(kBatchedClasses[0]);

// The class of a product with these m and n (m, n >= 1), or -1 past kBatchedMaxSize.
inline int batched_class_index(int64_t m, int64_t n) {
  const int64_t s = m > n ? m : n;
  for (int i = 0; i < kBatchedClassCount; ++i)
    if (s <= kBatchedClasses[i].size) return i;
  return -1;
}

// Shared memory of a class: the ring and each warp's 8x8 scratch.
constexpr int64_t batched_smem_bytes(const BatchedClass& c) {
  return 8 * (int64_t(c.stages) * c.stage_doubles() + int64_t(c.warps) * 64);
}

}  // namespace tcgemm::detail
