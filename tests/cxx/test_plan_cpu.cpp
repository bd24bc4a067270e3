// The plan model (api/dgemm_plan.hpp) and the split rules, host only: which family, tile and slice count
// a shape gets, and that the split arithmetic covers k exactly.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "api/dgemm_plan.hpp"
#include "core/problem.hpp"
#include "host/pipelined_dgemm.hpp"
#include "families/skinny/rules.hpp"
#include "families/sm90/rules.hpp"
#include "tcgemm/tcgemm.h"

namespace {

using tcgemm::detail::plan_dgemm;
using tcgemm::detail::PlanDevice;

// The H100 SXM the model's constants describe, with the memory figure its attributes give (2619000 kHz x 5120
// bits = 3.35 TB/s).
PlanDevice h100() {
  PlanDevice d;
  d.cc_major = 9;
  d.sm_count = 132;
  d.sm90_code = true;
  d.cluster_room = &tcgemm::detail::kH100ClusterRoom;
  d.hbm_peak_bytes_per_us = tcgemm::detail::peak_memory_bytes_per_us(2619000, 5120);
  return d;
}
// The H200: the H100's SMs and cluster room with 4.8 TB/s of memory (its attributes: 3201 MHz x 6016 bits).
PlanDevice h200() {
  PlanDevice d = h100();
  d.hbm_peak_bytes_per_us = tcgemm::detail::peak_memory_bytes_per_us(3201000, 6016);
  return d;
}
PlanDevice a100() {
  PlanDevice d;
  d.cc_major = 8;
  d.sm_count = 108;
  d.sm90_code = false;
  return d;
}

TEST(PlanModel, VectorLikeShapesTakeTheSkinnyFamily) {
  for (const auto& s : {std::array<int64_t, 3>{1, 4096, 4096}, {4096, 1, 4096}, {8, 8192, 8192}, {8192, 3, 100}}) {
    const tcgemm_plan p = plan_dgemm(h100(), 'N', 'N', s[0], s[1], s[2]);
    EXPECT_EQ(p.config.family, TCGEMM_FAMILY_SKINNY) << p.summary;
    EXPECT_EQ(plan_dgemm(a100(), 'T', 'N', s[0], s[1], s[2]).config.family, TCGEMM_FAMILY_SKINNY);
  }
  EXPECT_EQ(plan_dgemm(h100(), 'N', 'N', 9, 8192, 8192).config.family, TCGEMM_FAMILY_SM90_MMA);
}

// The skinny family's k-chunks: a cluster adds up to 8 of a k-contiguous large operand on the sm90 path (no
// workspace); the cols-contiguous kernel, more chunks, and devices without sm_90 code use the workspace.
TEST(PlanModel, SkinnyChunksAddUpInAClusterWhereTheRuleSays) {
  // 3 rows: the column-stream route (1-2 rows) does not apply.
  const tcgemm_plan k_contiguous = plan_dgemm(h100(), 'N', 'N', 3, 4096, 4096);  // G = B 'N'
  ASSERT_EQ(k_contiguous.config.family, TCGEMM_FAMILY_SKINNY) << k_contiguous.summary;
  EXPECT_GT(k_contiguous.k_slices, 1) << k_contiguous.summary;
  EXPECT_LE(k_contiguous.k_slices, 8) << k_contiguous.summary;
  EXPECT_EQ(k_contiguous.cluster_split, 1) << k_contiguous.summary;
  EXPECT_EQ(k_contiguous.workspace_bytes, 0) << k_contiguous.summary;
  const tcgemm_plan cols_contiguous = plan_dgemm(h100(), 'N', 'N', 4096, 1, 4096);  // G = A^T, A 'N'
  ASSERT_EQ(cols_contiguous.config.family, TCGEMM_FAMILY_SKINNY) << cols_contiguous.summary;
  EXPECT_EQ(cols_contiguous.cluster_split, 0) << cols_contiguous.summary;
  EXPECT_EQ(cols_contiguous.workspace_bytes, cols_contiguous.k_slices * 4096 * 8) << cols_contiguous.summary;
  // 5-8 rows over a k-contiguous G with 16-byte pairs run on the tensor-core kernel (skinny_mma_chunk_k): chunks
  // enough to fill 2 blocks per SM once, at most 2 of them in a cluster. 8 x 8192 x 8192: 128 column blocks, 2
  // chunks in a cluster; 8 x 2000 x 2000: 32 column blocks, 8 chunks through workspace.
  const tcgemm_plan deep = plan_dgemm(h100(), 'N', 'N', 8, 8192, 8192);
  ASSERT_EQ(deep.config.family, TCGEMM_FAMILY_SKINNY) << deep.summary;
  EXPECT_EQ(deep.k_slices, 2) << deep.summary;
  EXPECT_EQ(deep.k_per_slice, 4096) << deep.summary;
  EXPECT_EQ(deep.cluster_split, 1) << deep.summary;
  EXPECT_EQ(deep.workspace_bytes, 0) << deep.summary;
  const tcgemm_plan few_cols = plan_dgemm(h100(), 'N', 'N', 8, 2000, 2000);
  ASSERT_EQ(few_cols.config.family, TCGEMM_FAMILY_SKINNY) << few_cols.summary;
  EXPECT_EQ(few_cols.k_slices, 8) << few_cols.summary;
  EXPECT_EQ(few_cols.cluster_split, 0) << few_cols.summary;
  EXPECT_EQ(few_cols.workspace_bytes, 8 * 8 * 2000 * 8) << few_cols.summary;
  // The CUDA-core kernels: up to 8 chunks in a cluster, at most 4 with 5-8 rows; the tensor-core kernel at most 2.
  using tcgemm::detail::skinny_cluster_reduces;
  using tcgemm::detail::skinny_shape;
  EXPECT_TRUE(skinny_cluster_reduces(skinny_shape('N', 'N', 4, 8192, 4096), 8, true, false));
  EXPECT_TRUE(skinny_cluster_reduces(skinny_shape('N', 'N', 8, 8192, 4096), 4, true, false));
  EXPECT_FALSE(skinny_cluster_reduces(skinny_shape('N', 'N', 5, 8192, 4096), 5, true, false));
  EXPECT_FALSE(skinny_cluster_reduces(skinny_shape('N', 'N', 8, 8192, 4096), 8, true, false));
  EXPECT_TRUE(skinny_cluster_reduces(skinny_shape('N', 'N', 8, 8192, 4096), 2, true, true));
  EXPECT_FALSE(skinny_cluster_reduces(skinny_shape('N', 'N', 8, 8192, 4096), 3, true, true));
  EXPECT_FALSE(skinny_cluster_reduces(skinny_shape('N', 'N', 8, 8192, 4096), 2, false, true));
  // Odd k: the plan's whole arrays have no 16-byte pairs, the CUDA-core kernel runs 8 chunks of 512 through
  // workspace.
  const tcgemm_plan wide = plan_dgemm(h100(), 'N', 'N', 8, 8192, 4095);
  ASSERT_EQ(wide.config.family, TCGEMM_FAMILY_SKINNY) << wide.summary;
  EXPECT_EQ(wide.k_slices, 8) << wide.summary;
  EXPECT_EQ(wide.cluster_split, 0) << wide.summary;
  EXPECT_EQ(wide.workspace_bytes, 8 * 8 * 8192 * 8) << wide.summary;
  const tcgemm_plan ampere = plan_dgemm(a100(), 'N', 'N', 3, 4096, 4096);
  EXPECT_EQ(ampere.cluster_split, 0) << ampere.summary;
  EXPECT_GT(ampere.workspace_bytes, 0) << ampere.summary;
}

// The skinny family's tensor-core kernel (skinny_on_tensor_cores): 5 to 8 rows over a k-contiguous G with
// 16-byte pairs, on a device running the build's sm_90 code; the plan (whole arrays: G's columns k apart)
// names it where it runs. The launcher's own decision is checked on the GPU (Skinny.TensorCoreKernelEveryLayout,
// from the kernels a call launches).
TEST(SkinnyRoute, TensorCoresExactlyWhereTheirConditionsHold) {
  using tcgemm::detail::skinny_on_tensor_cores;
  using tcgemm::detail::skinny_shape;
  EXPECT_TRUE(skinny_on_tensor_cores(skinny_shape('N', 'N', 8, 8192, 8192), true, true));
  EXPECT_TRUE(skinny_on_tensor_cores(skinny_shape('N', 'N', 5, 8192, 8192), true, true));
  EXPECT_TRUE(skinny_on_tensor_cores(skinny_shape('T', 'T', 8192, 6, 100), true, true));   // G = A^T, A 'T'
  EXPECT_FALSE(skinny_on_tensor_cores(skinny_shape('N', 'N', 4, 8192, 8192), true, true));  // 4 rows
  EXPECT_FALSE(skinny_on_tensor_cores(skinny_shape('N', 'T', 8, 8192, 8192), true, true));  // G cols-contiguous
  EXPECT_FALSE(skinny_on_tensor_cores(skinny_shape('N', 'N', 8192, 6, 100), true, true));   // G = A^T, A 'N'
  EXPECT_FALSE(skinny_on_tensor_cores(skinny_shape('N', 'N', 8, 8192, 8192), false, true)); // 8-byte G loads
  EXPECT_FALSE(skinny_on_tensor_cores(skinny_shape('N', 'N', 8, 8192, 8192), true, false)); // no sm_90 code
  const std::string hopper = plan_dgemm(h100(), 'N', 'N', 8, 8192, 8192).summary;
  EXPECT_NE(hopper.find("FP64 tensor cores"), std::string::npos) << hopper;
  const std::string ampere = plan_dgemm(a100(), 'N', 'N', 8, 8192, 8192).summary;
  EXPECT_NE(ampere.find("FP64 CUDA cores"), std::string::npos) << ampere;
  const std::string four = plan_dgemm(h100(), 'N', 'N', 4, 8192, 8192).summary;
  EXPECT_NE(four.find("FP64 CUDA cores"), std::string::npos) << four;
  const std::string odd = plan_dgemm(h100(), 'N', 'N', 8, 8191, 8191).summary;  // ldb = 8191: 8-byte G loads
  EXPECT_NE(odd.find("FP64 CUDA cores"), std::string::npos) << odd;
}

// The skinny family's column-stream route (one warp per whole column of a k-contiguous large operand):
// the launcher's decision for one call, with stand-in pointers (only their alignment is read), at each of the
// rule's edges; and the plan describes the route the launcher takes for whole arrays.
TEST(SkinnyRoute, ColumnStreamExactlyWhereItsConditionsHold) {
  using namespace tcgemm::detail;
  const int sms = 132;
  // Beyond kSkinnyStreamDeepK: kSkinnyStreamDeepWarpsPerSm warps per SM, with up to 8 warps per column.
  const int64_t deep = int64_t(kSkinnyStreamDeepWarpsPerSm) * sms / kSkinnyStreamMaxWarpsPerColumn;
  const auto* aligned_a = reinterpret_cast<const double*>(uintptr_t(1) << 20);
  const auto* aligned_b = reinterpret_cast<const double*>(uintptr_t(1) << 30);
  auto* c = reinterpret_cast<double*>(uintptr_t(1) << 40);
  // m <= 8: S = op(A), G = op(B) (k-contiguous with B 'N'); whole arrays unless changed below.
  auto problem = [&](char ta, char tb, int64_t m, int64_t n, int64_t k) {
    GemmProblem p;
    p.transa = ta;
    p.transb = tb;
    p.m = m;
    p.n = n;
    p.k = k;
    p.A = aligned_a;
    p.lda = ta == 'N' ? m : k;
    p.B = aligned_b;
    p.ldb = tb == 'N' ? k : n;
    p.C = c;
    p.ldc = m;
    return p;
  };
  const tcgemm_config automatic{};
  tcgemm_config chunks = automatic;
  chunks.k_splits = 3;
  auto takes = [&](const GemmProblem& p, const tcgemm_config& cfg = tcgemm_config{}) {
    return skinny_route(p, cfg, sms) == SkinnyRoute::kColumnStream;
  };
  EXPECT_TRUE(takes(problem('N', 'N', 1, 4096, 4096)));
  EXPECT_TRUE(takes(problem('T', 'N', 1, 4096, 4096)));
  EXPECT_TRUE(takes(problem('N', 'N', 2, 4096, 4096)));                 // S's columns dense (lda = 2)
  EXPECT_TRUE(takes(problem('T', 'N', 4096, 1, 4096)));                 // n = 1: G = A^T with A 'T'
  EXPECT_TRUE(takes(problem('T', 'T', 9, 2, kSkinnyStreamDeepK)));      // up to kSkinnyStreamDeepK: any columns
  EXPECT_TRUE(takes(problem('N', 'N', 1, 1, kSkinnyStreamDeepK)));
  EXPECT_FALSE(takes(problem('T', 'T', deep - 1, 2, kSkinnyStreamDeepK + 2)));  // deeper: more columns needed
  EXPECT_TRUE(takes(problem('T', 'T', deep, 2, 8192)));                 // ... and rows x k at the cap
  EXPECT_FALSE(takes(problem('T', 'T', deep - 1, 2, 8192)));
  EXPECT_FALSE(takes(problem('N', 'N', 4096, 1, 4096)));                // G cols-contiguous
  EXPECT_FALSE(takes(problem('N', 'T', 1, 4096, 4096)));                // G cols-contiguous
  EXPECT_FALSE(takes(problem('N', 'N', 3, 4096, 4096)));                // 3 rows
  EXPECT_FALSE(takes(problem('N', 'N', 1, 4096, kSkinnyStreamMinK - 2)));
  EXPECT_TRUE(takes(problem('N', 'N', 1, 4096, kSkinnyStreamMinK)));
  EXPECT_TRUE(takes(problem('N', 'N', 1, 4096, kSkinnyStreamMaxSElems)));
  EXPECT_FALSE(takes(problem('N', 'N', 1, 4096, kSkinnyStreamMaxSElems + 2)));
  EXPECT_FALSE(takes(problem('N', 'N', 2, 4096, kSkinnyStreamMaxSElems / 2 + 2)));
  EXPECT_FALSE(takes(problem('N', 'N', 1, 4096, 4096), chunks));        // explicit chunks: the chunked kernel
  EXPECT_TRUE(takes(problem('N', 'N', 1, 4096, 4097)));                 // odd ldb: every other column peels
  GemmProblem p = problem('N', 'N', 1, 4096, 4096);
  p.B = aligned_b + 1;  // G misaligned: every column peels its first element
  EXPECT_TRUE(takes(p));
  p = problem('N', 'N', 1, 4096, 4096);
  p.A = aligned_a + 1;  // S misaligned: still compact (read in 8-byte loads)
  EXPECT_TRUE(takes(p));
  p.lda = 3;  // S a row of a larger matrix: strided
  EXPECT_FALSE(takes(p));
  p = problem('N', 'N', 2, 4096, 4096);
  p.lda = 4;  // two rows of a larger matrix: S's columns not dense
  EXPECT_FALSE(takes(p));
  p = problem('T', 'N', 2, 4096, 4096);
  p.lda = 4097;  // S k-contiguous rows with an odd stride: compact
  EXPECT_TRUE(takes(p));

  // Warps per column: one while the columns give kSkinnyStreamSharedWarpsPerSm warps per SM, else the fewest
  // powers of two that do, at most 8 and each keeping >= kSkinnyStreamMinWarpK of k.
  auto warps = [&](int64_t m, int64_t n, int64_t k) {
    return skinny_stream_warps_per_column(skinny_shape('N', 'N', m, n, k), sms);
  };
  EXPECT_EQ(warps(1, 4096, 4096), 1);
  EXPECT_EQ(warps(1, 2112, 4096), 1);
  EXPECT_EQ(warps(1, 2111, 4096), 2);
  EXPECT_EQ(warps(1, 1055, 6000), 4);
  EXPECT_EQ(warps(1, 263, 4096), 8);
  EXPECT_EQ(warps(1, 263, 2048), 4);   // 512 of k per warp at most 4 warps
  EXPECT_EQ(warps(1, 263, 1023), 1);   // less than 2 x 512: one warp
  EXPECT_EQ(warps(1, 1, 16384), 8);
  EXPECT_TRUE(takes(problem('N', 'N', 1, deep, 6000)));  // 132 columns x 8 warps
  EXPECT_FALSE(takes(problem('N', 'N', 1, deep - 1, 6000)));

  // The plan (whole arrays) on the same shapes.
  for (const auto& s : {std::array<int64_t, 3>{1, 4096, 4096}, {2, 4096, 4096}, {1, 4096, 4097},
                        {1, 4096, kSkinnyStreamMaxSElems + 2}, {3, 4096, 4096}, {1, deep - 1, 6000}, {1, 263, 4096},
                        {1, 4096, kSkinnyStreamMinK - 1}}) {
    const tcgemm_plan plan = plan_dgemm(h100(), 'N', 'N', s[0], s[1], s[2]);
    ASSERT_EQ(plan.config.family, TCGEMM_FAMILY_SKINNY) << plan.summary;
    const bool streams = takes(problem('N', 'N', s[0], s[1], s[2]));
    EXPECT_EQ(std::string(plan.summary).find("warps stream whole columns") != std::string::npos, streams)
        << plan.summary;
    if (streams) {
      EXPECT_EQ(plan.k_slices, 1) << plan.summary;
      EXPECT_EQ(plan.workspace_bytes, 0) << plan.summary;
      EXPECT_EQ(plan.cluster_split, 0) << plan.summary;
      const int w = skinny_stream_warps_per_column(skinny_shape('N', 'N', s[0], s[1], s[2]), sms);
      EXPECT_EQ(plan.blocks, (s[1] * w + kSkinnyStreamWarpsPerBlock - 1) / kSkinnyStreamWarpsPerBlock) << plan.summary;
    } else {
      EXPECT_EQ(plan.tiles, (s[1] + kSkinnyColsPerBlock - 1) / kSkinnyColsPerBlock) << plan.summary;  // chunked
    }
  }
}

TEST(PlanModel, DeepKWithASmallCIsSplit) {
  for (const auto& s : {std::array<int64_t, 3>{64, 64, 65536}, {128, 128, 131072}, {256, 256, 32768},
                        {512, 512, 16384}}) {
    const tcgemm_plan p = plan_dgemm(h100(), 'N', 'N', s[0], s[1], s[2]);
    EXPECT_EQ(p.config.family, TCGEMM_FAMILY_SM90_MMA) << p.summary;
    EXPECT_GT(p.k_slices, 1) << p.summary;
    // At least ~90% of the 132 SMs get a block (16 tiles x 8 cluster slices of 128x128 leave 4 idle).
    EXPECT_GE(p.blocks, 120) << "a deep-k product must fill the SMs: " << p.summary;
    // Few slices add up in a cluster (no workspace); more go through workspace, one C-sized slice each.
    EXPECT_EQ(p.workspace_bytes, p.cluster_split ? 0 : p.k_slices * s[0] * s[1] * 8) << p.summary;
    EXPECT_GE(p.k_slices * p.k_per_slice, s[2]);
    EXPECT_LT((p.k_slices - 1) * p.k_per_slice, s[2]);
    // A power-of-two k is cut into equal slices: the plan tries every power-of-two slice count (it used to
    // step from 15 to 17 slices at 256x256x32768).
    EXPECT_EQ(s[2] % p.k_per_slice, 0) << p.summary;
  }
}

// A cluster split-K has at most 8 slices (the portable cluster size), one round of blocks, never 'T','T'
// (whose C is stored transposed, without the staged epilogue the cluster adds its slices in), and the
// summary says so.
TEST(PlanModel, ClusterSplitsFollowTheRule) {
  const PlanDevice d = h100();
  int clustered = 0;
  for (const char* f : {"NN", "NT", "TN", "TT"})
    for (int64_t n : {256, 512, 777, 1000, 2048})
      for (int64_t k : {256, 512, 4096, 16384}) {
        const tcgemm_plan p = plan_dgemm(d, f[0], f[1], n, n, k);
        if (!p.cluster_split) continue;
        ++clustered;
        EXPECT_GT(p.k_slices, 1) << p.summary;
        EXPECT_LE(p.k_slices, tcgemm::detail::kSm90MaxClusterSlices) << p.summary;
        EXPECT_NE(std::string(f), "TT") << p.summary;
        EXPECT_EQ(p.workspace_bytes, 0) << p.summary;
        EXPECT_NE(std::string(p.summary).find("cluster"), std::string::npos) << p.summary;
        const int idx = tcgemm::detail::find_sm90_shape(p.config.tile_m, p.config.tile_n, p.config.tile_k);
        ASSERT_GE(idx, 0);
        const tcgemm::detail::Sm90Split split{p.k_slices, p.k_per_slice};
        const int64_t room = tcgemm::detail::sm90_clusters_at_once(d.cluster_room, idx, p.k_slices, d.sm_count);
        EXPECT_TRUE(tcgemm::detail::sm90_cluster_split(tcgemm::detail::kSm90Shapes[idx], p.config.stages, split,
                                                       p.tiles, room, f[0], f[1]))
            << p.summary;
        EXPECT_LE(p.tiles, room) << "one round of clusters: " << p.summary;
        EXPECT_LE(p.blocks, int64_t(p.blocks_per_sm) * p.sm_count) << "one round of blocks: " << p.summary;
      }
  EXPECT_GT(clustered, 0) << "no shape of the grid took the cluster split";
  // 512^3: the 32x64 tile's 128 whole-k blocks fill the SMs (a loop of calls measured 11.4 us against 12.2
  // for two cluster slices of 64x64): no split.
  const tcgemm_plan small = plan_dgemm(d, 'N', 'N', 512, 512, 512);
  EXPECT_EQ(small.k_slices, 1) << small.summary;
  EXPECT_EQ(small.config.tile_m, 32) << small.summary;
  EXPECT_EQ(small.config.tile_n, 64) << small.summary;
}

// A cluster split-K only where every tile's cluster fits on the device at once: the H100 holds 62 clusters of 4
// 128x64 blocks, not 264 / 4 = 66 (clusters are placed whole inside a GPC; rules.hpp, kH100ClusterRoom).
// 952x501x4911 (64 tiles) in 4 slices therefore goes through workspace (0.134 ms measured, against 0.178 as two
// rounds of clusters); 600x700x8001 (55 tiles) stays a cluster. Without a room (the block-slot bound) both would
// cluster.
TEST(PlanModel, ClustersOnlyWhereTheyAllFitAtOnce) {
  namespace d = tcgemm::detail;
  const int tile128x64 = d::find_sm90_shape(128, 64, 16);
  const tcgemm_plan over = d::plan_sm90_candidate(h100(), tile128x64, 4, 'N', 'N', 952, 501, 4911);
  EXPECT_EQ(over.tiles, 64) << over.summary;
  EXPECT_EQ(over.k_slices, 4) << over.summary;
  EXPECT_EQ(over.cluster_split, 0) << over.summary;
  EXPECT_GT(over.workspace_bytes, 0) << over.summary;
  const tcgemm_plan fits = d::plan_sm90_candidate(h100(), tile128x64, 4, 'N', 'N', 600, 700, 8001);
  EXPECT_EQ(fits.tiles, 55) << fits.summary;
  EXPECT_EQ(fits.cluster_split, 1) << fits.summary;
  PlanDevice bound = h100();
  bound.cluster_room = nullptr;
  EXPECT_EQ(d::plan_sm90_candidate(bound, tile128x64, 4, 'N', 'N', 952, 501, 4911).cluster_split, 1);
  // The edge itself: 62 tiles cluster, 63 do not (2 x 31 and 3 x 21 tiles of 128x64).
  EXPECT_EQ(d::plan_sm90_candidate(h100(), tile128x64, 4, 'N', 'N', 256, 31 * 64, 4096).cluster_split, 1);
  EXPECT_EQ(d::plan_sm90_candidate(h100(), tile128x64, 4, 'N', 'N', 384, 21 * 64, 4096).cluster_split, 0);
  // The plan for 952x501x4911 is no cluster of more tiles than fit (today: 128x64 in 4 slices through
  // workspace).
  const tcgemm_plan p = plan_dgemm(h100(), 'N', 'N', 952, 501, 4911);
  const int idx = d::find_sm90_shape(p.config.tile_m, p.config.tile_n, p.config.tile_k);
  ASSERT_GE(idx, 0) << p.summary;
  EXPECT_FALSE(p.cluster_split && p.tiles > d::kH100ClusterRoom.clusters[idx][p.k_slices]) << p.summary;
  // A room entry of -1 (CUDA could not say) falls back to the block slots; 0 (nothing fits) forbids.
  d::Sm90ClusterRoom unknown = d::kH100ClusterRoom, none = d::kH100ClusterRoom;
  unknown.clusters[tile128x64][4] = -1;
  none.clusters[tile128x64][4] = 0;
  EXPECT_EQ(d::sm90_clusters_at_once(&unknown, tile128x64, 4, 132), 132 * 2 / 4);
  EXPECT_EQ(d::sm90_clusters_at_once(&none, tile128x64, 4, 132), 0);
  PlanDevice nothing_fits = h100();
  nothing_fits.cluster_room = &none;
  EXPECT_EQ(d::plan_sm90_candidate(nothing_fits, tile128x64, 4, 'N', 'N', 600, 700, 8001).cluster_split, 0);
  // The room never exceeds the block slots over the cluster size, and shrinks as clusters grow.
  for (int s = 0; s < d::kSm90ShapeCount; ++s)
    for (int slices = 2; slices <= d::kSm90MaxClusterSlices; ++slices) {
      const int n = d::kH100ClusterRoom.clusters[s][slices];
      EXPECT_LE(int64_t(n), d::sm90_clusters_at_once(nullptr, s, slices, 132));
      if (slices > 2) {
        EXPECT_LE(n, d::kH100ClusterRoom.clusters[s][slices - 1]);
      }
      EXPECT_EQ(n > 0, d::sm90_blocks_per_sm(d::kSm90Shapes[s]) > 1);
    }
}

// Small products (one round of 32x64 blocks or less) run unsplit on the 32x64 tile: four warps per block keep
// an SM's four tensor pipes busy with one block, and whole k leaves no slices to add (loops of calls on the
// H100: 256^3 7.3 us against 9.0 on 64x64, 512^3 11.4 against 12.2 in two cluster slices, 768^3 26.7
// against 28.2).
TEST(PlanModel, SmallProductsTakeTheNarrowTile) {
  for (int64_t n : {384, 512, 640, 768}) {
    const tcgemm_plan p = plan_dgemm(h100(), 'N', 'N', n, n, n);
    EXPECT_EQ(p.config.tile_m, 32) << p.summary;
    EXPECT_EQ(p.config.tile_n, 64) << p.summary;
    EXPECT_EQ(p.config.tile_k, 32) << p.summary;
    EXPECT_EQ(p.k_slices, 1) << p.summary;
  }
}

// Grids of at most one 32x32 block per SM take the 32x32 tile (half a warp's chain of MMAs); a grid of more
// 32x32 blocks than SMs never does (384^3: 144 blocks, slower than 32x64 there).
TEST(PlanModel, ProductsOfAtMostOneSmallBlockPerSmTakeTheSmallestTile) {
  const auto is_32x32 = [](const tcgemm_plan& p) { return p.config.tile_m == 32 && p.config.tile_n == 32; };
  for (int64_t n : {128, 192, 256, 320}) {
    const tcgemm_plan p = plan_dgemm(h100(), 'N', 'N', n, n, n);
    EXPECT_TRUE(is_32x32(p)) << p.summary;
    EXPECT_EQ(p.config.tile_k, 32) << p.summary;
    EXPECT_LE(p.blocks, p.sm_count) << p.summary;
  }
  for (const auto& s : {std::array<int64_t, 3>{384, 384, 384}, {512, 512, 512}, {1000, 1000, 1000},
                        {4096, 4096, 4096}, {8192, 8192, 64}}) {
    const tcgemm_plan p = plan_dgemm(h100(), 'N', 'N', s[0], s[1], s[2]);
    EXPECT_FALSE(is_32x32(p)) << p.summary;
  }
}

// The plan weighs the copy width by the parity of the operands' row counts (whole arrays: lda = rows). The
// 32x64 tile's 8-byte copies outnumber its MMAs, so odd sizes in the same range take 64x64 in two cluster
// slices (767^3: 0.037 ms against 0.047 unsplit on 32x64; 777^3 likewise).
TEST(PlanModel, OddRowCountsWeighTheEightByteCopies) {
  for (int64_t n : {639, 767, 777, 895}) {
    const tcgemm_plan p = plan_dgemm(h100(), 'N', 'N', n, n, n);
    EXPECT_EQ(p.config.tile_m, 64) << p.summary;
    EXPECT_EQ(p.config.tile_n, 64) << p.summary;
    EXPECT_EQ(p.k_slices, 2) << p.summary;
    EXPECT_EQ(p.cluster_split, 1) << p.summary;
  }
}

// The 64x128 tile (one 8-warp block per SM) only where its grid is one full round with 16-byte copies.
TEST(PlanModel, OneRoundTileOnlyForOneFullRound) {
  const auto is_64x128 = [](const tcgemm_plan& p) { return p.config.tile_m == 64 && p.config.tile_n == 128; };
  for (const auto& s : {std::array<int64_t, 3>{1024, 1024, 1024}, {1000, 1000, 20000}, {512, 512, 16384},
                        {256, 256, 32768}}) {
    const tcgemm_plan p = plan_dgemm(h100(), 'N', 'N', s[0], s[1], s[2]);
    EXPECT_TRUE(is_64x128(p)) << p.summary;
    EXPECT_GE(p.waves, 0.9) << p.summary;
    EXPECT_LE(p.waves, 1.0) << p.summary;
    EXPECT_EQ(p.cluster_split, 0) << "one block per SM never clusters: " << p.summary;
  }
  // Partial rounds, several rounds, 8-byte copies: other tiles.
  for (const auto& s : {std::array<int64_t, 3>{777, 777, 777}, {895, 895, 895}, {3072, 3072, 3072},
                        {1001, 1001, 1001}, {3333, 3333, 3333}, {333, 333, 33333}, {4096, 4096, 4096}})
    EXPECT_FALSE(is_64x128(plan_dgemm(h100(), 'N', 'N', s[0], s[1], s[2])))
        << plan_dgemm(h100(), 'N', 'N', s[0], s[1], s[2]).summary;
  // Asked for explicitly, it never runs as a cluster either (2 and 4 slices of its 32 tiles fit one round:
  // only the one-block-per-SM clause of sm90_cluster_split keeps them out).
  for (int64_t slices : {2, 4}) {
    const tcgemm_plan c = tcgemm::detail::plan_sm90_candidate(h100(), tcgemm::detail::find_sm90_shape(64, 128, 32),
                                                              slices, 'N', 'N', 512, 512, 16384);
    EXPECT_EQ(c.cluster_split, 0) << c.summary;
  }
}

// 'T','N' runs the 64x128 tile at 0.90 of its 'N','N' rate (its 32x32 warp tiles read the left operand by
// 8 bytes on a side as wide as the other; kSm90TnEfficiency): where 'N','N' takes that tile by a small margin,
// 'T','N' takes another (1000^3: 64x64 measured 0.046 ms against 0.049 on 64x128; 1000x1000x20000: 128x64
// in 4 slices 0.783 ms, 1.00 of cuBLAS, against 0.92 on 64x128). The other tiles plan as for 'N','N'.
TEST(PlanModel, TnLeavesTheOneRoundTileWhereItLoses) {
  const auto is_64x128 = [](const tcgemm_plan& p) { return p.config.tile_m == 64 && p.config.tile_n == 128; };
  for (const auto& s : {std::array<int64_t, 3>{1000, 1000, 1000}, {1000, 1000, 20000}}) {
    EXPECT_TRUE(is_64x128(plan_dgemm(h100(), 'N', 'N', s[0], s[1], s[2])));
    const tcgemm_plan tn = plan_dgemm(h100(), 'T', 'N', s[0], s[1], s[2]);
    EXPECT_FALSE(is_64x128(tn)) << tn.summary;
  }
  for (const auto& s : {std::array<int64_t, 3>{2048, 2048, 2048}, {1536, 1536, 1536}, {768, 768, 768},
                        {100, 100, 100000}}) {
    const tcgemm_plan nn = plan_dgemm(h100(), 'N', 'N', s[0], s[1], s[2]);
    const tcgemm_plan tn = plan_dgemm(h100(), 'T', 'N', s[0], s[1], s[2]);
    EXPECT_EQ(nn.config.tile_m, tn.config.tile_m) << tn.summary;
    EXPECT_EQ(nn.config.tile_n, tn.config.tile_n) << tn.summary;
    EXPECT_EQ(nn.k_slices, tn.k_slices) << tn.summary;
  }
}

// A grid's tail (a partial round after full rounds) of 128x64 or 64x64 blocks runs at 0.9 or the whole of the
// tile's rate (measured: 1792^3 on 128x64, 1.48 rounds, 0.197-0.210 ms against 0.228-0.248 on 64x64 at 1.98
// rounds), while a grid of lone blocks only keeps the lone-block efficiency. Before the tail term the model
// ranked these shapes' tiles the other way round (A/B on the H100: 1792^3 and 2048x1536x1024 lost 14-16%,
// 1800x1800x900 and 3000x1200x2400 8-10%). 2049^3 stays on 64x64 (128x64 measured 6% slower there: the reason
// 128x64's tail is 0.9, not 1.0), and the small products, whose grids are one partial round, keep their tiles
// (640^3 would go to 64x64, one lone block per SM, if the tail's rate applied to it).
TEST(PlanModel, TailRoundsRunAtTheFullRateSmallGridsDoNot) {
  const auto tile = [](int64_t m, int64_t n, int64_t k) {
    const tcgemm_plan p = plan_dgemm(h100(), 'N', 'N', m, n, k);
    return std::make_pair(std::array<int32_t, 2>{p.config.tile_m, p.config.tile_n}, std::string(p.summary));
  };
  const std::array<int32_t, 2> t128x64{128, 64}, t64x64{64, 64};
  for (const auto& s : {std::array<int64_t, 3>{1792, 1792, 1792}, {2048, 1536, 1024}, {1664, 1664, 1664}}) {
    const auto [t, why] = tile(s[0], s[1], s[2]);
    EXPECT_EQ(t, t128x64) << why;
  }
  for (const auto& s : {std::array<int64_t, 3>{1800, 1800, 900}, {3000, 1200, 2400}, {1536, 1536, 1536},
                        {2049, 2049, 2049}}) {
    const auto [t, why] = tile(s[0], s[1], s[2]);
    EXPECT_EQ(t, t64x64) << why;
  }
  // One partial round only: the model's lone-block efficiency still decides (the 32x64 tile at 512^3 and 640^3).
  for (const int64_t n : {512, 640}) {
    const auto [small, why] = tile(n, n, n);
    EXPECT_EQ(small[0], 32) << why;
  }
}

// A C of a few rows (9..32) over a wide n streams B past one wide row of tiles: 32x64 reads it at ~0.9 of HBM
// speed there (measured 0.78-0.96; 13x18404x5248 0.293 ms against 0.329 on 64x64), so the plan takes 32x64. A
// narrow grid with the same few rows (deep k over a small n, many slices) was not measured in that regime and
// keeps 64x64, as do shapes with more rows.
TEST(PlanModel, ACOfAFewRowsStreamsOnThirtyTwoRowTiles) {
  for (const auto& s : {std::array<int64_t, 3>{13, 18404, 5248}, {24, 20000, 4000}, {32, 16384, 4096},
                        {9, 10000, 8000}, {28, 12000, 6000}}) {
    const tcgemm_plan p = plan_dgemm(h100(), 'N', 'N', s[0], s[1], s[2]);
    EXPECT_EQ(p.config.tile_m, 32) << p.summary;
  }
  for (const auto& s : {std::array<int64_t, 3>{32, 64, 65536}, {16, 256, 65536}, {31, 4096, 131072},
                        {32, 128, 65536}, {64, 64, 65536}, {128, 128, 131072}}) {
    const tcgemm_plan p = plan_dgemm(h100(), 'N', 'N', s[0], s[1], s[2]);
    EXPECT_EQ(p.config.tile_m, 64) << p.summary;
  }
  EXPECT_EQ(plan_dgemm(h100(), 'N', 'T', 31, 8000, 8000).config.tile_m, 32);  // 125 column tiles: measured 1.08
  // The forms measured with this rule ('N','N', 'N','T', 'T','N') take it; 'T','T', which the kernel runs
  // transposed (one column of tiles), keeps the deep-k fraction and 64x64.
  for (const char* f : {"NN", "NT", "TN"})
    EXPECT_EQ(plan_dgemm(h100(), f[0], f[1], 13, 18404, 5248).config.tile_m, 32) << f;
  EXPECT_EQ(plan_dgemm(h100(), 'T', 'T', 13, 18404, 5248).config.tile_m, 64);
}

// Which row counts are the leading dimensions depends on the form: lda = m for 'N' A, k for 'T' A; ldb = k for
// 'N' B, n for 'T' B. At 768 (the narrow tile's range) the plan leaves 32x64 exactly when one of those two is
// odd, in every form; an odd count that is not a leading dimension changes nothing.
TEST(PlanModel, TheLeadingDimensionsOfEachFormDecideTheCopyWidth) {
  for (const char* f : {"NN", "NT", "TN", "TT"})
    for (const auto& s : {std::array<int64_t, 3>{768, 768, 768}, {767, 768, 768}, {768, 767, 768}, {768, 768, 767}}) {
      const int64_t lda = f[0] == 'N' ? s[0] : s[2], ldb = f[1] == 'N' ? s[2] : s[1];
      const bool even = lda % 2 == 0 && ldb % 2 == 0;
      const tcgemm_plan p = plan_dgemm(h100(), f[0], f[1], s[0], s[1], s[2]);
      EXPECT_EQ(p.config.tile_m == 32, even) << f << " lda " << lda << " ldb " << ldb << ": " << p.summary;
    }
}

// The model takes cluster splits of 2, 4 or 8 slices only (odd cluster sizes measured slower where it ranked
// them first: 639^3 on 128x64, 5 slices 0.031 ms against 4 slices 0.024).
TEST(PlanModel, ClusterSlicesArePowersOfTwo) {
  int clustered = 0;
  for (const char* f : {"NN", "NT", "TN"})
    for (int64_t n = 256; n <= 2048; n += 61)
      for (int64_t k : {n, 4 * n}) {
        const tcgemm_plan p = plan_dgemm(h100(), f[0], f[1], n, n, k);
        if (!p.cluster_split) continue;
        ++clustered;
        EXPECT_TRUE(p.k_slices == 2 || p.k_slices == 4 || p.k_slices == 8) << p.summary;
      }
  EXPECT_GT(clustered, 0);
}

// Where the skinny family applies (m or n <= 8) the 32-row tile is not a candidate: it measured slower there
// (8192x3x100: 8 us against the skinny family's 6), and the model ranked it first.
TEST(PlanModel, NarrowTileNeverTakesSkinnyShapes) {
  EXPECT_EQ(plan_dgemm(h100(), 'N', 'N', 8192, 3, 100).config.family, TCGEMM_FAMILY_SKINNY);
  for (const char* f : {"NN", "NT", "TN", "TT"})
    for (int64_t small : {1, 3, 8})
      for (int64_t big : {64, 300, 2048, 8192})
        for (int64_t k : {16, 100, 2048}) {
          for (const auto& s : {std::array<int64_t, 3>{small, big, k}, {big, small, k}}) {
            if (!tcgemm::detail::skinny_applies(s[0], s[1], s[2])) continue;
            const tcgemm_plan p = plan_dgemm(h100(), f[0], f[1], s[0], s[1], s[2]);
            EXPECT_FALSE(p.config.family == TCGEMM_FAMILY_SM90_MMA && p.config.tile_m == 32) << p.summary;
          }
        }
}

TEST(PlanModel, LargeSquaresRunUnsplitOnTheDefaultTile) {
  for (int64_t n : {4096, 8192, 16384}) {
    const tcgemm_plan p = plan_dgemm(h100(), 'N', 'N', n, n, n);
    EXPECT_EQ(p.config.family, TCGEMM_FAMILY_SM90_MMA);
    EXPECT_EQ(p.k_slices, 1) << p.summary;
    EXPECT_EQ(p.config.k_splits, 0) << p.summary;
    EXPECT_EQ(p.config.tile_m, 128) << p.summary;
    EXPECT_EQ(p.config.tile_n, 64) << p.summary;
  }
  // Fewer 128x64 tiles than SMs: the 64x64 tile (three blocks per SM) fills the machine.
  const tcgemm_plan p = plan_dgemm(h100(), 'N', 'N', 1024, 1024, 1024);
  EXPECT_EQ(p.config.tile_m, 64) << p.summary;
  EXPECT_EQ(p.k_slices, 1) << p.summary;
}

// On a wide-memory device (the H200) the 64x64 tile runs long unsplit grids at nearly 128x64's rate: the plan moves
// the grids whose 128x64 waves quantize badly (3000^3: 4.27 waves, 64x64 1043 us against 1107 on the H200) and keeps
// 128x64 where its waves fill (3072^3, 4096^3) and where the grid is short or split (the A/B of the calibration).
// Without a bandwidth figure (0) the H100 constants decide, and they pick as before.
TEST(PlanModel, WideMemoryMovesOnlyLongUnsplitGridsOntoSixtyFourSquare) {
  const auto tile = [](const PlanDevice& d, char ta, char tb, int64_t m, int64_t n, int64_t k) {
    const tcgemm_plan p = plan_dgemm(d, ta, tb, m, n, k);
    return std::make_pair(std::array<int64_t, 3>{p.config.tile_m, p.config.tile_n, p.k_slices},
                          std::string(p.summary));
  };
  const std::array<int64_t, 3> t64{64, 64, 1}, t128{128, 64, 1};
  for (const auto& s : {std::array<int64_t, 3>{3000, 3000, 3000}, {3300, 3300, 3300}, {5258, 3628, 3914},
                        {1300, 10000, 8950}}) {
    EXPECT_EQ(tile(h200(), 'N', 'N', s[0], s[1], s[2]).first, t64) << tile(h200(), 'N', 'N', s[0], s[1], s[2]).second;
    EXPECT_EQ(tile(h100(), 'N', 'N', s[0], s[1], s[2]).first, t128) << tile(h100(), 'N', 'N', s[0], s[1], s[2]).second;
  }
  for (const int64_t n : {2048, 3072, 4096, 8192}) {
    EXPECT_EQ(tile(h200(), 'N', 'N', n, n, n).first, t128) << tile(h200(), 'N', 'N', n, n, n).second;
  }
  // Split or short grids and the 8-byte copies keep the H100's picks, on shapes where the wide rate everywhere had
  // lost: 2 waves of 64x64 against 3 slices of 128x64, a deep small C, odd sizes.
  for (const auto& s : {std::array<int64_t, 3>{3322, 998, 9902}, {1000, 1000, 20000}, {46, 14687, 3715},
                        {2999, 3001, 1999}, {648, 1975, 5701}, {13, 18404, 5248}}) {
    for (const char* f : {"NN", "TN", "NT", "TT"}) {
      const auto wide = tile(h200(), f[0], f[1], s[0], s[1], s[2]);
      EXPECT_EQ(wide.first, tile(h100(), f[0], f[1], s[0], s[1], s[2]).first) << f << " " << wide.second;
    }
  }
  // A device that does not report its memory (0) plans as the H100.
  PlanDevice unknown = h200();
  unknown.hbm_peak_bytes_per_us = 0.0;
  EXPECT_EQ(tile(unknown, 'N', 'N', 3000, 3000, 3000).first, t128);
}

// The bandwidth figure from CUDA's attributes: kHz and bits to bytes per microsecond, two transfers per clock.
TEST(PlanModel, PeakMemoryBandwidthFromClockAndBusWidth) {
  EXPECT_NEAR(tcgemm::detail::peak_memory_bytes_per_us(2619000, 5120), 3.352e6, 1e3);  // H100 SXM, 3.35 TB/s
  EXPECT_NEAR(tcgemm::detail::peak_memory_bytes_per_us(3201000, 6016), 4.814e6, 1e3);  // H200, 4.8 TB/s
  EXPECT_EQ(tcgemm::detail::peak_memory_bytes_per_us(0, 5120), 0.0);
  EXPECT_LT(h100().hbm_peak_bytes_per_us, 4.5e6) << "the H100 is not a wide-memory device";
  EXPECT_GE(h200().hbm_peak_bytes_per_us, 4.5e6) << "the H200 is";
}

TEST(PlanModel, WithoutSm90CodeTheArticleFamilyRuns) {
  const tcgemm_plan p = plan_dgemm(a100(), 'N', 'N', 4096, 4096, 4096);
  EXPECT_EQ(p.config.family, TCGEMM_FAMILY_SHARED_AB) << p.summary;
  EXPECT_EQ(p.config.k_splits, 0);
}

TEST(PlanModel, EveryPlanIsConsistentAndValid) {
  const int64_t dims[] = {1, 7, 8, 9, 64, 100, 1000, 5000, 70000};
  for (int64_t m : dims)
    for (int64_t n : dims)
      for (int64_t k : dims)
        for (const char* f : {"NN", "TN"}) {
          const tcgemm_plan p = plan_dgemm(h100(), f[0], f[1], m, n, k);
          ASSERT_GE(p.k_slices, 1) << p.summary;
          EXPECT_EQ(p.blocks, p.tiles * p.k_slices) << p.summary;
          EXPECT_GT(p.predicted_us, 0.0) << p.summary;
          EXPECT_GE(p.k_slices * p.k_per_slice, k) << p.summary;
          EXPECT_LT((p.k_slices - 1) * p.k_per_slice, k) << p.summary;
          EXPECT_LE(p.blocks, int64_t(INT32_MAX) * 65535) << p.summary;
          tcgemm_config resolved{};
          EXPECT_EQ(tcgemm_config_validate(&p.config), TCGEMM_SUCCESS) << tcgemm_last_error() << " " << p.summary;
          (void)resolved;
          EXPECT_NE(std::strstr(p.summary, "waves"), nullptr) << p.summary;
        }
}

TEST(SplitRules, Sm90SlicesCoverKInWholeTiles) {
  using tcgemm::detail::sm90_split;
  for (int64_t k : {1, 15, 16, 17, 100, 4096, 65536, 65537, 1000003})
    for (int64_t want : {0, 1, 2, 3, 7, 64, 1000, 65535}) {
      const auto s = sm90_split(k, want, 16);
      ASSERT_GE(s.slices, 1);
      EXPECT_LE(s.slices, want < 1 ? 1 : want);
      if (s.slices > 1) {
        EXPECT_EQ(s.k_slice % 16, 0) << k << " " << want;
        EXPECT_LT((s.slices - 1) * s.k_slice, k) << "no empty slice: k " << k << " want " << want;
      }
      EXPECT_GE(s.slices * s.k_slice, k);
    }
}

TEST(RasterRules, WholeColumnsOnlyWhenAFitsAQuarterOfL2) {
  using tcgemm::detail::kSm90RasterGroupRows;
  using tcgemm::detail::sm90_raster_rows;
  constexpr int64_t kL2 = 50 * 1024 * 1024;  // H100
  // Small k: A of 8 MB (16384 x 64) and 3 MB (12000 x 32) fit, so every tile row forms one group.
  EXPECT_EQ(sm90_raster_rows(16384, 64, 256, kL2), 256);
  EXPECT_EQ(sm90_raster_rows(12000, 32, 188, kL2), 188);
  // At the quarter exactly, and one element past it.
  const int64_t quarter = kL2 / 4 / 8;
  EXPECT_EQ(sm90_raster_rows(quarter / 64, 64, 77, kL2), 77);
  EXPECT_EQ(sm90_raster_rows(quarter / 64 + 1, 64, 77, kL2), kSm90RasterGroupRows);
  // A of 30 MB (30000 x 128) and large squares keep the groups of kSm90RasterGroupRows.
  EXPECT_EQ(sm90_raster_rows(30000, 128, 469, kL2), kSm90RasterGroupRows);
  EXPECT_EQ(sm90_raster_rows(4096, 4096, 32, kL2), kSm90RasterGroupRows);
  // Fewer tile rows than a group: one group of them. Unknown L2 (0): the groups. Never 0 or negative.
  EXPECT_EQ(sm90_raster_rows(300, 100000, 3, kL2), 3);
  EXPECT_EQ(sm90_raster_rows(16384, 64, 256, 0), kSm90RasterGroupRows);
  EXPECT_EQ(sm90_raster_rows(0, 0, 0, kL2), 1);
  // No overflow at the 64-bit edge: a huge k and m keep the groups.
  EXPECT_EQ(sm90_raster_rows(INT64_MAX / 2, INT64_MAX / 2, int64_t(1) << 40, kL2), kSm90RasterGroupRows);
}

// The tensor-core kernel's chunks (skinny_mma_chunk_k): enough to fill the SMs' block slots once, each at
// least kSkinnyMmaMinChunkK deep, never more than k allows; explicit counts as asked; multiples of the quantum
// covering k exactly once.
TEST(SplitRules, SkinnyTensorCoreChunksFillTheBlockSlotsOnce) {
  using namespace tcgemm::detail;
  auto chunks_of = [](int64_t m, int64_t n, int64_t k, int64_t want, int sms) {
    const SkinnyShape s = skinny_shape('N', 'N', m, n, k);
    return skinny_chunks(s, skinny_mma_chunk_k(s, want, sms));
  };
  EXPECT_EQ(chunks_of(8, 8192, 8192, 0, 132), 2);      // 128 column blocks, 264 slots
  EXPECT_EQ(chunks_of(8, 2000, 2000, 0, 132), 8);      // 32 column blocks
  EXPECT_EQ(chunks_of(6, 16384, 4096, 0, 132), 1);     // 256 column blocks
  EXPECT_EQ(chunks_of(8, 100000, 300, 0, 132), 1);     // more column blocks than slots
  EXPECT_EQ(chunks_of(8, 500, 20000, 0, 132), 32);     // 8 column blocks: 33 asked, 640 deep after rounding
  EXPECT_EQ(chunks_of(8, 64, 1000, 0, 132), 6);        // k / kSkinnyMmaMinChunkK (7) caps 264; 192 deep
  EXPECT_EQ(chunks_of(8, 64, 100, 0, 132), 1);         // k below one minimum chunk
  EXPECT_EQ(chunks_of(8, 8192, 8192, 0, 0), 1);        // an unknown SM count: one slot
  EXPECT_EQ(chunks_of(8, 8192, 8192, 5, 132), 5);      // asked for
  for (int64_t k : {int64_t(1), int64_t(63), int64_t(64), int64_t(65), int64_t(4097), int64_t(100000), kSkinnyMaxK})
    for (int64_t want : {0, 1, 3, 7, 1000}) {
      const SkinnyShape s = skinny_shape('N', 'N', 8, 3000, k);
      const int64_t ck = skinny_mma_chunk_k(s, want, 132);
      EXPECT_EQ(ck % kSkinnyChunkQuantum, 0);
      const int64_t chunks = skinny_chunks(s, ck);
      EXPECT_GE(chunks * ck, k);
      EXPECT_LT((chunks - 1) * ck, k);
      EXPECT_LE(chunks, kSkinnyMaxChunks);
    }
}

TEST(SplitRules, SkinnyChunksStayWithinTheStagedS) {
  using namespace tcgemm::detail;
  for (int64_t k : {1, 63, 64, 65, 512, 513, 100000})
    for (int64_t want : {0, 1, 5, 100000}) {
      const SkinnyShape s = skinny_shape('N', 'N', 3, 5000, k);
      const int64_t ck = skinny_chunk_k(s, want, 132);
      EXPECT_LE(ck, kSkinnyMaxChunkK);
      EXPECT_EQ(ck % kSkinnyChunkQuantum, 0);
      const int64_t chunks = skinny_chunks(s, ck);
      EXPECT_GE(chunks * ck, k);
      EXPECT_LT((chunks - 1) * ck, k);
    }
  EXPECT_FALSE(skinny_applies(9, 9, 10));
  EXPECT_TRUE(skinny_applies(8, 100000, 10));
  EXPECT_FALSE(skinny_applies(1, 10, kSkinnyMaxK + 1));
  const SkinnyShape t = skinny_shape('N', 'T', 1000, 3, 10);
  EXPECT_TRUE(t.transpose_c);
  EXPECT_EQ(t.rows, 3);
  EXPECT_EQ(t.cols, 1000);
  EXPECT_FALSE(t.g_k_contiguous);  // G = op(A)^T with A 'N': its columns are A's rows, contiguous along m
}

TEST(PlanApi, ArgumentsAreCheckedBeforeAnyDeviceQuery) {
  tcgemm_plan p{};
  EXPECT_EQ(tcgemm_dgemm_plan('X', 'N', 1, 1, 1, &p), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 1);
  EXPECT_EQ(tcgemm_dgemm_plan('N', 'q', 1, 1, 1, &p), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 2);
  EXPECT_EQ(tcgemm_dgemm_plan('N', 'N', -1, 1, 1, &p), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 3);
  EXPECT_EQ(tcgemm_dgemm_plan('N', 'N', 1, 1, -5, &p), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 5);
  EXPECT_STREQ(tcgemm_last_error(), "argument 5 (k) must be >= 0, got -5");
  EXPECT_EQ(tcgemm_dgemm_plan('N', 'N', 1, 1, 1, nullptr), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 6);
}

}  // namespace

