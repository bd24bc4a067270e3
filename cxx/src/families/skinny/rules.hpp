// Family skinny: DGEMM with m <= 8 or n <= 8 (matrix-vector-like products). Such a product does at most 16
// flops per element of its large operand, so it is bound by the memory traffic of that operand, not by
// arithmetic: the kernels are built to stream the large operand once, at full HBM bandwidth, from enough blocks
// to keep every SM's loads in flight. They run on the FP64 CUDA cores (kernel.cu, column_stream.cu), except 5
// to 8 rows over an aligned k-contiguous operand on sm_90, where the arithmetic of the CUDA-core kernel left
// too few registers for loads in flight and the FP64 tensor cores take it (k_contiguous_mma.cu).
//
// Every call is normalised to "rows x cols" with rows <= 8: C' = S G, S the small operand (rows x k) and
// G the large one (k x cols). m <= 8: C' = C, S = op(A), G = op(B). Otherwise (n <= 8): C' = C^T,
// S = op(B)^T, G = op(A)^T. G is either k-contiguous (each column's k values adjacent: B with 'N' or A
// with 'T') or cols-contiguous (A with 'N' or B with 'T'); one kernel shape for each.
//
// Deep k is cut into k-chunks of at most kSkinnyMaxChunkK (the S chunk a block stages in shared memory); the
// tensor-core kernel stages S in segments and takes chunks as deep as k (skinny_mma_chunk_k).
// With a k-contiguous G, up to kSkinnyMaxClusterChunks chunks of a column block form a thread-block cluster
// and add their partial sums in shared memory (skinny_cluster_reduces); otherwise the partial products go
// to a workspace and the fixed-order split-K reduction (families/common/split_k_reduce) adds them. Both add
// the chunks in chunk order: bit-identical results from run to run, and between the two routes. One or two
// rows over a k-contiguous G skip the chunks altogether (skinny_streams_columns below).
#pragma once

#include <cstdint>

#include "core/arguments.hpp"

