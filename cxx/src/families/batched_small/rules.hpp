// Family batched_small: many small DGEMMs of one shape in one launch (tcgemm_dgemm_strided_batched,
// tcgemm_dgemm_batched). Products of order 4..64 are bound by memory traffic, not by arithmetic: a product
// moves 8 (mk + kn + mn) bytes (twice mn with beta != 0) for 2mnk flops, so what matters is that whole small
// matrices stream from HBM in wide, coalesced loads, from enough blocks to keep every SM's loads in flight.
//
// A block takes `group` consecutive products; per k-chunk it stages op(A) (size x kc) and op(B) (kc x size)
// of all of them in shared memory, zero-filled past m, n and k, reading each operand in its memory order
// (consecutive threads, consecutive addresses: a batch of dense matrices is one contiguous stream); its warps
// then multiply 8x8 tiles with the CUDA Fortran tensor-core article's FP64 WMMA 8x8x4 instruction (Example
// 1's tile, several per warp) and keep the accumulators in registers across k-chunks. Each warp writes its
// tiles through a small shared scratch, alpha and beta applied, C read only when beta != 0.
//
// Size classes by max(m, n): 8, 16, 24, 32, 48, 64, 128 (the padded tile extent: a product pays for
// staging and multiplying its padding, so the small classes are close together; a 96 class measured no
// better than padding to 128 on the H100); products with m or n beyond 128
// go one by one through tcgemm_dgemm's own plan (they are large enough to fill the GPU alone).
#pragma once

#include <cstdint>

namespace tcgemm::detail {

struct BatchedClass {
  int size;    // padded m and n (a multiple of 8)
  int kc;      // k per chunk (a multiple of 4)
  int group;   // products per block
  int warps;   // warps per block
  int rb, cb;  // a warp's block of 8x8 tiles (rows x columns) when a product has several warps
  int min_blocks;  // blocks per SM asked of the register allocator (__launch_bounds__): more blocks keep
                   // more loads in flight while others compute. Measured on the H100: 4 takes 32^3 batches
                   // from 0.60 to 0.86 of the roofline; the 8-class's batched loads spill under 64 registers
                   // (0.75 -> 0.33), so it asks 2 (1 lets the allocator go past 128: 0.48); 64 registers spill
                   // the 64-class a little, so it asks 3; the 48-class runs better at 4 (0.60) than at 2
                   // (0.50) although 128 registers spill some of its 3 x 3 block.
  int tiles_per_warp() const { return group * (size / 8) * (size / 8) / warps; }
};

constexpr int kBatchedMaxSize = 128;
constexpr BatchedClass kBatchedClasses[] = {
    {8, 8, 32, 8, 1, 1, 2},    // 32 products of one 8x8 tile: 4 products a warp
    {16, 16, 8, 8, 2, 2, 4},   // 8 products of 2 x 2 tiles: one product a warp
    {24, 24, 4, 4, 3, 3, 3},   // 4 products of 3 x 3 tiles: one product a warp
    {32, 32, 2, 8, 2, 2, 4},   // 2 products of 16 tiles: 4 warps a product, 2 x 2 tiles each
    {48, 32, 1, 4, 3, 3, 4},   // 36 tiles: 3 x 3 tiles a warp
    {64, 32, 1, 8, 4, 2, 3},   // 64 tiles: 4 x 2 tiles a warp
    {128, 16, 1, 16, 4, 4, 1}, // 256 tiles: 4 x 4 tiles a warp
};
constexpr int kBatchedClassCount = sizeof(kBatchedClasses) / sizeof(kBatchedClasses[0]);

// The class of a product with these m and n (m, n >= 1), or -1 past kBatchedMaxSize.
inline int batched_class_index(int64_t m, int64_t n) {
  const int64_t s = m > n ? m : n;
  for (int i = 0; i < kBatchedClassCount; ++i)
    if (s <= kBatchedClasses[i].size) return i;
  return -1;
}

// Shared memory of a class: the staged A (size x kc, column-major, leading dimension size + 2) and B (kc x
// size, leading dimension kc + 2) of every product of the group, and each warp's 8x8 scratch. The +2 keeps
// WMMA's 32-byte alignment (kc and 8-row steps are multiples of 4 doubles) and shifts columns across banks.
constexpr int64_t batched_smem_bytes(const BatchedClass& c) {
  return 8 * (int64_t(c.group) * c.kc * (c.size + 2) + int64_t(c.group) * c.size * (c.kc + 2) + int64_t(c.warps) * 64);
}

}  // namespace tcgemm::detail