// ---- the host-array path's schedule (host/pipelined_dgemm.hpp) --------------------------------------------

TEST(HostSchedule, SmallerOperandResidentPanelsBoundedAndWholeTiles) {
  const int64_t gib = int64_t(1) << 30;
  struct Row {
    int64_t m, n, k;
  };
  for (const Row& r : {Row{16384, 16384, 16384}, Row{8192, 8192, 8192}, Row{4096, 4096, 4096}, Row{16384, 16384, 32},
                       Row{1000, 64, 65536}, Row{64, 1000, 65536}, Row{1, 5000, 3}, Row{70000, 100, 2000}}) {
    const tcgemm::detail::HostSchedule s = tcgemm::detail::plan_host_schedule(r.m, r.n, r.k, 24 * gib);
    const int64_t resident = s.resident_a ? r.m : r.n, streamed = s.resident_a ? r.n : r.m;
    SCOPED_TRACE(std::to_string(r.m) + "x" + std::to_string(r.n) + "x" + std::to_string(r.k));
    EXPECT_EQ(s.resident_a, r.m <= r.n);
    EXPECT_EQ(s.resident_chunk, resident) << "a 24 GiB budget holds the whole resident operand";
    EXPECT_GE(s.panel, 1);
    EXPECT_LE(s.panel, streamed);
    EXPECT_TRUE(s.panel == streamed || s.panel % 64 == 0) << s.panel;
    // The last tile (which nothing overlaps) stays small: at most 64 MiB of C, 128 MiB of operand panel,
    // unless a single 64-wide panel is already larger.
    EXPECT_TRUE(s.panel * s.resident_chunk * 8 <= 64 * (int64_t(1) << 20) || s.panel == 64) << s.panel;
    EXPECT_TRUE(s.panel * r.k * 8 <= 128 * (int64_t(1) << 20) || s.panel == 64) << s.panel;
    if (streamed >= 8 * 256) EXPECT_GE((streamed + s.panel - 1) / s.panel, 8) << "enough panels to overlap";
  }
  // A resident operand over its budget goes in chunks that fit it.
  const tcgemm::detail::HostSchedule s = tcgemm::detail::plan_host_schedule(20000, 30000, 10000, gib);
  EXPECT_TRUE(s.resident_a);
  EXPECT_LT(s.resident_chunk, 20000);
  EXPECT_LE(s.resident_chunk * 10000 * 8, gib);
}