namespace tcgemm::detail {

constexpr int kSkinnyMaxRows = 8;
constexpr int kSkinnyThreads = 256;
constexpr int kSkinnyChunkQuantum = 64;        // k-chunks are multiples of this (a warp's double2 sweep)
constexpr int kSkinnyMaxChunkK = 512;          // S chunk in shared memory: 8 x 512 doubles = 32 KB
constexpr int kSkinnyColsPerBlock = 64;        // k-contiguous G: 8 warps x 8 columns; cols-contiguous G:
                                               // 32 lanes x 2 columns, the 8 warps splitting the k-chunk
constexpr int kSkinnyMaxChunks = 65535;        // k-chunks are grid rows (gridDim.y)
constexpr int kSkinnyTargetBlocksPerSm = 4;    // blocks the automatic chunking aims for
constexpr int64_t kSkinnyMaxK = int64_t(kSkinnyMaxChunks) * kSkinnyMaxChunkK;
constexpr int64_t kSkinnyMaxClusterChunks = 8;  // k-chunks one cluster adds (the portable cluster size)

struct SkinnyShape {
  bool transpose_c;  // C' = C^T (n is the small side)
  int64_t rows, cols, k;
  bool g_k_contiguous;
};
constexpr SkinnyShape skinny_shape(char transa, char transb, int64_t m, int64_t n, int64_t k) {
  const bool use_m = m <= kSkinnyMaxRows && (m <= n || n > kSkinnyMaxRows);
  if (use_m) return SkinnyShape{false, m, n, k, transb == 'N'};
  return SkinnyShape{true, n, m, k, transa == 'T'};
}
// The products the family computes: a small side, k within the chunk grid, and a block grid that fits
// one launch (at most 2^31 - 1 blocks of kSkinnyColsPerBlock columns).
constexpr bool skinny_applies(int64_t m, int64_t n, int64_t k) {
  const int64_t big = m > n ? m : n;
  return (m <= kSkinnyMaxRows || n <= kSkinnyMaxRows) && k <= kSkinnyMaxK &&
         big / kSkinnyColsPerBlock < int64_t(INT32_MAX);
}
constexpr int64_t skinny_blocks_per_chunk(const SkinnyShape& s) {
  return (s.cols + kSkinnyColsPerBlock - 1) / kSkinnyColsPerBlock;
}
// The depth of each of `chunks` chunks (at least 1) of k: k / chunks rounded up to kSkinnyChunkQuantum, at least
// one quantum, at most `most` (a multiple of the quantum). Both chunk rules end here.
constexpr int64_t skinny_chunk_depth(int64_t k, int64_t chunks, int64_t most) {
  if (chunks < 1) chunks = 1;
  int64_t ck = (k + chunks - 1) / chunks;
  ck = (ck + kSkinnyChunkQuantum - 1) / kSkinnyChunkQuantum * kSkinnyChunkQuantum;
  if (ck > most) ck = most;
  if (ck < kSkinnyChunkQuantum) ck = kSkinnyChunkQuantum;
  return ck;
}
// k depth of each chunk: `requested` chunks (0: automatic, enough blocks for kSkinnyTargetBlocksPerSm per
// SM, or one chunk when k fits it and the columns alone give half the SMs a block), rounded to
// kSkinnyChunkQuantum and at most kSkinnyMaxChunkK; the number actually run is ceil(k / chunk_k), at least
// ceil(k / kSkinnyMaxChunkK).
constexpr int64_t skinny_chunk_k(const SkinnyShape& s, int64_t requested, int sm_count) {
  int64_t chunks = requested;
  if (chunks <= 0) {
    const int64_t per_chunk = skinny_blocks_per_chunk(s);
    const int64_t want = int64_t(sm_count) * kSkinnyTargetBlocksPerSm;
    chunks = (want + per_chunk - 1) / per_chunk;
    // A k that fits one chunk is not split once half the SMs have a block: the reduction would cost more.
    if (s.k <= kSkinnyMaxChunkK && 2 * per_chunk >= sm_count) chunks = 1;
  }
  return skinny_chunk_depth(s.k, chunks, kSkinnyMaxChunkK);
}
constexpr int64_t skinny_chunks(const SkinnyShape& s, int64_t chunk_k) {
  return s.k <= 0 ? 1 : (s.k + chunk_k - 1) / chunk_k;
}

// Whether the k-chunks of each column block run as one thread-block cluster that adds its partial sums in
// shared memory and writes C' itself, instead of writing them to workspace for a second kernel: 2 to
// kSkinnyMaxClusterChunks chunks of a k-contiguous G, on a device the build has sm_90 code for (clusters and
// distributed shared memory; every CUDA file of the library is built for the same architectures, so
// sm90_code_available answers for this family too). At 1 x 4096 x 4096 (chunked, before the column stream took
// that shape) the reduction kernel took 3.7 us of the call's 54, and the cluster took 0.054 -> 0.051 ms. The
// cols-contiguous kernel, the same way, lost
// 0.050 -> 0.057 ms at 4096 x 1 x 4096 (bench/results/2026-11-27-h100-raster/): it keeps the workspace.
// The 8-row kernel (5 to 8 rows) clusters at most kSkinnyWideClusterMaxChunks chunks: with more, the
// workspace and its reduction (a programmatic dependent launch since 2026-11-28) measured faster: 8 x 8192 x
// 4096 0.112 -> 0.106 ms and 6 x 16384 x 4096 0.201 -> 0.197, each with 8 chunks in a cluster against 11
// chunks (k_splits 12) through workspace (bench/results/2026-11-28-h100-dependent-launch/cluster-rule/).
constexpr int64_t kSkinnyWideClusterMaxChunks = 4;
// The tensor-core kernel (tensor_cores, below) clusters at most kSkinnyMmaClusterMaxChunks: with 3 and 4
// (k_splits 3, 4 at 8 x 8192 x 8192: 142 and 140 us against 132-133 with 6 and 8 through workspace, H200) its
// co-scheduled blocks of ~101 KB of shared memory each ran slower.
constexpr int64_t kSkinnyMmaClusterMaxChunks = 2;
constexpr bool skinny_cluster_reduces(const SkinnyShape& s, int64_t chunks, bool sm90_code, bool tensor_cores) {
  const int64_t most = tensor_cores ? kSkinnyMmaClusterMaxChunks
                                    : (s.rows > 4 ? kSkinnyWideClusterMaxChunks : kSkinnyMaxClusterChunks);
  return sm90_code && s.g_k_contiguous && chunks > 1 && chunks <= most;
}

// The tensor-core kernel (k_contiguous_mma.cu) instead of the CUDA-core one for the chunked route: 5 to 8 rows
// (S^T fills the MMA's 8 columns; with 3 and 4 rows it measured 0.3-15% slower than the CUDA-core kernel, e.g.
// 3 x 7777 x 9999 1.52 -> 1.28 of cuBLAS), a k-contiguous G whose columns start 16-byte aligned (g_pairs), and
// the build's sm_90 code on the device (mma.m16n8k16.f64 is sm_90's).
constexpr int64_t kSkinnyTensorCoreMinRows = 5;
constexpr bool skinny_on_tensor_cores(const SkinnyShape& s, bool g_pairs, bool sm90_code) {
  return sm90_code && g_pairs && s.g_k_contiguous && s.rows >= kSkinnyTensorCoreMinRows;
}

// The tensor-core kernel's k-chunks. It copies G into a ring in shared memory (cp.async, kSkinnyMmaRingSteps
// steps of each warp, 64 KB of loads in flight per block) and stages S kSkinnyMmaSegmentK at a time, the next
// segment landing while the current one is read, so a chunk may be as deep as k: one block per SM already
// streams at nearly the full rate (8 x 8192 x 8192 in one chunk, 128 blocks: 127.9 us; in 2 chunks, 256
// blocks: 126.4; cuBLAS 130), and more chunks only add partial sums. Automatic: as many chunks as fill the
// SMs' block slots (kSkinnyMmaBlocksPerSm each) once, at least one, each at least kSkinnyMmaMinChunkK deep.
// Measured on the H200 (bench/results/2026-11-28-h200-skinny-ring/chunks/): the rule's count was the best
// or within 10% of it at 8 x 1000 x 1000 (16 of 64 columns' blocks; 4 best), 8 x 2000 x 2000 (8, the best),
// 8 x 500 x 20000 (33; 32: 25.8 us, 16: 26.0), 8 x 8192 x 8192 (2, the best), 6 x 16384 x 4096 and
// 8 x 30000 x 1000 (1, the best).
constexpr int kSkinnyMmaSegmentK = 128;   // S staged per segment
constexpr int kSkinnyMmaRingSteps = 5;    // G copies in shared memory, steps per warp (4 in flight)
constexpr int kSkinnyMmaBlocksPerSm = 2;  // shared memory binds: kSkinnyMmaSmemBytes per block (below)
constexpr int64_t kSkinnyMmaMinChunkK = 128;
// Its shared memory per block: the G ring (8 warps x kSkinnyMmaRingSteps steps x 16 columns x 16 k), two S
// segments (8 rows of kSkinnyMmaSegmentK + 2), half 1's sums (4 groups x 2 x 32 double2) and, in a cluster, the
// block's partial sums (8 rows x 64 columns).
constexpr int64_t kSkinnyMmaRingBytes =
    int64_t(sizeof(double)) * (kSkinnyThreads / 32) * kSkinnyMmaRingSteps * 16 * 16;
constexpr int64_t kSkinnyMmaSmemBytes =
    kSkinnyMmaRingBytes + int64_t(sizeof(double)) * (2 * kSkinnyMaxRows * (kSkinnyMmaSegmentK + 2) +
                                                     4 * 2 * 32 * 2 + kSkinnyMaxRows * kSkinnyColsPerBlock);
// cc 9.x devices allow 227 KB per block (232448 bytes) and 228 KB per SM: two blocks fit.
static_assert(2 * (kSkinnyMmaSmemBytes + 1024) <= 233472, "two tensor-core skinny blocks per SM");
constexpr int64_t skinny_mma_chunk_k(const SkinnyShape& s, int64_t requested, int sm_count) {
  int64_t chunks = requested;
  if (chunks <= 0) {
    const int64_t slots = int64_t(sm_count > 0 ? sm_count : 1) * kSkinnyMmaBlocksPerSm;
    chunks = slots / skinny_blocks_per_chunk(s);
    const int64_t most = s.k / kSkinnyMmaMinChunkK;
    if (chunks > most) chunks = most;
  }
  // No depth limit (S is staged segment by segment): the quantum multiple at or above k bounds it.
  return skinny_chunk_depth(s.k, chunks, (s.k + kSkinnyChunkQuantum - 1) / kSkinnyChunkQuantum * kSkinnyChunkQuantum);
}

// The column-stream route (column_stream.cu): with one or two rows of S and a k-contiguous G, one warp (or a
// few, below) reads each whole column of G and writes its outputs; no k-chunks, no staged S, no partial sums
// across blocks, one kernel. It is
// taken only with automatic chunking (requested 0: explicit chunk counts run the chunked kernel), where
//   - S is compact (s_compact: k-contiguous rows, or its columns dense), so the S every warp re-reads (at most
//     128 KB) stays in L1 and L2; a strided S (a row of a larger matrix, lda > 1) goes through the chunked
//     kernel, which stages it;
//   - kSkinnyStreamMinK <= k and rows x k <= kSkinnyStreamMaxSElems (S within 128 KB): the depths measured;
//   - up to k = kSkinnyStreamDeepK any number of columns: one warp's column (<= 32 KB) takes less time than
//     the chunked kernel's staging and second launch (1x264x4096: 7.3 us against 17.6 at 1x263x4096); deeper,
//     at least kSkinnyStreamDeepWarpsPerSm warps per SM, since one warp streams only ~4-5 GB/s with its 8
//     loads in flight (with one warp per column, 1x264x16384 and 2x528x8192 ran slower than chunked; sharing
//     columns, they now stream with 8 and 4 warps per column, not measured; 1x132x8000 and 2x300x8192,
//     chunked before, measured 2.2 and 1.26-1.29 of cuBLAS streamed).
// Any G: a column that starts 8 bytes past a 16-byte boundary (odd leading dimension) peels its first element.
// Measured back to back against the chunked kernel (H100, bench/results/2026-11-28-h100-column-stream/):
// 1x4096x4096 51 -> 47.6 us, 2x4096x4096 50.3 -> 47.7, 1x8192x8192 182 -> 179; 1x1056x6000 streamed 25.3
// against 27.2 chunked at 1x1055x6000; the cost, 1-1.5% on very wide products (1x30000x3000 239 -> 243 us,
// 1x100000x2048 516 -> 522).
//
// Few columns: several warps share a column (skinny_stream_warps_per_column), each streaming an interleaved
// share of its k (sweep q, q + w, q + 2w, ... of w warps), and the block adds their sums in shared memory in
// warp order. A column's time then shrinks with w (1x1055x6000: 0.0276-0.0289 ms chunked, 0.0227 with 4 warps
// per column; bench/results/2026-11-28-h100-dependent-launch/shared-columns/).
constexpr int kSkinnyStreamMaxRows = 2;
constexpr int kSkinnyStreamWarpsPerBlock = 8;  // kSkinnyThreads threads
constexpr int kSkinnyStreamColsPerBlock = kSkinnyStreamWarpsPerBlock;  // with one warp per column
constexpr int kSkinnyStreamBlocksPerSm = 4;    // __launch_bounds__ minimum: 64 registers
constexpr int64_t kSkinnyStreamMinK = 512;
constexpr int64_t kSkinnyStreamMaxSElems = 16384;
constexpr int64_t kSkinnyStreamDeepK = 4096;
constexpr int kSkinnyStreamDeepWarpsPerSm = 8;
constexpr int kSkinnyStreamMaxWarpsPerColumn = 8;     // a whole block per column
constexpr int64_t kSkinnyStreamMinWarpK = 512;        // k a warp's share keeps at least (one batch of 8 loads)
constexpr int kSkinnyStreamSharedWarpsPerSm = 16;     // columns are shared until this many warps per SM
// Warps per column: 1, or the fewest (a power of two, at most kSkinnyStreamMaxWarpsPerColumn and leaving each
// at least kSkinnyStreamMinWarpK of k) that give kSkinnyStreamSharedWarpsPerSm warps per SM. 1x4096x4096 keeps
// one warp per column (4096 warps, 31 per SM).
constexpr int skinny_stream_max_warps_per_column(const SkinnyShape& s) {
  int w = 1;
  while (w < kSkinnyStreamMaxWarpsPerColumn && s.k / (2 * w) >= kSkinnyStreamMinWarpK) w *= 2;
  return w;
}
constexpr int skinny_stream_warps_per_column(const SkinnyShape& s, int sm_count) {
  const int most = skinny_stream_max_warps_per_column(s);
  const int64_t want = int64_t(kSkinnyStreamSharedWarpsPerSm) * sm_count;
  int w = 1;
  while (w < most && s.cols * w < want) w *= 2;
  return w;
}
// Blocks of the launch for `cols` columns at `warps_per_column` (the launcher's grid and the plan's count).
constexpr int64_t skinny_stream_blocks(int64_t cols, int warps_per_column) {
  const int64_t cols_per_block = kSkinnyStreamWarpsPerBlock / warps_per_column;
  return (cols + cols_per_block - 1) / cols_per_block;
}
constexpr bool skinny_streams_columns(const SkinnyShape& s, int64_t requested_chunks, int sm_count,
                                      bool s_compact) {
  // Deeper than kSkinnyStreamDeepK, at least kSkinnyStreamDeepWarpsPerSm warps per SM with columns shared.
  const int64_t min_warps = s.k > kSkinnyStreamDeepK ? int64_t(kSkinnyStreamDeepWarpsPerSm) * sm_count : 1;
  return requested_chunks == 0 && s.g_k_contiguous && s_compact && s.rows <= kSkinnyStreamMaxRows &&
         s.k >= kSkinnyStreamMinK && s.rows * s.k <= kSkinnyStreamMaxSElems &&
         s.cols * skinny_stream_max_warps_per_column(s) >= min_warps &&
         s.cols / kSkinnyStreamColsPerBlock < int64_t(INT32_MAX);
}

// ---- rules (rules.cpp) ----
tcgemm_status validate_skinny_config(const tcgemm_config& in, const ArgPositions& pos, tcgemm_config* out);
int64_t skinny_config_smem_bytes(const tcgemm_config& resolved);
int skinny_threads(const tcgemm_config& resolved);

// ---- launcher (kernel.cu) ----
// The launcher's route for one call (skinny_streams_columns with the call's pointers and strides); exported
// for the tests.
enum class SkinnyRoute { kChunked, kColumnStream };
SkinnyRoute skinny_route(const GemmProblem& p, const tcgemm_config& cfg, int sm_count);
tcgemm_status launch_skinny(const GemmProblem&, const tcgemm_config&, const DeviceContext&, cudaStream_t);

}  // namespace tcgemm::detail
