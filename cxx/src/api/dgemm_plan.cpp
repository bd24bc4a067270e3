// The plan model (dgemm_plan.hpp).
#include "api/dgemm_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/family_table.hpp"
#include "families/skinny/rules.hpp"
#include "families/sm90/rules.hpp"

namespace tcgemm::detail {
namespace {

// ---- model constants (H100 SXM measurements, docs/tuning.md "The plan model") ----
// Sustained FP64 tensor rate of one SM running one sm90_mma block tile with >= 8 warps resident, in
// flop/us, per kSm90Shapes entry (128x64x16, 64x64x16, 128x128x16, 32x64x32, 64x128x32, 32x32x32; 64x128 measured
// at 8192^3, 20.07 ms). The 32x32 entry is not a measured sustained rate: the plan takes that tile only for grids of
// at most one block per SM (sm90_candidate_considered), where every block runs at kLoneBlockEfficiency of it, and
// 0.280e6 ranks it first wherever it was fastest graph-timed on the H200 (128^3-320^3, 200x300x400, 64x64x4000).
// Its other per-shape constants below are 32x64's (same warps, copies and blocks per SM) unless stated.
constexpr double kSm90RatePerSm[] = {0.420e6, 0.386e6, 0.400e6, 0.340e6, 0.415e6, 0.280e6};
// The 64x128x32 entry, which the plan takes only for one full round of blocks (sm90_candidate_considered).
constexpr int kSm90OneRoundShape = find_sm90_shape(64, 128, 32);
static_assert(kSm90OneRoundShape >= 0, "kSm90Shapes has the 64x128x32 entry");
// The 32x32x32 entry, which the plan takes only for grids of at most one of its blocks per SM
// (sm90_candidate_considered).
constexpr int kSm90SmallGridShape = find_sm90_shape(32, 32, 32);
static_assert(kSm90SmallGridShape >= 0, "kSm90Shapes has the 32x32x32 entry");
static_assert(sizeof(kSm90RatePerSm) / sizeof(kSm90RatePerSm[0]) == kSm90ShapeCount,
              "one measured rate per kSm90Shapes entry");
// The rates on a wide-memory Hopper (the H200: the H100's SMs with 4.8 TB/s of HBM3e instead of 3.35) in long unsplit
// grids on 16-byte copies (sm90_rate_per_sm), per kSm90Shapes entry. Only 64x64 differs: it runs there at 0.99-1.01
// of 128x64's rate per SM, not the H100's 0.92. Event-timed round robins on the H200, 2026-11-28
// (bench/results/2026-11-28-h200-wide-memory-plan/tile-calibration.txt): 4096^3 2606 us against 2577 on 128x64,
// 5000^3 5000 against 5047, 3000^3 1043 against 1107 (cuBLAS runs 64x64 at 3000^3 too, ncu). The rate holds only
// there. Applied to every 64x64 candidate it moved split and short grids onto slower plans in the A/B
// (1000x1000x20000 onto unsplit 64x64: +4%; 46x14687x3715 'T','N' from 4 slices to 2: +14%), and from 2 to 3 waves it
// replaced 3-slice 128x64 plans that were faster (3322x998x9902 'T','T': +14%). At 3 waves and more, with 16-byte
// copies: 48 of 472 random and square shapes change their pick, 1.031x faster in geometric mean (0.944-1.174;
// against cuBLAS 0.952 -> 0.982). The other entries were not calibrated on the H200 and keep the H100's rates.
constexpr double kSm90WideMemoryRatePerSm[] = {kSm90RatePerSm[0], 0.41e6, kSm90RatePerSm[2],
                                               kSm90RatePerSm[3], kSm90RatePerSm[4], kSm90RatePerSm[5]};
static_assert(sizeof(kSm90WideMemoryRatePerSm) / sizeof(kSm90WideMemoryRatePerSm[0]) == kSm90ShapeCount,
              "one wide-memory rate per kSm90Shapes entry");
constexpr double kWideHbmBytesPerUs = 4.5e6;    // peak DRAM bandwidth from which a device counts as wide-memory
constexpr double kSm90WideMemoryMinWaves = 3.0;  // "long": at least this many waves of the candidate's blocks
constexpr double kLoneBlockEfficiency = 0.6;   // one 4-warp block alone on an SM keeps the tensor pipe ~60% busy
// The last, partial round of a grid that has full rounds before it (its tail): its lone 4-warp blocks run at this
// fraction of the tile's rate, per kSm90Shapes entry. 128x64 and 64x64 keep (nearly) the SM's full rate there: their
// operand panels were read by the rounds before, and one block's 64x32 or 32x32 warp tiles keep the four tensor
// pipes fed. With 0.6 here too the model ranked 1792^3 and 2048x1536x1024 onto 64x64 (0.243 and 0.141 ms) instead of
// 128x64 (0.210, 0.119), and 1800x1800x900 and 3000x1200x2400 the other way (8-10% in the A/B). Fitted to every tile
// on 21 squares 1024-4096 and 15 other shapes plus an A/B of the moved picks (single calls, H100, 2026-11-27,
// bench/results/2026-11-27-h100-plan-tail/): calibration score on that grid 1.018 -> 1.005. 128x64 takes 0.9: at 1.0
// its 2.1-round 2049^3 ranked first and ran 6% slower than 64x64. The 32x64 tile keeps 0.6 (its small-grid
// calibration is unchanged either way); the 8-warp tiles have no lone round.
constexpr double kSm90TailEfficiency[] = {0.9, 1.0, kLoneBlockEfficiency, kLoneBlockEfficiency,
                                          kLoneBlockEfficiency, kLoneBlockEfficiency};
static_assert(sizeof(kSm90TailEfficiency) / sizeof(kSm90TailEfficiency[0]) == kSm90ShapeCount,
              "one tail efficiency per kSm90Shapes entry");
// 'T','N' (8-byte left-operand fragment loads, sm90::Family) runs at the 'N','N' rate on every tile but 64x128,
// whose 32x32 warp tiles keep the 2-way-conflicted 8-byte loads on a side as wide as the other (the tall tiles
// swap theirs): 0.90 of its 'N','N' time at 768^3 and 1000^3 (single calls, H100, 2026-11-27,
// bench/results/2026-11-27-h100-tn-native/tn-grid.log), per kSm90Shapes entry. 32x32 (16x16 warp tiles, square,
// not swapped) 0.92: 256^3 'T','N' 4.57 us against 'N','N' 4.21, graph-timed on the H200.
constexpr double kSm90TnEfficiency[] = {1.0, 1.0, 1.0, 1.0, 0.90, 0.92};
static_assert(sizeof(kSm90TnEfficiency) / sizeof(kSm90TnEfficiency[0]) == kSm90ShapeCount,
              "one measured 'T','N' factor per kSm90Shapes entry");
// The 8-byte copy path (an operand with an odd leading dimension or a base not 16-byte aligned) issues twice
// the cp.async instructions of the 16-byte path: its rate, per kSm90Shapes entry, as a fraction of the
// 16-byte rate (loops of calls on the H100, 1000^3 against 1001^3, 1536^3 against 1537^3, 4096^3 against
// 4097^3). 32x64 loses most: per k-tile its 8-byte copies outnumber its MMAs 3 to 2.
// (64x128: a copy of the others' factor, unused: the plan takes that tile with 16-byte copies only.)
constexpr double kSm90Vec8Efficiency[] = {0.87, 0.87, 0.87, 0.62, 0.87, 0.62};
static_assert(sizeof(kSm90Vec8Efficiency) / sizeof(kSm90Vec8Efficiency[0]) == kSm90ShapeCount,
              "one measured 8-byte-path factor per kSm90Shapes entry");
constexpr double kHbmBytesPerUs = 3.0e6;       // streaming HBM3 read rate (bytes per microsecond)
constexpr double kSkinnyBandwidthFraction = 0.92;  // of kHbmBytesPerUs, the skinny kernels streaming
// The tensor-core kernel streams its A and B k-tiles at a fraction of kHbmBytesPerUs, and writes C at a
// fraction; both depend on the tile (more, smaller blocks per SM overlap their epilogues better). 64x64 read
// 268 MB in 107 us at 128x128x131072 (65 slices, 2026-11-27), where 39 slices of 32x64 took 128 us.
// (64x128: 128x128's read and write fractions, not measured for this tile.)
constexpr double kSm90ReadFraction[] = {0.70, 0.84, 0.70, 0.70, 0.70, 0.70};
static_assert(sizeof(kSm90ReadFraction) / sizeof(kSm90ReadFraction[0]) == kSm90ShapeCount,
              "one measured read fraction per kSm90Shapes entry");
constexpr double kSm90WriteFraction[] = {0.50, 0.65, 0.50, 0.65, 0.50, 0.65};
static_assert(sizeof(kSm90WriteFraction) / sizeof(kSm90WriteFraction[0]) == kSm90ShapeCount,
              "one measured write fraction per kSm90Shapes entry");
// A wide grid of one row of tiles (m <= tile_m, at least sm_count / 2 column tiles: a C of at most 32 rows over a
// wide n on 32x64) streams B past it at this fraction instead: 32x64 read B at 0.78-0.96 of kHbmBytesPerUs at
// 9..32 x 10000..30000 x 2000..8000 with 1-8 slices (2026-11-27, bench/results/2026-11-27-h100-plan-tail/skinny-c/),
// where 0.70 ranked 64x64 first and lost 8-19% (13x18404x5248: 0.329 ms on 64x64 in 4 slices, 0.293 on 32x64). The
// same runs measured 64x64 at 0.72-0.84 (its fraction is 0.84 already) and 128x64 at 0.42-0.51 (compute-bound
// there), so only 32x64 changes. Narrow grids (deep k with a small C, many slices) keep 0.70: not measured in this
// regime, and 32x64 was slower than 64x64 at 128x128x131072.
constexpr double kSm90SingleRowReadFraction[] = {kSm90ReadFraction[0], kSm90ReadFraction[1], kSm90ReadFraction[2],
                                                 0.92, kSm90ReadFraction[4], kSm90ReadFraction[5]};
static_assert(sizeof(kSm90SingleRowReadFraction) / sizeof(kSm90SingleRowReadFraction[0]) == kSm90ShapeCount,
              "one single-row read fraction per kSm90Shapes entry");
// Warps per SM needed for the full streaming rate (loads in flight: two 4-warp blocks, or one of 8 warps);
// fewer stream proportionally less.
constexpr double kSm90StreamingWarpsPerSm = 8.0;
// Split-K's fixed cost beyond its traffic: the workspace from the pool and the reduction's launch (measured:
// 512^3 in two slices is ~6 us slower than in one).
constexpr double kSplitFixedUs = 6.0;
// A cluster split-K (few slices) adds its slices in distributed shared memory: two cluster barriers and a
// shared-memory round trip of the tile, no workspace and no second launch. Its blocks are scheduled a
// cluster at a time and wait for each other at the barriers: they run at kClusterEfficiency of the unsplit
// rate with 2 slices, kClusterEfficiencyPerSlice less for each further slice (0.78 with 8), plus
// kClusterRoundUs per round of blocks. Fitted (2026-11-27) to loops of calls of 64x64 and 128x64 with 1-4
// slices at 384-2048 (even and odd sizes) and to 512x512x16384 with 4 and 8 slices (docs/tuning.md, "Cluster
// split-K", "The plan model").
constexpr double kClusterReduceUs = 1.0;
constexpr double kClusterEfficiency = 0.9;
constexpr double kClusterEfficiencyPerSlice = 0.02;
constexpr double kClusterRoundUs = 3.0;
constexpr double kSkinnyStreamingBlocksPerSm = 2.0;
// The skinny tensor-core kernel keeps 64 KB of loads in flight per block (its ring of cp.async copies): one block
// per SM streams at nearly the full rate (8 x 8192 x 8192 in one chunk, 128 blocks: 127.9 us, in two: 126.4,
// H200). The skinny chunks' reduction is a programmatic dependent launch (both kernels): its tail after the
// chunks measured ~2 us at 4096 x 1 x 4096 (the CUDA-core kernel), against the 6 us of kSplitFixedUs (sm90_mma,
// 512^3 in two slices). The tensor-core route takes 3 (with the workspace request from the pool); the
// CUDA-core routes keep kSplitFixedUs, their plan choices unmeasured against a smaller figure.
constexpr double kSkinnyMmaStreamingBlocksPerSm = 1.0;
constexpr double kSkinnyMmaSplitFixedUs = 3.0;
constexpr double kSkinnyStreamWarpBytesPerUs = 4500.0;  // one warp of the column stream (families/skinny)
constexpr double kRoundOverheadUs = 1.0;       // pipeline fill and epilogue of one round of blocks
constexpr double kLaunchUs = 2.5;              // one kernel launch, end to end
constexpr double kPlanTieFraction = 0.03;      // prefer fewer slices within this fraction of the best
constexpr int64_t kMinTilesPerSlice = 4;       // a workspace slice is at least this many k-tiles deep
constexpr double kSharedABRatePerSm = 0.19e6;  // shared_ab (cc 8.x path) on one SM, flop/us

double safe_div(double a, double b) { return b > 0 ? a / b : 0.0; }

// The plan is a function of the shape alone (tcgemm_dgemm_plan has no leading dimensions): it weighs the copy
// width for operands stored as whole arrays, lda = rows of op(A)'s storage and ldb = rows of op(B)'s, as a
// Fortran code passing whole arrays does. Odd row counts mean odd leading dimensions: the 8-byte copies.
bool whole_array_operands_copy_16_bytes(char transa, char transb, int64_t m, int64_t n, int64_t k) {
  const int64_t a_rows = transa == 'N' ? m : k, b_rows = transb == 'N' ? k : n;
  return a_rows % 2 == 0 && b_rows % 2 == 0;
}

// Time of `blocks` equal blocks of `flops_per_block` on sm_count SMs holding `per_sm` blocks each, with a
// rate `rate` per SM when >= 8 warps are resident (warps_per_block warps per block); a round with fewer runs
// at kLoneBlockEfficiency of it, or at tail_efficiency when it is the tail after full rounds.
double rounds_time_us(int64_t blocks, double flops_per_block, int sm_count, int per_sm, int warps_per_block,
                      double rate, double tail_efficiency, double extra_round_us = 0.0) {
  const int64_t on_busiest = (blocks + sm_count - 1) / sm_count;
  const int64_t full_rounds = on_busiest / per_sm;
  const int64_t rest = on_busiest % per_sm;
  // `tail`: the partial round after full rounds.
  auto round_us = [&](int64_t resident, bool tail) {
    const double lone = tail ? tail_efficiency : kLoneBlockEfficiency;
    const double eff = resident * warps_per_block >= 8 ? 1.0 : lone;
    return resident * flops_per_block / (rate * eff) + kRoundOverheadUs + extra_round_us;
  };
  return full_rounds * round_us(per_sm, false) + (rest ? round_us(rest, full_rounds > 0) : 0.0);
}

// Whether the skinny family takes its column-stream route for whole arrays (the plan's assumption: S is then
// compact).
bool skinny_plan_streams_columns(const SkinnyShape& s, int sm_count) {
  return skinny_streams_columns(s, 0, sm_count, true);
}

// Whether it takes the tensor-core kernel for whole arrays: a k-contiguous G's columns are k apart, so they start
// 16-byte aligned where k is even.
bool skinny_plan_on_tensor_cores(const SkinnyShape& s, bool sm90_code) {
  return skinny_on_tensor_cores(s, s.k % 2 == 0, sm90_code);
}

void describe(tcgemm_plan& p, bool sm90_code, const char* form_text, int64_t m, int64_t n, int64_t k) {
  const tcgemm_config& c = p.config;
  char head[96];
  const SkinnyShape shape = skinny_shape(form_text[0], form_text[1], m, n, k);
  if (c.family == TCGEMM_FAMILY_SKINNY && skinny_plan_streams_columns(shape, p.sm_count))
    std::snprintf(head, sizeof head, "skinny (FP64 CUDA cores, warps stream whole columns)");
  else if (c.family == TCGEMM_FAMILY_SKINNY && skinny_plan_on_tensor_cores(shape, sm90_code))
    std::snprintf(head, sizeof head, "skinny (FP64 tensor cores, one MMA per 16 k of 16 columns)");
  else if (c.family == TCGEMM_FAMILY_SKINNY)
    std::snprintf(head, sizeof head, "skinny (FP64 CUDA cores, streams the large operand)");
  else
    std::snprintf(head, sizeof head, "%s %dx%dx%d stages %d", family_name(c.family), c.tile_m, c.tile_n, c.tile_k,
                  c.stages);
  // A summary longer than the struct's buffer is cut (the numbers stay in their own fields).
  const int written = std::snprintf(p.summary, sizeof p.summary,
                "%lldx%lldx%lld %s: %s; %lld tiles x %lld k-slices of %lld = %lld blocks, %d per SM on %d SMs = "
                "%.2f waves;%s workspace %.1f MB; model %.1f us (compute %.1f, memory %.1f)",
                static_cast<long long>(m), static_cast<long long>(n), static_cast<long long>(k), form_text, head,
                static_cast<long long>(p.tiles), static_cast<long long>(p.k_slices),
                static_cast<long long>(p.k_per_slice), static_cast<long long>(p.blocks), p.blocks_per_sm,
                p.sm_count, p.waves, p.cluster_split ? " slices added in a cluster;" : "", p.workspace_bytes / 1e6,
                p.predicted_us, p.compute_us, p.memory_us);
  if (written >= int(sizeof p.summary)) p.summary[sizeof p.summary - 1] = '\0';
}

tcgemm_plan skinny_candidate(const PlanDevice& dev, char transa, char transb, int64_t m, int64_t n, int64_t k) {
  const SkinnyShape s = skinny_shape(transa, transb, m, n, k);
  tcgemm_plan p{};
  p.config.family = TCGEMM_FAMILY_SKINNY;
  // Compulsory traffic (the large operand once, S, C') and FP64 CUDA-core arithmetic (~33 TFLOP/s).
  const double bytes = 8.0 * (double(s.cols) * k + double(s.rows) * k + double(s.rows) * s.cols);
  p.compute_us = 2.0 * s.rows * double(s.cols) * k / (dev.sm_count * 0.25e6);
  p.sm_count = dev.sm_count;
  if (skinny_plan_streams_columns(s, dev.sm_count)) {
    p.k_slices = 1;
    p.k_per_slice = k;
    p.tiles = skinny_stream_blocks(s.cols, skinny_stream_warps_per_column(s, dev.sm_count));
    p.blocks = p.tiles;
    p.blocks_per_sm = kSkinnyStreamBlocksPerSm;
    p.waves = safe_div(double(p.blocks), double(dev.sm_count) * p.blocks_per_sm);
    p.memory_us = bytes / (kHbmBytesPerUs * kSkinnyBandwidthFraction);
    // With few columns the call lasts as long as one warp's share of a column: a warp streams about 4.5 GB/s
    // with its 8 loads in flight (1x264x4096 with a warp per column: 7.3 us measured, 32 KB per warp).
    const double one_column_us =
        8.0 * double(k) / skinny_stream_warps_per_column(s, dev.sm_count) / kSkinnyStreamWarpBytesPerUs;
    p.predicted_us = std::fmax(std::fmax(p.memory_us, p.compute_us), one_column_us) + kLaunchUs;
    return p;
  }
  // The tensor-core kernel's chunks are as deep as its slots allow.
  const bool tensor_cores = skinny_plan_on_tensor_cores(s, dev.sm90_code);
  const int64_t chunk = tensor_cores ? skinny_mma_chunk_k(s, 0, dev.sm_count) : skinny_chunk_k(s, 0, dev.sm_count);
  p.k_slices = skinny_chunks(s, chunk);
  p.k_per_slice = chunk;
  p.tiles = skinny_blocks_per_chunk(s);
  p.blocks = p.tiles * p.k_slices;
  // Resident blocks. The tensor-core kernel: shared memory binds (kSkinnyMmaSmemBytes, 2 per SM). The CUDA-core
  // ones, registers (CUDA 13.0's allocation, ptxas -v): the k-contiguous kernels are capped at 128 registers, 2
  // blocks per SM (ncu at 1x4096x4096, chunked before the column stream: 112 registers, 2 blocks, 30 clusters
  // of 8 at once); the cols-contiguous ones use 62-64 registers for 1-2 rows (4 blocks), 72-74 for 4 (3), 94
  // for 8 (2). Only the summary's waves read it: the skinny time is its traffic (kSkinnyStreamingBlocksPerSm,
  // kSkinnyMmaStreamingBlocksPerSm).
  p.blocks_per_sm =
      tensor_cores ? kSkinnyMmaBlocksPerSm : (s.g_k_contiguous || s.rows > 4 ? 2 : (s.rows > 2 ? 3 : 4));
  p.waves = safe_div(double(p.blocks), double(dev.sm_count) * p.blocks_per_sm);
  // Up to 8 chunks of a k-contiguous G (4 with 5-8 rows, 2 on the tensor cores) add up in a cluster
  // (skinny_cluster_reduces): no workspace and no second kernel.
  p.cluster_split = skinny_cluster_reduces(s, p.k_slices, dev.sm90_code, tensor_cores) ? 1 : 0;
  p.workspace_bytes =
      p.k_slices > 1 && !p.cluster_split ? p.k_slices * s.rows * s.cols * int64_t(sizeof(double)) : 0;
  const double streaming_blocks = tensor_cores ? kSkinnyMmaStreamingBlocksPerSm : kSkinnyStreamingBlocksPerSm;
  const double streaming = std::fmin(1.0, double(p.blocks) / (streaming_blocks * dev.sm_count));
  p.memory_us = bytes / (kHbmBytesPerUs * kSkinnyBandwidthFraction * streaming);
  double t = p.memory_us > p.compute_us ? p.memory_us : p.compute_us;
  if (p.cluster_split) t += kClusterReduceUs;
  else if (p.k_slices > 1)
    t += (tensor_cores ? kSkinnyMmaSplitFixedUs : kSplitFixedUs) + 2.0 * p.workspace_bytes / kHbmBytesPerUs;
  p.predicted_us = t + kLaunchUs;
  return p;
}

// The slice count the plan tries after `want`: +1 up to 8, then ~12% more, never stepping over a power of
// two.
int64_t next_slice_count(int64_t want) {
  const int64_t grown = want < 8 ? want + 1 : want + (want + 7) / 8;
  int64_t pow2 = 1;
  while (pow2 <= want) pow2 *= 2;
  return pow2 < grown ? pow2 : grown;
}

}  // namespace

tcgemm_plan plan_sm90_candidate(const PlanDevice& dev, int shape_index, int64_t requested_slices, char transa,
                                char transb, int64_t m, int64_t n, int64_t k) {
  const Sm90Shape& s = kSm90Shapes[shape_index];
  const bool tn = transa == 'T' && transb == 'N';
  tcgemm_plan p{};
  p.config = sm90_shape_config(s);
  const Sm90Split split = sm90_split(k, requested_slices, s.tile_k);
  p.config.k_splits = split.slices > 1 ? static_cast<int32_t>(requested_slices) : 0;
  p.k_slices = split.slices;
  p.k_per_slice = split.k_slice;
  p.tiles = ((m + s.tile_m - 1) / s.tile_m) * ((n + s.tile_n - 1) / s.tile_n);
  p.blocks = p.tiles * p.k_slices;
  const int warps = s.warps_m * s.warps_n;
  const int per_sm = sm90_blocks_per_sm(s);  // registers and shared memory (rules.hpp)
  p.blocks_per_sm = per_sm;
  p.sm_count = dev.sm_count;
  p.waves = safe_div(double(p.blocks), double(dev.sm_count) * per_sm);
  // Few slices add up inside a cluster (rules.hpp): no workspace; more go through workspace and a reduction.
  const int64_t clusters_at_once = sm90_clusters_at_once(dev.cluster_room, shape_index, split.slices, dev.sm_count);
  p.cluster_split = sm90_cluster_split(s, s.default_stages, split, p.tiles, clusters_at_once, transa, transb) ? 1 : 0;
  const bool workspace_split = p.k_slices > 1 && !p.cluster_split;
  p.workspace_bytes = workspace_split ? p.k_slices * m * n * int64_t(sizeof(double)) : 0;
  const int64_t padded_k = (split.k_slice + s.tile_k - 1) / s.tile_k * s.tile_k;  // whole k-tiles
  const double flops_per_block = 2.0 * s.tile_m * s.tile_n * double(padded_k);
  const bool vec16 = whole_array_operands_copy_16_bytes(transa, transb, m, n, k);
  const double cluster_efficiency =
      p.cluster_split ? kClusterEfficiency - kClusterEfficiencyPerSlice * double(p.k_slices - 2) : 1.0;
  const bool wide_memory_rate = dev.hbm_peak_bytes_per_us >= kWideHbmBytesPerUs && p.k_slices == 1 && vec16 &&
                                p.waves >= kSm90WideMemoryMinWaves;
  const double rate = (wide_memory_rate ? kSm90WideMemoryRatePerSm : kSm90RatePerSm)[shape_index] * cluster_efficiency *
                      (vec16 ? 1.0 : kSm90Vec8Efficiency[shape_index]) * (tn ? kSm90TnEfficiency[shape_index] : 1.0);
  p.compute_us = rounds_time_us(p.blocks, flops_per_block, dev.sm_count, per_sm, warps, rate,
                                kSm90TailEfficiency[shape_index], p.cluster_split ? kClusterRoundUs : 0.0);
  const double ab_bytes = 8.0 * (double(m) * k + double(k) * n), c_bytes = 8.0 * double(m) * n;
  const double partial_bytes = 2.0 * double(p.workspace_bytes);
  const double streaming = std::fmin(1.0, double(p.blocks) * warps / (kSm90StreamingWarpsPerSm * dev.sm_count));
  // (Not for 'T','T', which the kernel runs transposed: its grid is then one column of tiles streaming the
  // left operand, a case not measured. The model counts tiles on the call's m and n for every form.)
  const bool single_row =
      m <= s.tile_m && p.tiles * 2 >= dev.sm_count && !(transa == 'T' && transb == 'T');
  const double read_fraction = single_row ? kSm90SingleRowReadFraction[shape_index] : kSm90ReadFraction[shape_index];
  p.memory_us = ab_bytes / (kHbmBytesPerUs * read_fraction * streaming) +
                (workspace_split ? 0.0 : c_bytes / (kHbmBytesPerUs * kSm90WriteFraction[shape_index]));
  double reduce_us = 0.0;
  if (workspace_split)
    reduce_us = kSplitFixedUs + partial_bytes / kHbmBytesPerUs + 8.0 * m * n / kHbmBytesPerUs;
  else if (p.cluster_split)
    reduce_us = kClusterReduceUs;
  p.predicted_us = (p.compute_us > p.memory_us ? p.compute_us : p.memory_us) + kLaunchUs + reduce_us;
  return p;
}

bool sm90_shape_considered(int shape_index, char transa, char transb, int64_t m, int64_t n, int64_t k) {
  // Matrix-vector-like products (m or n <= 8) stream one operand; the 32-row tile's model undercounts its
  // fixed costs there (8192x3x100: 8 us against the skinny family's 6, loops of calls on the H100).
  if (skinny_applies(m, n, k) && kSm90Shapes[shape_index].tile_m < 64) return false;
  // The 64x128 tile with its 8-byte copies lost to 64x64 and 128x64 everywhere it was measured (1001^3 0.78
  // against 0.86 of cuBLAS, 3333^3 1.07 against 1.26): 16-byte copies only.
  if (shape_index == kSm90OneRoundShape) return whole_array_operands_copy_16_bytes(transa, transb, m, n, k);
  return true;
}

bool sm90_candidate_considered(const tcgemm_plan& c) {
  // The 64x128 tile (one 8-warp block per SM) wins where its grid is one round that keeps nearly every SM
  // busy (1024^3: 128 blocks, 1.00 of cuBLAS against 0.98 for 64x64; 1000x1000x20000 unsplit 0.98 against
  // 0.95; 512x512x16384 in 4 slices 0.99 against 0.91) and loses on partial or several rounds (777^3, 91
  // blocks: 0.73 against 0.99; 3072^3, 8.7 rounds: 0.95 against 0.97), which the model does not see.
  const int shape = find_sm90_shape(c.config.tile_m, c.config.tile_n, c.config.tile_k);
  if (shape == kSm90OneRoundShape && (c.waves < 0.9 || c.waves > 1.0))
    return false;
  // The 32x32 tile halves a warp's chain of MMAs against 32x64; it wins while its grid is at most one block per SM
  // (graph-timed on the H200: 256^3 4.2 us against 5.2, 320^3 4.8 against 6.1, 200x300x400 6.0 against 8.1) and
  // loses from there on, where its copies per flop cost more than the shorter chain saves (384^3, 144 blocks:
  // 7.0 against 6.8; 512^3 8.6 against 8.5; 640^3 18.2 against 15.1).
  // Its clusters of more than 2 slices lost to 32x64 through workspace (64x128x4000, 100x128x4000, 128x128x4000:
  // 8 clustered 32x32 slices 7.4-9.8 us against 6.2-8.3 for 25 slices of 32x64), while its workspace splits won
  // (64x64x4000: 25 slices 5.2 us against 13.0 for 50 of 128x128; 40x64x4000 5.4 against 7.8).
  if (shape == kSm90SmallGridShape && (c.blocks > int64_t(c.sm_count) || (c.cluster_split && c.k_slices > 2)))
    return false;
  // Clusters of 3, 5, 6 or 7 slices measured slower than 2 or 4 where the model ranked them first (639^3 on
  // 128x64: 5 slices 0.031 ms, 4 slices 0.024; 896^3 on 64x64: 3 slices 43 us, 2 slices 34). A cluster is
  // placed whole inside a GPC; the model, which spreads blocks evenly, does not see that. It takes 2, 4 and 8
  // slices only.
  return !(c.cluster_split && (c.k_slices & (c.k_slices - 1)) != 0);
}

bool plan_prefers(const tcgemm_plan& c, const tcgemm_plan& best) {
  // Better by more than the tie margin, or within it with fewer slices (less workspace, one launch).
  const bool clearly_faster = c.predicted_us < best.predicted_us * (1.0 - kPlanTieFraction);
  const bool tie_fewer = c.predicted_us < best.predicted_us * (1.0 + kPlanTieFraction) && c.k_slices < best.k_slices &&
                         best.config.family == TCGEMM_FAMILY_SM90_MMA;
  return clearly_faster || tie_fewer;
}

tcgemm_plan plan_dgemm(const PlanDevice& dev, char transa, char transb, int64_t m, int64_t n, int64_t k,
                       bool with_summary) {
  const char form_text[3] = {transa, transb, 0};
  if (m == 0 || n == 0 || k == 0) {
    tcgemm_plan none{};
    none.config = default_config_for(dev.sm90_code ? TCGEMM_FAMILY_SM90_MMA : TCGEMM_FAMILY_SHARED_AB);
    none.sm_count = dev.sm_count;
    std::snprintf(none.summary, sizeof none.summary,
                  "%lldx%lldx%lld %s: no product (m, n or k is 0): quick return, or C <- beta C",
                  static_cast<long long>(m), static_cast<long long>(n), static_cast<long long>(k), form_text);
    return none;
  }
  const bool skinny = skinny_applies(m, n, k);
  tcgemm_plan best{};
  if (!dev.sm90_code) {
    // cc 8.x (or a build without sm_90 code): the article's shared_ab family, or skinny.
    if (skinny) {
      best = skinny_candidate(dev, transa, transb, m, n, k);
    } else {
      best.config = default_config_for(TCGEMM_FAMILY_SHARED_AB);
      const int64_t t = best.config.tile_m;
      best.tiles = ((m + t - 1) / t) * ((n + t - 1) / t);
      best.k_slices = 1;
      best.k_per_slice = k;
      best.blocks = best.tiles;
      best.blocks_per_sm = 1;
      best.sm_count = dev.sm_count;
      best.waves = safe_div(double(best.blocks), double(dev.sm_count));
      best.compute_us = rounds_time_us(best.blocks, 2.0 * t * t * double(k), dev.sm_count, 1, 8, kSharedABRatePerSm,
                                         kLoneBlockEfficiency);
      best.memory_us = 8.0 * (double(m) * k + double(k) * n + double(m) * n) / kHbmBytesPerUs;
      best.predicted_us = (best.compute_us > best.memory_us ? best.compute_us : best.memory_us) + kLaunchUs;
    }
  } else {
    bool have = false;
    if (skinny) {
      best = skinny_candidate(dev, transa, transb, m, n, k);
      have = true;
    }
    for (int shape = 0; shape < kSm90ShapeCount; ++shape) {
      if (!sm90_shape_considered(shape, transa, transb, m, n, k)) continue;
      const int64_t k_tiles = (k + kSm90Shapes[shape].tile_k - 1) / kSm90Shapes[shape].tile_k;
      int64_t max_slices = k_tiles / kMinTilesPerSlice;
      const int64_t cluster_slices = std::min<int64_t>(kSm90MaxClusterSlices, k_tiles / kSm90MinClusterSliceKTiles);
      if (max_slices < cluster_slices) max_slices = cluster_slices;
      if (max_slices > kSm90MaxKSplits) max_slices = kSm90MaxKSplits;
      int64_t last_slices = 0;
      // Slice counts 1, 2, 3, ... growing by ~12% (enough resolution for wave quantization), and every power
      // of two: those divide power-of-two k into equal slices and fill power-of-two tile counts (at
      // 256x256x32768 the sequence 13, 15, 17 had skipped the 16 slices the model ranks first).
      for (int64_t want = 1; want <= (max_slices > 1 ? max_slices : 1); want = next_slice_count(want)) {
        const Sm90Split split = sm90_split(k, want, kSm90Shapes[shape].tile_k);
        if (split.slices == last_slices) continue;
        last_slices = split.slices;
        const tcgemm_plan c = plan_sm90_candidate(dev, shape, want, transa, transb, m, n, k);
        if (!sm90_candidate_considered(c)) continue;
        if (!have) {
          best = c;
          have = true;
          continue;
        }
        if (plan_prefers(c, best)) best = c;
      }
    }
  }
  if (with_summary)
    describe(best, dev.sm90_code, form_text, m, n, k);
  return best;
}

tcgemm_config plan_config_cached(const PlanDevice& dev, char transa, char transb, int64_t m, int64_t n, int64_t k) {
  // One entry per thread: a loop of calls with one shape (the common case) evaluates the model once.
  struct Entry {
    bool valid = false;
    PlanDevice dev;
    char transa = 0, transb = 0;
    int64_t m = 0, n = 0, k = 0;
    tcgemm_config config{};
  };
  thread_local Entry last;
  if (last.valid && last.dev.cc_major == dev.cc_major && last.dev.sm_count == dev.sm_count &&
      last.dev.sm90_code == dev.sm90_code && last.dev.cluster_room == dev.cluster_room &&
      last.dev.hbm_peak_bytes_per_us == dev.hbm_peak_bytes_per_us && last.transa == transa &&
      last.transb == transb && last.m == m && last.n == n && last.k == k)
    return last.config;
  const tcgemm_config config = plan_dgemm(dev, transa, transb, m, n, k, false).config;
  last = Entry{true, dev, transa, transb, m, n, k, config};
  return config;
}

}  // namespace tcgemm::detail