// Staging pieces cover a block exactly once, each within one buffer, at the right packed offset.
TEST(HostSchedule, StagingPiecesTileTheBlock) {
  struct Row {
    int64_t rows, cols, cap;
  };
  for (const Row& r : {Row{1, 1, 1}, Row{5, 7, 16}, Row{16, 3, 16}, Row{17, 4, 16}, Row{100, 9, 250}, Row{33, 2, 10},
                       Row{137536, 1, 131072}, Row{1000, 1000, 131072}, Row{262144, 3, 131072}}) {
    SCOPED_TRACE(std::to_string(r.rows) + "x" + std::to_string(r.cols) + " cap " + std::to_string(r.cap));
    std::vector<int> seen(size_t(r.rows * r.cols), 0);
    const int64_t count = tcgemm::detail::staging_piece_count(r.rows, r.cols, r.cap);
    for (int64_t n = 0; n < count; ++n) {
      const tcgemm::detail::StagingPiece p = tcgemm::detail::staging_piece(r.rows, r.cols, r.cap, n);
      ASSERT_GE(p.rows, 1);
      ASSERT_GE(p.cols, 1);
      ASSERT_LE(p.rows * p.cols, r.cap);
      ASSERT_TRUE(p.cols == 1 || p.rows == r.rows) << "multi-column pieces are whole columns";
      ASSERT_EQ(p.offset, p.col0 * r.rows + p.row0);
      for (int64_t j = p.col0; j < p.col0 + p.cols; ++j)
        for (int64_t i = p.row0; i < p.row0 + p.rows; ++i) {
          ASSERT_LT(i, r.rows);
          ASSERT_LT(j, r.cols);
          ++seen[size_t(j * r.rows + i)];
        }
    }
    for (int s : seen) ASSERT_EQ(s, 1);
  }
}

