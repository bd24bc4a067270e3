// GPU tests of family sm90_mma (Hopper mma.sync m16n8k*.f64 kernels) through tcgemm_dgemm_config: every
// block shape of kSm90Shapes at every stage count it accepts, odd sizes, all trans combinations,
// alpha/beta (beta = 0 with NaN in C), k = 0, leading dimensions above the rows with odd values (forcing
// the 8-byte copy path), base pointers one element off (likewise), interior blocks over a deep k (the
// edge-free main loop and its hand-over to the edge loop), and a non-default stream. Reference:
// cuBLAS DGEMM on the same fresh random data (gpu_test_util.hpp). Sizes stay small: the suite also runs
// under compute-sanitizer memcheck, racecheck and synccheck.
#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "api/dgemm_plan.hpp"       // white-box: the plan model with the device's cluster room
#include "api/gemm_call.hpp"
#include "core/device.hpp"
#include "families/sm90/rules.hpp"  // white-box: kSm90Shapes, so the test covers whatever the table holds
#include "gpu_test_util.hpp"
#include "tcgemm/tcgemm.h"

namespace {

using tcgemm::detail::kSm90ShapeCount;
using tcgemm::detail::kSm90Shapes;
using tcgemm::detail::Sm90Shape;
using tcgemm::test::GemmCall;
using tcgemm::test::GemmSpec;
using tcgemm::test::dgemm_config_call;
using tcgemm::test::run_and_check;
using tcgemm::test::sm90_mma_config;
using tcgemm::test::spec;

constexpr int kHopperCcMajor = 9;

#define TCGEMM_REQUIRE_SM90()                                                                            \
  do {                                                                                                   \
    TCGEMM_REQUIRE_GPU();                                                                                \
    if (::tcgemm::test::device_cc_major() != kHopperCcMajor)                                             \
      GTEST_SKIP() << "sm90_mma needs compute capability 9.x";                                           \
    if (!TCGEMM_TEST_SM90_CODE) GTEST_SKIP() << "this build has no sm_90 code (CMAKE_CUDA_ARCHITECTURES)"; \
  } while (0)

struct Size {
  int64_t m, n, k;
};
// Odd sizes (every edge of every tile partial), plus one that is whole 128x128 tiles and 16-deep k-tiles.
const Size kOddSizes[] = {{1, 1, 1}, {17, 9, 5}, {129, 130, 131}, {300, 257, 77}, {256, 128, 48}};
const char* const kTrans[] = {"NN", "NT", "TN", "TT"};

tcgemm_config sm90_config(int shape, int stages) {
  const Sm90Shape& s = kSm90Shapes[shape];
  return sm90_mma_config(s.tile_m, s.tile_n, s.tile_k, stages);
}

// Each shape at every stage count it accepts: each count is its own predicated k-tile wait
// (arch::cp_async_wait_pending_upto) and its own ring of stage buffers.
std::vector<tcgemm_config> configs_all_stages() {
  std::vector<tcgemm_config> out;
  for (int i = 0; i < kSm90ShapeCount; ++i)
    for (int st = kSm90Shapes[i].min_stages; st <= kSm90Shapes[i].max_stages; ++st) out.push_back(sm90_config(i, st));
  return out;
}
std::vector<tcgemm_config> configs_default_stages() {
  std::vector<tcgemm_config> out;
  for (int i = 0; i < kSm90ShapeCount; ++i) out.push_back(sm90_config(i, kSm90Shapes[i].default_stages));
  return out;
}

std::string describe(const tcgemm_config& c) {
  std::ostringstream o;
  o << "sm90_mma tile " << c.tile_m << "x" << c.tile_n << "x" << c.tile_k << " stages " << c.stages;
  return o.str();
}

// Every configuration x size x form, each case with the next seed; `vary(spec, seed)` sets the rest of the
// case (alpha, beta, leading-dimension padding) before it is run and checked against cuBLAS.
template <size_t kSizes, class Vary>
void check_every_case(const std::vector<tcgemm_config>& configs, const Size (&sizes)[kSizes], uint64_t seed,
                      Vary&& vary) {
  for (const tcgemm_config& cfg : configs)
    for (const Size& z : sizes)
      for (const char* t : kTrans) {
        GemmSpec s = spec(z.m, z.n, z.k, ++seed);
        s.transa = t[0];
        s.transb = t[1];
        vary(s, seed);
        EXPECT_TRUE(run_and_check(s, dgemm_config_call(cfg)))
            << describe(cfg) << " m " << z.m << " n " << z.n << " k " << z.k << " " << t;
      }
}

TEST(Sm90Mma, ShapesStagesSizesTrans) {
  TCGEMM_REQUIRE_SM90();
  // Alternate beta = 0 (C NaN-poisoned, must not be read) and a general alpha/beta.
  check_every_case(configs_all_stages(), kOddSizes, 9000, [](GemmSpec& s, uint64_t seed) {
    s.alpha = (seed % 2) ? 1.0 : -0.5;
    s.beta = (seed % 2) ? 0.0 : 0.75;
  });
}

TEST(Sm90Mma, AlphaBeta) {
  TCGEMM_REQUIRE_SM90();
  struct AlphaBeta {
    double alpha, beta;
  };
  const AlphaBeta cases[] = {{1.0, 0.0}, {-0.5, 0.0}, {2.0, 1.0}, {0.75, -1.0}, {1.0, 0.5}};
  uint64_t seed = 9500;
  const char* const trans[] = {"NN", "TT", "nt", "Tn", "cN"};  // any case; 'C' is 'T' for real data
  for (const tcgemm_config& cfg : configs_default_stages())
    for (int c = 0; c < int(sizeof cases / sizeof cases[0]); ++c) {
      const AlphaBeta& ab = cases[c];
      for (int r = 0; r < 2; ++r) {  // two trans pairs per case, rotating through the list
        const char* t = trans[(2 * c + r) % 5];
        GemmSpec s = spec(129, 67, 45, ++seed);
        s.transa = t[0];
        s.transb = t[1];
        s.alpha = ab.alpha;
        s.beta = ab.beta;
        EXPECT_TRUE(run_and_check(s, dgemm_config_call(cfg))) << describe(cfg);
      }
    }
}

// Every operand form with every alpha/beta case, on every shape: each form has its own fragment pipeline and
// epilogue path (TT writes C transposed), so no form may be tested with alpha = 1, beta = 0 only.
TEST(Sm90Mma, EveryFormWithEveryAlphaBeta) {
  TCGEMM_REQUIRE_SM90();
  uint64_t seed = 9700;
  for (const tcgemm_config& cfg : configs_default_stages())
    for (const char* t : kTrans)
      for (double alpha : {1.0, -0.5, 0.0})
        for (double beta : {0.0, 1.0, 0.75}) {
          GemmSpec s = spec(129, 67, 45, ++seed);
          s.transa = t[0];
          s.transb = t[1];
          s.alpha = alpha;
          s.beta = beta;
          EXPECT_TRUE(run_and_check(s, dgemm_config_call(cfg))) << describe(cfg);
        }
}

// More than 8 block rows and block columns, with partial edge tiles, for every shape and form, in both
// rasterizations (rules.hpp, sm90_raster_rows): k = 40 keeps A far inside a quarter of L2, so one group holds
// every tile row; the deep k makes A larger than that, so the tiles go in groups of 8 tile rows, the last one
// partial (the group arithmetic of kernel.cuh).
TEST(Sm90Mma, ManyBlockRowsAndColumns) {
  TCGEMM_REQUIRE_SM90();
  int device = 0, l2 = 0;
  CUDA_OK(cudaGetDevice(&device));
  CUDA_OK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  ASSERT_GT(l2, 0);
  uint64_t seed = 9800;
  for (const tcgemm_config& cfg : configs_default_stages())
    for (const bool deep : {false, true}) {
      const int64_t m = 9 * cfg.tile_m + 5, n = 9 * cfg.tile_n + 3, tiles_m = 10;
      const int64_t k = deep ? int64_t(l2) / 4 / 8 / m + 64 : 40;
      // The rule the launcher applies to the forms other than 'T','T' (which runs as the transposed product,
      // its left operand of n rows).
      EXPECT_EQ(tcgemm::detail::sm90_raster_rows(m, k, tiles_m, l2),
                deep ? int64_t(tcgemm::detail::kSm90RasterGroupRows) : tiles_m)
          << describe(cfg) << " k " << k;
      for (const char* t : kTrans) {
        GemmSpec s = spec(m, n, k, ++seed);
        s.transa = t[0];
        s.transb = t[1];
        s.alpha = -0.5;
        s.beta = 0.75;
        EXPECT_TRUE(run_and_check(s, dgemm_config_call(cfg))) << describe(cfg) << " k " << k;
      }
    }
}

// k = 0 and alpha = 0 never reach the kernel (the API scales C), but go through the sm90 configuration.
TEST(Sm90Mma, KZeroAndAlphaZero) {
  TCGEMM_REQUIRE_SM90();
  uint64_t seed = 9600;
  for (const tcgemm_config& cfg : configs_default_stages())
    for (double beta : {0.0, 0.75, 1.0}) {
      GemmSpec z = spec(17, 9, 0, ++seed);
      z.beta = beta;
      EXPECT_TRUE(run_and_check(z, dgemm_config_call(cfg))) << describe(cfg);
      GemmSpec a = spec(17, 9, 5, ++seed);
      a.alpha = 0.0;
      a.beta = beta;
      EXPECT_TRUE(run_and_check(a, dgemm_config_call(cfg))) << describe(cfg);
    }
}

// Odd leading dimensions and base pointers one element off the 16-byte grid select the 8-byte copy path;
// even paddings keep the 16-byte path; C's own alignment selects its store width independently.
TEST(Sm90Mma, LeadingDimensionsAndMisalignedPointers) {
  TCGEMM_REQUIRE_SM90();
  struct Layout {
    int64_t lda_pad, ldb_pad, ldc_pad, a_off, b_off, c_off;
  };
  const Layout layouts[] = {
      {1, 1, 1, 0, 0, 0},  // lda = rows + 1 (odd): 8-byte copies
      {0, 0, 0, 1, 1, 1},  // every base one element off: 8-byte copies, scalar C
      {2, 4, 3, 0, 0, 1},  // even paddings: 16-byte copies, misaligned C
      {3, 0, 0, 0, 2, 0},  // A 8-byte, B 16-byte: both copied 8 bytes wide
  };
  uint64_t seed = 9700;
  for (const tcgemm_config& cfg : configs_default_stages())
    for (const Layout& l : layouts)
      for (const char* t : kTrans) {
        GemmSpec s = spec(130, 67, 45, ++seed);
        s.transa = t[0];
        s.transb = t[1];
        s.alpha = 1.5;
        s.beta = (seed % 2) ? 0.0 : -0.25;
        s.lda_pad = l.lda_pad;
        s.ldb_pad = l.ldb_pad;
        s.ldc_pad = l.ldc_pad;
        s.a_offset = l.a_off;
        s.b_offset = l.b_off;
        s.c_offset = l.c_off;
        EXPECT_TRUE(run_and_check(s, dgemm_config_call(cfg))) << describe(cfg);
      }
}

// Interior blocks (C tile inside m x n) run the edge-free copies for every k-tile but the last
// stages - 1 and a partial one, then hand over to the edge-handling loop; edge blocks run the latter
// throughout. Sizes that are whole tiles of every shape (256 x 256) with a deep k, with and without a
// partial last k-tile, and a mix of interior and edge blocks, at every stage count of each shape; odd
// leading dimensions (8-byte copies) take the same split.
TEST(Sm90Mma, InteriorAndEdgeBlocksDeepK) {
  TCGEMM_REQUIRE_SM90();
  const Size sizes[] = {{256, 256, 160}, {256, 256, 203}, {300, 200, 171}};
  check_every_case(configs_all_stages(), sizes, 9750, [](GemmSpec& s, uint64_t seed) {
    s.alpha = (seed % 2) ? 1.0 : -0.75;
    s.beta = (seed % 3) ? 0.0 : 0.5;
    if (seed % 4 == 0) s.lda_pad = s.ldb_pad = 1;
  });
}

// A tile crossing an odd m (n) edge moves back to end at the edge by an odd count when its copies allow it
// (8-byte copies, or the moved dimension not the operand's contiguous one): it runs the edge-free copies,
// its C chunks start at odd rows, and the write floor then falls inside a chunk, whose first row belongs to
// the neighbouring tile. beta != 0 catches a row written by both tiles (beta applied twice) or by neither
// (NaN or old C); beta = 0 over NaN-poisoned C catches an unwritten one. Leading dimensions:
//   - the rows (odd m or n: 8-byte copies, every edge tile moves);
//   - padded to even (16-byte copies: a k-contiguous operand's tiles move, an mn-contiguous one's stay on
//     the edge-handling path; C with an even ldc keeps 16-byte stores except in the moved tiles).
// The deepest size passes 256 k-tiles (the direct epilogue): k = 4130 for the 16-deep tiles, 8230 for the 32-deep
// ones. The split cases run a 2-slice cluster (64x64, slices of 10 k-tiles) and a 4-slice workspace reduction,
// whose partial products have the call's odd m as their leading dimension.
TEST(Sm90Mma, EdgeTilesMovedByAnOddCount) {
  TCGEMM_REQUIRE_SM90();
  const Size sizes[] = {{301, 203, 150}, {129, 257, 96}, {201, 135, 4130}};
  std::vector<tcgemm_config> configs = configs_default_stages();
  tcgemm_config cluster = sm90_config(1, kSm90Shapes[1].default_stages);  // 64x64
  cluster.k_splits = 2;
  configs.push_back(cluster);
  tcgemm_config workspace = sm90_config(0, kSm90Shapes[0].default_stages);  // 128x64
  workspace.k_splits = 4;
  configs.push_back(workspace);
  uint64_t seed = 9950;
  for (const tcgemm_config& cfg : configs)
    for (const Size& z : sizes) {
      if (cfg.k_splits > 1 && z.k != 150 && z.k != 96) continue;  // the split cases at the shallow sizes
      for (const bool even_ld : {false, true})
        for (const char* t : kTrans) {
          const int64_t k = cfg.k_splits > 1 ? 300 : (z.k == 4130 && cfg.tile_k == 32 ? 8230 : z.k);
          GemmSpec s = spec(z.m, z.n, k, ++seed);
          s.transa = t[0];
          s.transb = t[1];
          s.alpha = (seed % 2) ? 1.0 : -0.75;
          s.beta = (seed % 4 < 2) ? 0.0 : 0.5;
          if (even_ld) {
            const int64_t a_rows = s.transa == 'N' ? s.m : s.k, b_rows = s.transb == 'N' ? s.k : s.n;
            s.lda_pad = a_rows % 2;
            s.ldb_pad = b_rows % 2;
            s.ldc_pad = s.m % 2;
          }
          EXPECT_TRUE(run_and_check(s, dgemm_config_call(cfg)))
              << describe(cfg) << " k_splits " << cfg.k_splits << " " << tcgemm::test::describe(s);
        }
    }
}

// Interior blocks whose k-tiles are all whole run every k-tile, prologue included, through the edge-free
// copies; with fewer k-tiles than the prologue fills (k = 16, 32 at 4 or 5 stages) the prologue takes the
// edge-handling copies and the main loop only commits empty groups. Tiles moved back to an even edge
// (300 x 200) take the same route with write floors. Up to 256 k-tiles every form stages its epilogue in
// shared memory ('T','T' as a block of C, transposed; on 16-wide warp tiles, the 32x32 block, 'T','T' stores
// directly), past that (k = 4112 for 16-deep k-tiles, 8224 for 32-deep ones) it stores directly. k = 96 is
// three whole 32-deep k-tiles (prologues of 1 and 3 k-tiles at 2 and 4 stages).
TEST(Sm90Mma, WholeKTilesAndEpilogueRoutes) {
  TCGEMM_REQUIRE_SM90();
  const Size sizes[] = {{256, 256, 16}, {256, 256, 32}, {256, 256, 48},  {256, 256, 96},
                        {300, 200, 64}, {70, 90, 4112}, {40, 70, 8224}};
  check_every_case(configs_all_stages(), sizes, 9900, [](GemmSpec& s, uint64_t seed) {
    s.alpha = (seed % 2) ? 1.0 : -0.75;
    s.beta = (seed % 3) ? 0.0 : 0.5;
    if (seed % 5 == 0) s.ldc_pad = 1;  // odd ldc: per-element C stores
  });
}

TEST(Sm90Mma, NonDefaultStream) {
  TCGEMM_REQUIRE_SM90();
  cudaStream_t stream = nullptr;
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  uint64_t seed = 9800;
  for (const tcgemm_config& cfg : configs_default_stages()) {
    GemmSpec s = spec(200, 131, 70, ++seed);
    s.transa = 'T';
    s.transb = 'N';
    s.beta = 0.75;
    EXPECT_TRUE(run_and_check(s, dgemm_config_call(cfg), stream)) << describe(cfg);
    GemmSpec z = spec(20, 30, 0, ++seed);
    z.beta = 0.0;
    EXPECT_TRUE(run_and_check(z, dgemm_config_call(cfg), stream)) << describe(cfg);
  }
  CUDA_OK(cudaStreamDestroy(stream));
}

// Zero in tile_m/tile_n/tile_k/stages selects the family's default shape.
TEST(Sm90Mma, DefaultConfiguration) {
  TCGEMM_REQUIRE_SM90();
  tcgemm_config c{};
  c.family = TCGEMM_FAMILY_SM90_MMA;
  GemmSpec s = spec(150, 140, 33, 9900);
  s.transb = 'T';
  s.beta = 0.5;
  EXPECT_TRUE(run_and_check(s, dgemm_config_call(c)));
}

// The cluster room (rules.hpp, sm90_cluster_room): CUDA's count of clusters of 2..8 blocks that the device runs
// at once, for every shape with a cluster instance. It is at most the block slots over the cluster size and
// never grows with the cluster size. On the H100 SXM the calibration data came from it was kH100ClusterRoom, the
// table the CPU tests and tcgemm-plan-check use; another board may differ, so a difference is printed, not
// failed. The plan model running on the device reads the same table (plan_device).
TEST(Sm90ClusterRoom, TheDeviceAnswersAndThePlanUsesIt) {
  TCGEMM_REQUIRE_SM90();
  namespace d = tcgemm::detail;
  d::DeviceContext ctx;
  ASSERT_EQ(d::device_gate(-1, &ctx), TCGEMM_SUCCESS);
  const d::Sm90ClusterRoom* room = d::sm90_cluster_room(ctx);
  ASSERT_NE(room, nullptr);
  EXPECT_EQ(d::sm90_cluster_room(ctx), room) << "one table per context";
  EXPECT_EQ(d::plan_device(ctx).cluster_room, room);
  for (int shape = 0; shape < kSm90ShapeCount; ++shape) {
    std::ostringstream line;
    line << kSm90Shapes[shape].tile_m << "x" << kSm90Shapes[shape].tile_n << " clusters at once (2..8 blocks):";
    bool as_h100 = true;
    for (int slices = 2; slices <= d::kSm90MaxClusterSlices; ++slices) {
      const int n = room->clusters[shape][slices];
      line << " " << n;
      as_h100 = as_h100 && n == d::kH100ClusterRoom.clusters[shape][slices];
      if (d::sm90_blocks_per_sm(kSm90Shapes[shape]) == 1) {
        EXPECT_EQ(n, 0) << "no cluster instance";
        continue;
      }
      EXPECT_GT(n, 0) << line.str();
      EXPECT_LE(int64_t(n), d::sm90_clusters_at_once(nullptr, shape, slices, ctx.sm_count)) << line.str();
      if (slices > 2) {
        EXPECT_LE(n, room->clusters[shape][slices - 1]) << line.str();
      }
    }
    std::printf("%s%s\n", line.str().c_str(), as_h100 ? " (as kH100ClusterRoom)" : " (differs from kH100ClusterRoom)");
  }
}

// The device reports its memory bandwidth (the plan's wide-memory calibration reads it) and the plan device carries
// the context's figure. A Hopper's peak lies between 2 TB/s (H100 PCIe) and 6 TB/s (beyond the H200's and GH200's
// 4.8-4.9); a device may also report nothing (0), which the library accepts as the H100 calibration. At 3000^3 the plan
// is 64x64 unsplit on a wide-memory device (>= 4.5 TB/s) and 128x64 otherwise (host test: test_plan_cpu), and the
// call is checked against cuBLAS.
TEST(Sm90Plan, TheDeviceReportsItsMemoryBandwidthAndThePlanReadsIt) {
  TCGEMM_REQUIRE_SM90();
  namespace d = tcgemm::detail;
  d::DeviceContext ctx;
  ASSERT_EQ(d::device_gate(-1, &ctx), TCGEMM_SUCCESS);
  std::printf("peak memory bandwidth %.2f TB/s\n", ctx.hbm_peak_bytes_per_us / 1e6);
  if (ctx.hbm_peak_bytes_per_us != 0.0) {
    EXPECT_GE(ctx.hbm_peak_bytes_per_us, 2.0e6);
    EXPECT_LE(ctx.hbm_peak_bytes_per_us, 6.0e6);
  }
  const d::PlanDevice dev = d::plan_device(ctx);
  EXPECT_EQ(dev.hbm_peak_bytes_per_us, ctx.hbm_peak_bytes_per_us);
  const tcgemm_plan plan = d::plan_dgemm(dev, 'N', 'N', 3000, 3000, 3000);
  const bool wide = ctx.hbm_peak_bytes_per_us >= 4.5e6;
  EXPECT_EQ(plan.config.tile_m, wide ? 64 : 128) << plan.summary;
  EXPECT_EQ(plan.config.tile_n, 64) << plan.summary;
  EXPECT_EQ(plan.k_slices, 1) << plan.summary;
  GemmSpec s = spec(3000, 3000, 3000, 4242);
  s.beta = 0.0;  // C poisoned with NaN
  EXPECT_TRUE(run_and_check(s, tcgemm::test::dgemm_auto_call()));
  EXPECT_TRUE(run_and_check(s, dgemm_config_call(plan.config))) << "the plan's configuration, passed explicitly";
}

// The launcher takes the cluster route exactly where every tile's cluster fits: 4 slices of 128x64 over a C of
// two tile rows with as many tiles as the room holds, and one column more (on the H100, 62 and 64 tiles). Both
// routes are checked against cuBLAS (beta = 0 over NaN). And the plan model's route is the launcher's for
// every split it picks on a grid of deep-k shapes.
TEST(Sm90ClusterRoom, TheLauncherAndThePlanTakeTheSameRoute) {
  TCGEMM_REQUIRE_SM90();
  namespace d = tcgemm::detail;
  d::DeviceContext ctx;
  ASSERT_EQ(d::device_gate(-1, &ctx), TCGEMM_SUCCESS);
  const int shape = d::find_sm90_shape(128, 64, 16);
  const int64_t room = d::sm90_cluster_room(ctx)->clusters[shape][4];
  ASSERT_GE(room, 2);
  const tcgemm_config cfg = sm90_mma_config(128, 64, 16, kSm90Shapes[shape].default_stages, 4);
  uint64_t seed = 9950;
  for (const int64_t cols : {room / 2, room / 2 + 1}) {
    d::GemmProblem p;
    p.m = 256;
    p.n = cols * 64 - 5;
    p.k = 4 * 8 * 16 + 37;
    EXPECT_EQ(d::sm90_takes_cluster_route(p, cfg, ctx), 2 * cols <= room) << 2 * cols << " tiles, room " << room;
    for (const char* t : {"NN", "NT", "TN"}) {
      GemmSpec s = spec(p.m, p.n, p.k, ++seed);
      s.transa = t[0];
      s.transb = t[1];
      s.beta = 0.0;  // C poisoned with NaN: the sums must write every element
      EXPECT_TRUE(run_and_check(s, dgemm_config_call(cfg))) << t << " " << 2 * cols << " tiles";
    }
  }
  const d::PlanDevice dev = d::plan_device(ctx);
  int split = 0;
  for (const int64_t mn : {int64_t(384), int64_t(600), int64_t(777), int64_t(952), int64_t(1200)})
    for (const int64_t k : {int64_t(3000), int64_t(4911), int64_t(8001)})
      for (const char* t : {"NN", "TN"}) {
        const tcgemm_plan plan = d::plan_dgemm(dev, t[0], t[1], mn, mn / 2 + 1, k);
        if (plan.config.family != TCGEMM_FAMILY_SM90_MMA || plan.k_slices < 2) continue;
        ++split;
        d::GemmProblem p;
        p.transa = t[0];
        p.m = mn;
        p.n = mn / 2 + 1;
        p.k = k;
        EXPECT_EQ(d::sm90_takes_cluster_route(p, plan.config, ctx), plan.cluster_split == 1) << plan.summary;
      }
  EXPECT_GT(split, 0) << "no split plan on the grid";
}

}  // namespace
