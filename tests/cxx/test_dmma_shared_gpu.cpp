// GPU tests of the shared-memory families shared_a (the article's Example 5) and shared_ab (Example 6): every tile,
// tile_k, padding and pipeline depth on odd sizes, through tcgemm_dmma_shared_a / tcgemm_dmma_shared_ab and
// through tcgemm_dgemm_config, each checked against cuBLAS on fresh random data (gpu_test_util.hpp).
// Configurations that need more shared memory than this device allows are skipped, not failed.
#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "gpu_test_util.hpp"
#include "tcgemm/tcgemm.h"

namespace {

using tcgemm::test::GemmCall;
using tcgemm::test::GemmSpec;
using tcgemm::test::dgemm_config_call;
using tcgemm::test::run_and_check;
using tcgemm::test::spec;

const int kTiles[] = {32, 64, 96, 128};
const int kPads[] = {0, 2, 4, 6};
// 4 is the smallest slab, 256 the largest; 12 is not a multiple of 8 (an odd number of 16-byte pairs per
// thread group), the rest are the article's Table 3 values.
const int kTileKs[] = {4, 12, 16, 32, 64, 96, 128, 256};

// The odd sizes every configuration runs on.
//   67 x 45 x 37: nothing is a multiple of anything; lda = 67 is odd (elementwise staging path).
//   1 x 1 x 1   : a single element, every tile is an edge tile.
//   129 x 130 x 131 with lda = 130, ldb = 132: several full tiles and slabs with even leading dimensions and
//                 aligned bases, so the 16-byte cp.async fast path runs next to the edge paths.
std::vector<GemmSpec> odd_sizes(uint64_t seed) {
  GemmSpec big = spec(129, 130, 131, seed + 2);
  big.lda_pad = 1;
  big.ldb_pad = 1;
  return {spec(67, 45, 37, seed), spec(1, 1, 1, seed + 1), big};
}

tcgemm_config shared_a_config(int tile, int pad) {
  tcgemm_config c{};
  c.family = TCGEMM_FAMILY_SHARED_A;
  c.tile_m = tile;
  c.pad_a = pad;
  return c;
}

tcgemm_config shared_ab_config(int tile, int tile_k, int pad_a, int pad_b, int stages) {
  tcgemm_config c{};
  c.family = TCGEMM_FAMILY_SHARED_AB;
  c.tile_m = tile;
  c.tile_k = tile_k;
  c.pad_a = pad_a;
  c.pad_b = pad_b;
  c.stages = stages;
  return c;
}

// SUCCESS: runs here. SHARED_MEMORY: too big for this device (skip). Anything else is a test failure.
tcgemm_status device_check(const tcgemm_config& c) { return tcgemm_config_check_device(&c, -1); }

std::string config_name(const tcgemm_config& c) {
  std::ostringstream o;
  o << "tile " << c.tile_m << " tile_k " << c.tile_k << " pad_a " << c.pad_a << " pad_b " << c.pad_b << " stages "
    << c.stages;
  return o.str();
}

// ---- shared_a: every tile_m x pad_a ------------------------------------------------------------------------
class SharedATest : public ::testing::TestWithParam<int> {};

TEST_P(SharedATest, EveryPaddingMatchesCublas) {
  TCGEMM_REQUIRE_GPU();
  const int tile = GetParam();
  for (int pad : kPads) {
    const tcgemm_config cfg = shared_a_config(tile, pad);
    ASSERT_EQ(device_check(cfg), TCGEMM_SUCCESS) << config_name(cfg) << ": " << tcgemm_last_error();
    GemmCall call = [tile, pad](const GemmSpec& s, const double* A, int64_t lda, const double* B, int64_t ldb,
                                double* C, int64_t ldc, cudaStream_t stream) {
      return tcgemm_dmma_shared_a(s.m, s.n, s.k, tile, pad, A, lda, B, ldb, C, ldc, stream);
    };
    for (const GemmSpec& s : odd_sizes(100 + uint64_t(tile) + uint64_t(pad)))
      EXPECT_TRUE(run_and_check(s, call)) << config_name(cfg);
  }
}

TEST_P(SharedATest, BlasSemanticsThroughDgemmConfig) {
  TCGEMM_REQUIRE_GPU();
  const int tile = GetParam();
  const tcgemm_config cfg = shared_a_config(tile, 4);
  const char trans[][2] = {{'N', 'N'}, {'T', 'N'}, {'N', 'T'}, {'T', 'T'}};
  uint64_t seed = 500 + uint64_t(tile);
  for (const auto& t : trans) {
    GemmSpec s = spec(70, 41, 29, ++seed);
    s.transa = t[0];
    s.transb = t[1];
    s.alpha = -0.5;
    s.beta = 0.75;
    s.lda_pad = 3;
    s.ldc_pad = 5;
    s.b_offset = 1;  // B only 8-byte aligned
    EXPECT_TRUE(run_and_check(s, dgemm_config_call(cfg))) << config_name(cfg);
  }
}

INSTANTIATE_TEST_SUITE_P(Tiles, SharedATest, ::testing::ValuesIn(kTiles),
                         [](const ::testing::TestParamInfo<int>& i) { return "tile" + std::to_string(i.param); });

// ---- shared_ab: every tile x tile_k x stages, and inside every pad_a x pad_b -------------------------------
using ABParam = std::tuple<int, int, int>;  // tile, tile_k, stages
class SharedABTest : public ::testing::TestWithParam<ABParam> {};

TEST_P(SharedABTest, EveryPaddingMatchesCublas) {
  TCGEMM_REQUIRE_GPU();
  const auto [tile, tile_k, stages] = GetParam();
  tcgemm_config defaults{};
  ASSERT_EQ(tcgemm_default_config(TCGEMM_FAMILY_SHARED_AB, &defaults), TCGEMM_SUCCESS);
  const int default_stages = defaults.stages;
  int ran = 0, skipped = 0;
  for (int pad_a : kPads) {
    for (int pad_b : kPads) {
      const tcgemm_config cfg = shared_ab_config(tile, tile_k, pad_a, pad_b, stages);
      const tcgemm_status st = device_check(cfg);
      if (st == TCGEMM_ERROR_SHARED_MEMORY) {
        ++skipped;
        continue;
      }
      ASSERT_EQ(st, TCGEMM_SUCCESS) << config_name(cfg) << ": " << tcgemm_last_error();
      // tcgemm_dmma_shared_ab runs the default pipeline depth; other depths go through the config entry point.
      GemmCall call = dgemm_config_call(cfg);
      if (stages == default_stages) {
        call = [cfg](const GemmSpec& s, const double* A, int64_t lda, const double* B, int64_t ldb, double* C,
                     int64_t ldc, cudaStream_t stream) {
          return tcgemm_dmma_shared_ab(s.m, s.n, s.k, cfg.tile_m, cfg.tile_k, cfg.pad_a, cfg.pad_b, A, lda, B, ldb,
                                       C, ldc, stream);
        };
      }
      // All sizes for the padding pairs on the diagonal; the off-diagonal pairs (which only move the bank
      // mapping) on the most irregular size.
      const uint64_t seed = 1000 + uint64_t(tile * 7 + tile_k * 3 + pad_a * 11 + pad_b * 13 + stages);
      std::vector<GemmSpec> sizes = odd_sizes(seed);
      if (pad_a != pad_b) sizes.resize(1);
      for (const GemmSpec& s : sizes) EXPECT_TRUE(run_and_check(s, call)) << config_name(cfg);
      ++ran;
    }
  }
  if (ran == 0) GTEST_SKIP() << "every padding of this tile/tile_k/stages needs more shared memory than the device has";
  if (skipped) RecordProperty("skipped_paddings", skipped);
}

// The same kernels through the BLAS entry point: transposes, alpha/beta, padded and misaligned operands.
TEST_P(SharedABTest, BlasSemanticsThroughDgemmConfig) {
  TCGEMM_REQUIRE_GPU();
  const auto [tile, tile_k, stages] = GetParam();
  const tcgemm_config cfg = shared_ab_config(tile, tile_k, 4, 4, stages);
  const tcgemm_status st = device_check(cfg);
  if (st == TCGEMM_ERROR_SHARED_MEMORY) GTEST_SKIP() << config_name(cfg) << ": " << tcgemm_last_error();
  ASSERT_EQ(st, TCGEMM_SUCCESS) << config_name(cfg) << ": " << tcgemm_last_error();
  const char trans[][2] = {{'N', 'N'}, {'T', 'N'}, {'N', 'T'}, {'T', 'T'}};
  uint64_t seed = 2000 + uint64_t(tile * 5 + tile_k + stages);
  for (const auto& t : trans) {
    GemmSpec s = spec(75, 66, 53, ++seed);
    s.transa = t[0];
    s.transb = t[1];
    s.alpha = -0.5;
    s.beta = 0.75;
    s.ldb_pad = 2;
    s.ldc_pad = 3;
    s.a_offset = 1;  // A only 8-byte aligned: the 16-byte copy must not be taken
    EXPECT_TRUE(run_and_check(s, dgemm_config_call(cfg))) << config_name(cfg);
  }
}

std::vector<ABParam> ab_params() {
  std::vector<ABParam> out;
  for (int tile : kTiles)
    for (int tile_k : kTileKs)
      for (int stages : {1, 2, 3, 4})
        // Rings of 3 and 4 buffers on the shallower k-tiles (deep ones rarely fit the shared memory anyway).
        if (stages <= 2 || tile_k <= 64) out.emplace_back(tile, tile_k, stages);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Grid, SharedABTest, ::testing::ValuesIn(ab_params()),
                         [](const ::testing::TestParamInfo<ABParam>& i) {
                           return "tile" + std::to_string(std::get<0>(i.param)) + "_k" +
                                  std::to_string(std::get<1>(i.param)) + "_stages" +
                                  std::to_string(std::get<2>(i.param));
                         });

// ---- pipeline and grid edge cases ---------------------------------------------------------------------------
// k spanning many slabs with a short last one: the ring of buffers wraps around a number of times that is not
// a multiple of its length.
TEST(SharedABPipeline, ManySlabsWithShortLastSlab) {
  TCGEMM_REQUIRE_GPU();
  for (int stages = 1; stages <= 6; ++stages) {
    const tcgemm_config cfg = shared_ab_config(32, 4, 4, 4, stages);
    GemmSpec s = spec(40, 36, 301, 77 + uint64_t(stages));  // 76 slabs, the last one 1 deep
    EXPECT_TRUE(run_and_check(s, dgemm_config_call(cfg))) << config_name(cfg);
  }
}

// Fully aligned, tile-multiple sizes: every block takes the 16-byte interior path in every slab.
TEST(SharedABPipeline, AlignedInteriorPath) {
  TCGEMM_REQUIRE_GPU();
  for (int tile : kTiles) {
    for (int stages = 1; stages <= 4; ++stages) {
      const tcgemm_config cfg = shared_ab_config(tile, 32, 4, 4, stages);
      const tcgemm_status st = device_check(cfg);
      if (st == TCGEMM_ERROR_SHARED_MEMORY) continue;  // e.g. 128 x 128, 4 stages: 276 KB
      ASSERT_EQ(st, TCGEMM_SUCCESS) << config_name(cfg) << ": " << tcgemm_last_error();
      GemmSpec s = spec(2 * tile, tile, 96, 90 + uint64_t(tile + stages));
      EXPECT_TRUE(run_and_check(s, dgemm_config_call(cfg))) << config_name(cfg);
    }
  }
}

// Fewer k-tiles than the ring has buffers (the prologue commits empty groups), and exactly as many.
TEST(SharedABPipeline, FewerKTilesThanStages) {
  TCGEMM_REQUIRE_GPU();
  for (int stages : {3, 4, 6}) {
    for (int64_t k : {1, 5, 8, 20, 24}) {
      const tcgemm_config cfg = shared_ab_config(64, 4, 2, 6, stages);
      GemmSpec s = spec(70, 130, k, 300 + uint64_t(stages * 31 + k));
      s.beta = 0.5;
      EXPECT_TRUE(run_and_check(s, dgemm_config_call(cfg))) << config_name(cfg) << " k " << k;
    }
  }
}

// More C tiles along m than along n and vice versa (the linear tile index maps to (m, n) correctly).
TEST(SharedFamilies, TallAndWideMatrices) {
  TCGEMM_REQUIRE_GPU();
  const tcgemm_config configs[] = {shared_a_config(32, 4), shared_ab_config(32, 16, 4, 4, 2)};
  for (const auto& cfg : configs) {
    EXPECT_TRUE(run_and_check(spec(300, 5, 9, 61), dgemm_config_call(cfg))) << config_name(cfg);
    EXPECT_TRUE(run_and_check(spec(3, 290, 20, 62), dgemm_config_call(cfg))) << config_name(cfg);
  }
}

// Both families on a caller's stream.
TEST(SharedFamilies, NonDefaultStream) {
  TCGEMM_REQUIRE_GPU();
  cudaStream_t stream = nullptr;
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const tcgemm_config configs[] = {shared_a_config(64, 2), shared_ab_config(64, 32, 4, 4, 2),
                                   shared_ab_config(96, 16, 2, 6, 1)};
  for (const auto& cfg : configs) {
    GemmSpec s = spec(150, 97, 71, 71);
    s.beta = 1.0;
    EXPECT_TRUE(run_and_check(s, dgemm_config_call(cfg), stream)) << config_name(cfg);
  }
  CUDA_OK(cudaStreamDestroy(stream));
}

}  // namespace