// Pinned, compute-bound products: the resident operand goes in two double-buffered chunks when the shorter
// wait for the first one gains more than streaming the other operand twice costs (n = 16384 on the H100's
// 50 GB/s link), and stays whole where the link is the limit (n <= 8192) or where nothing is known of the
// link (pageable arrays).
// Pinned panels copied by strided 2D DMA (row panels of op(A), their C tiles) are at least min_panel tall,
// within 4x the usual tile and panel caps; without min_panel the usual width holds.
TEST(HostSchedule, StridedPinnedPanelsAreTallEnough) {
  const int64_t gib = int64_t(1) << 30;
  tcgemm::detail::HostLink strided;
  strided.min_panel = 4096;
  const tcgemm::detail::HostSchedule tall = tcgemm::detail::plan_host_schedule(16384, 2048, 8192, 24 * gib, strided);
  EXPECT_FALSE(tall.resident_a);
  EXPECT_EQ(tall.panel, 4096);
  EXPECT_EQ(tcgemm::detail::plan_host_schedule(16384, 2048, 8192, 24 * gib).panel, 2048);
  // Rows past what is left: one panel of the whole streamed length.
  EXPECT_EQ(tcgemm::detail::plan_host_schedule(3000, 1000, 500, 24 * gib, strided).panel, 3000);
  // k = 131072: the panel cap (128 MiB: 128 rows) grows at most 4x, to 512 rows.
  EXPECT_EQ(tcgemm::detail::plan_host_schedule(16384, 64, 131072, 24 * gib, strided).panel, 512);
  // A wide resident operand (16000 columns: tile cap 512 rows) also caps it at 4x: 2048 rows.
  EXPECT_EQ(tcgemm::detail::plan_host_schedule(40000, 16000, 1024, 24 * gib, strided).panel, 2048);
  // op(A) resident: column panels of an untransposed B are contiguous (no minimum); of a transposed B, strided.
  EXPECT_EQ(tcgemm::detail::plan_host_schedule(2048, 16384, 8192, 24 * gib, strided).panel, 2048);
  strided.b_transposed = true;
  EXPECT_EQ(tcgemm::detail::plan_host_schedule(2048, 16384, 8192, 24 * gib, strided).panel, 4096);
}

