// The size rules of the batched families (white box, host only): which products batched_direct takes, that the
// tiling it picks covers the product, that beta != 0 gets its own shapes, and that every shape's rings fit the
// shared memory its residency asks for; batched_small's classes take every size that batched_direct leaves.
#include <gtest/gtest.h>

#include <cstdint>

#include "families/batched_direct/rules.hpp"
#include "families/batched_small/rules.hpp"

using namespace tcgemm::detail;

TEST(BatchedDirectRules, EveryTakenProductIsCoveredByItsTiling) {
  for (int read_c = 0; read_c < 2; ++read_c)
    for (int64_t m = 1; m <= 25; ++m)
      for (int64_t n = 1; n <= 25; ++n) {
        const int idx = batched_direct_shape_index(m, n, read_c);
        if (m > 24 || n > 24) {
          EXPECT_EQ(idx, -1) << m << " x " << n;
          EXPECT_FALSE(batched_direct_takes(m, n, read_c, kBatchedDirectMaxSize));
          continue;
        }
        ASSERT_GE(idx, 0) << m << " x " << n;
        ASSERT_LT(idx, kBatchedDirectShapeCount);
        EXPECT_EQ(idx >= kBatchedDirectShapesPerBeta, read_c == 1) << m << " x " << n;
        const BatchedDirectShape s = kBatchedDirectShapes[idx];
        EXPECT_TRUE(s.valid());
        if (s.slot < 8) {
          EXPECT_LE(m, s.slot) << m << " x " << n;  // products sharing a tile fit their diagonal slots
          EXPECT_LE(n, s.slot) << m << " x " << n;
        } else {
          EXPECT_LE(m, 8 * s.tm) << m << " x " << n;
          EXPECT_LE(n, 8 * s.tn) << m << " x " << n;
          EXPECT_GT(m, 8 * (s.tm - 1)) << m << " x " << n;  // no tile row wholly past m
          EXPECT_GT(n, 8 * (s.tn - 1)) << m << " x " << n;
        }
      }
}

TEST(BatchedDirectRules, WhereBatchedSmallTakesOver) {
  // One side up to 8: batched_direct up to 24 either way.
  EXPECT_TRUE(batched_direct_takes(16, 8, false, 24));
  EXPECT_TRUE(batched_direct_takes(1, 16, true, 24));
  EXPECT_TRUE(batched_direct_takes(24, 3, true, 24));
  // Three tiles a side: batched_direct up to 24 either way.
  EXPECT_TRUE(batched_direct_takes(17, 17, true, 24));
  EXPECT_TRUE(batched_direct_takes(24, 24, false, 24));
  EXPECT_TRUE(batched_direct_takes(9, 24, true, 24));
  EXPECT_FALSE(batched_direct_takes(25, 24, false, 24));
  EXPECT_FALSE(batched_direct_takes(20, 20, false, 16));  // TCGEMM_BATCHED_DIRECT_MAX_SIZE=16
  // Two by two tiles: up to 15 with beta = 0, up to 13 with beta != 0 (rules.hpp's measurements).
  EXPECT_TRUE(batched_direct_takes(15, 15, false, 16));
  EXPECT_FALSE(batched_direct_takes(16, 16, false, 16));
  EXPECT_FALSE(batched_direct_takes(16, 9, false, 16));
  EXPECT_TRUE(batched_direct_takes(13, 13, true, 16));
  EXPECT_FALSE(batched_direct_takes(14, 9, true, 16));
  EXPECT_FALSE(batched_direct_takes(17, 1, false, 16));
  // TCGEMM_BATCHED_DIRECT_MAX_SIZE = 0 or a lower bound.
  for (int64_t s = 1; s <= 24; ++s) EXPECT_FALSE(batched_direct_takes(s, s, false, 0));
  EXPECT_TRUE(batched_direct_takes(8, 8, false, 8));
  EXPECT_FALSE(batched_direct_takes(9, 2, false, 8));
  // Whatever batched_direct leaves has a batched_small class; the default bound is its largest size.
  EXPECT_EQ(kBatchedDirectMaxSize, kBatchedDirectLargestSize);
  for (int64_t m = 1; m <= 24; ++m)
    for (int64_t n = 1; n <= 24; ++n) EXPECT_GE(batched_class_index(m, n), 0);
}

TEST(BatchedDirectRules, RingsFitTheResidencyTheyAskFor) {
  for (int i = 0; i < kBatchedDirectShapeCount; ++i) {
    const BatchedDirectShape s = kBatchedDirectShapes[i];
    const bool read_c = i >= kBatchedDirectShapesPerBeta;
    for (int arrays = 0; arrays < 2; ++arrays) {
      const int64_t smem = batched_direct_smem_bytes(s, read_c, arrays);
      EXPECT_LE(smem, 99 * 1024) << "shape " << i;  // every cc 8.x part's per-block limit
      // Strided batches: min_blocks blocks of the ring fit an H100 / H200 SM (228 KB, 1 KB reserved per block).
      // Pointer arrays keep one more element a job and may fit one block fewer (speed only).
      if (!arrays) {
        EXPECT_LE(s.min_blocks * (smem + 1024), 228 * 1024) << "shape " << i;
      }
    }
    // A job's elements as the kernel lays them out: A and B of every item and k-step, C with beta != 0, one
    // pointer per item with pointer arrays.
    EXPECT_EQ(batched_direct_job_elements(s, read_c, true) - batched_direct_job_elements(s, read_c, false), s.items);
  }
}