TEST(HostSchedule, ComputeBoundPinnedProductsCutTheResidentOperand) {
  const int64_t gib = int64_t(1) << 30;
  tcgemm::detail::HostLink pinned;
  pinned.link_gbs = 50.0;
  pinned.c_uploaded = true;
  const tcgemm::detail::HostSchedule big = tcgemm::detail::plan_host_schedule(16384, 16384, 16384, 24 * gib, pinned);
  EXPECT_TRUE(big.double_buffer);
  EXPECT_EQ(big.resident_chunk, 8192);
  for (const int64_t n : {1024, 4096, 8192}) {
    const tcgemm::detail::HostSchedule s = tcgemm::detail::plan_host_schedule(n, n, n, 24 * gib, pinned);
    EXPECT_FALSE(s.double_buffer) << n;
    EXPECT_EQ(s.resident_chunk, n) << n;
  }
  const tcgemm::detail::HostSchedule pageable = tcgemm::detail::plan_host_schedule(16384, 16384, 16384, 24 * gib);
  EXPECT_FALSE(pageable.double_buffer);
  EXPECT_EQ(pageable.resident_chunk, 16384);
  // A resident operand over its budget keeps the budget's single-buffered chunks (1.5 GiB: 12288 rows).
  const tcgemm::detail::HostSchedule tight =
      tcgemm::detail::plan_host_schedule(16384, 16384, 16384, int64_t(3) * gib / 2, pinned);
  EXPECT_FALSE(tight.double_buffer);
  EXPECT_EQ(tight.resident_chunk, 12288);
  // Forced chunks (TCGEMM_HOST_RESIDENT_CHUNKS) apply whatever the link.
  tcgemm::detail::HostLink forced;
  forced.forced_chunks = 3;
  const tcgemm::detail::HostSchedule three = tcgemm::detail::plan_host_schedule(700, 1300, 120, 24 * gib, forced);
  EXPECT_TRUE(three.double_buffer);
  EXPECT_EQ(three.resident_chunk, 256);
}

// The streamed length is cut the same way on every pass: whole panels, then the last stretch of at most one
// panel in halving widths (multiples of 64) down to the floor, so the product and download that nothing
// overlaps are short. The widths cover the length exactly and host_panel_count counts them.
TEST(HostSchedule, LastPanelsTaper) {
  const int64_t gib = int64_t(1) << 30;
  auto widths = [](const tcgemm::detail::HostSchedule& s, int64_t len) {
    std::vector<int64_t> w;
    for (int64_t s0 = 0; s0 < len; s0 += w.back()) w.push_back(tcgemm::detail::host_panel_width(s, len - s0));
    return w;
  };
  const tcgemm::detail::HostSchedule sq = tcgemm::detail::plan_host_schedule(8192, 8192, 8192, 24 * gib);
  EXPECT_EQ(sq.panel, 1024);
  EXPECT_EQ(sq.taper_floor, 256);
  EXPECT_EQ(widths(sq, 8192), (std::vector<int64_t>{1024, 1024, 1024, 1024, 1024, 1024, 1024, 512, 256, 256}));
  EXPECT_EQ(tcgemm::detail::host_panel_count(sq, 8192), 10);
  // A short remainder is not cut below the floor; a length of one panel tapers from the start.
  EXPECT_EQ(widths(sq, 1024 + 300), (std::vector<int64_t>{1024, 300}));
  EXPECT_EQ(widths(sq, 700), (std::vector<int64_t>{384, 316}));
  // Strided pinned row panels of 4096 rows taper down to 1024 rows (8 KiB copied rows), no further.
  tcgemm::detail::HostLink strided;
  strided.min_panel = 4096;
  const tcgemm::detail::HostSchedule tall = tcgemm::detail::plan_host_schedule(16384, 2048, 8192, 24 * gib, strided);
  EXPECT_EQ(tall.taper_floor, 1024);
  EXPECT_EQ(widths(tall, 16384), (std::vector<int64_t>{4096, 4096, 4096, 2048, 1024, 1024}));
  EXPECT_EQ(widths(tcgemm::detail::plan_host_schedule(9000, 700, 64, 24 * gib, strided), 9000),
            (std::vector<int64_t>{4096, 4096, 808}));
  for (const int64_t len : {1, 63, 64, 255, 256, 511, 512, 513, 1000, 4097, 100000}) {
    const std::vector<int64_t> w = widths(sq, len);
    int64_t sum = 0;
    for (size_t i = 0; i < w.size(); ++i) {
      EXPECT_GE(w[i], 1);
      EXPECT_LE(w[i], sq.panel);
      if (i + 1 < w.size()) EXPECT_EQ(w[i] % 64, 0) << len;
      sum += w[i];
    }
    EXPECT_EQ(sum, len);
    EXPECT_EQ(tcgemm::detail::host_panel_count(sq, len), int64_t(w.size())) << len;
  }
}
