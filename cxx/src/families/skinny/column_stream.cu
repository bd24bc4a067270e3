// The skinny family's column-stream kernel (rules.hpp, skinny_streams_columns): C' = alpha S G + beta C' for
// one or two rows of S and a k-contiguous G, each warp reading one whole column of G (all of k) and writing
// its outputs, or, with few columns, 2, 4 or 8 warps of a block sharing one (below). It is a plain stream of
// G: no k-chunks, so no partial sums to add across blocks (no workspace, no cluster, no second kernel) and no
// S staged in shared memory; with one warp per column, no block barrier either. Consecutive warps take
// consecutive columns, so a dense G is read front to back.
//
// Why not the chunked k-contiguous kernel (kernel.cu) here: it stages a 512-deep S chunk per block and adds 8
// chunk sums in a cluster, of which only 30 fit at once at 1x4096x4096 (2 blocks per SM at 112 registers);
// it ran 9% behind a plain stream of the same 134 MB. This kernel keeps 8 independent 16-byte loads in
// flight per lane (4 KB per warp) at 4 blocks (32 warps) per SM: at 1x4096x4096, 47.4-47.8 us back to back
// against the chunked kernel's 50.6-51.7 and cuBLAS's 48.7-49.8 in the same runs; 53.6-54.4 us against
// cuBLAS's 56.2-56.5 after an L2 flush (bench/results/2026-11-28-h100-column-stream/).
//
// S (rows x k, at most kSkinnyStreamMaxSElems doubles = 128 KB) is read with ld.global.nc: every warp reads
// the same S, so after the first warps it is served by L1 and L2 while G bypasses them (ld.global.cs).
// G is k-contiguous here (g_k == 1: skinny_params gives that for every call this route takes).
//
// Few columns (p.stream_warps = w > 1, rules.hpp skinny_stream_warps_per_column): the w warps of a column take
// its sweeps round robin (warp q of the column: sweeps q, q + w, ...), so that they read the column front to
// back together, and the block adds their w sums in shared memory in warp order (the same bits on every run).
#include <cstdint>

#include "families/skinny/params.hpp"
#include "families/skinny/rules.hpp"

namespace tcgemm::detail {
namespace {

constexpr int kWarp = 32;
constexpr int kWarps = kSkinnyThreads / kWarp;
constexpr int kSweep = 2 * kWarp;  // k values a warp covers with one 16-byte load per lane
constexpr int kBatch = 8;          // loads in flight per lane (4 and 16 measured no faster; 16 slower at k = 8192)
static_assert(kWarps == kSkinnyStreamWarpsPerBlock, "the rules' block is this kernel's block");
static_assert(kSkinnyStreamMaxWarpsPerColumn <= kWarps && kWarps % kSkinnyStreamMaxWarpsPerColumn == 0,
              "a shared column's warps are in one block");

// S(i, kk) and S(i, kk + 1).
template <bool kSPairs>
__device__ __forceinline__ double2 s_pair(const SkinnyParams& p, int i, int64_t kk) {
  if constexpr (kSPairs) {
    return __ldg(reinterpret_cast<const double2*>(p.S + i * p.s_row + kk));
  } else {
    const double* s = p.S + i * p.s_row + kk * p.s_k;
    return make_double2(__ldg(s), __ldg(s + p.s_k));
  }
}

// kShared: columns shared by p.stream_warps > 1 warps; without it the instance is the one-warp-per-column
// stream with its strides known at compile time (1x5000x2047 ran 2-4% slower through the shared instance).
template <int kRows, bool kSPairs, bool kShared>
__global__ void __launch_bounds__(kSkinnyThreads, kSkinnyStreamBlocksPerSm)
    skinny_column_stream_kernel(const SkinnyParams p) {
  const int lane = int(threadIdx.x) % kWarp, warp = int(threadIdx.x) / kWarp;
  const int w = kShared ? p.stream_warps : 1;  // warps per column: 1, 2, 4 or 8
  const int part = warp & (w - 1);
  const int64_t col = int64_t(blockIdx.x) * (kWarps / w) + warp / w;
  const bool live = col < p.cols;
  if (!kShared && !live) return;  // whole warps leave; with one warp per column nothing waits for the block
  const double* g = p.G + (live ? col : 0) * p.g_col;
  // 16-byte loads of G: a column that starts 8 bytes past a 16-byte boundary (an odd g_col, or G itself so
  // placed) takes its first element alone, and its pairs start at odd k. (S's pairs then start at odd k too:
  // the launcher sets kSPairs only when every column starts on a boundary.)
  const int head = reinterpret_cast<uintptr_t>(g) % 16 != 0 ? 1 : 0;
  double acc[kRows];
#pragma unroll
  for (int i = 0; i < kRows; ++i) acc[i] = 0.0;
  // This warp's sweeps: part, part + w, ... (stride kSweep w); a dead warp (past the columns) runs none.
  const int64_t stride = int64_t(kSweep) * w;
  int64_t kk = live ? head + 2 * lane + int64_t(kSweep) * part : p.k;
  for (; kk + stride * (kBatch - 1) + 1 < p.k; kk += stride * kBatch) {
    double2 v[kBatch];
#pragma unroll
    for (int b = 0; b < kBatch; ++b) v[b] = __ldcs(reinterpret_cast<const double2*>(g + kk + b * stride));
#pragma unroll
    for (int b = 0; b < kBatch; ++b)
#pragma unroll
      for (int i = 0; i < kRows; ++i) {
        const double2 s = s_pair<kSPairs>(p, i, kk + b * stride);
        acc[i] = fma(s.y, v[b].y, fma(s.x, v[b].x, acc[i]));
      }
  }
  for (; kk + 1 < p.k; kk += stride) {  // the last sweeps, one load at a time
    const double2 v = __ldcs(reinterpret_cast<const double2*>(g + kk));
#pragma unroll
    for (int i = 0; i < kRows; ++i) {
      const double2 s = s_pair<kSPairs>(p, i, kk);
      acc[i] = fma(s.y, v.y, fma(s.x, v.x, acc[i]));
    }
  }
  if (kk < p.k) {  // an odd count after the head: the one lane (of one warp) whose pair starts at k - 1
    const double v = __ldcs(g + kk);
#pragma unroll
    for (int i = 0; i < kRows; ++i) acc[i] = fma(__ldg(p.S + i * p.s_row + kk * p.s_k), v, acc[i]);
  }
  if (head && lane == 0 && part == 0 && live) {
    const double v = __ldcs(g);
#pragma unroll
    for (int i = 0; i < kRows; ++i) acc[i] = fma(__ldg(p.S + i * p.s_row), v, acc[i]);
  }
  // Butterfly sum over the warp (the same expression on every run); lane i writes row i.
#pragma unroll
  for (int i = 0; i < kRows; ++i)
#pragma unroll
    for (int offset = kWarp / 2; offset > 0; offset /= 2) acc[i] += __shfl_xor_sync(0xffffffffu, acc[i], offset);
  double sum = acc[0];
#pragma unroll
  for (int i = 1; i < kRows; ++i)
    if (lane == i) sum = acc[i];
  if constexpr (kShared) {
    // The column's w warp sums, added in warp order by its first warp.
    __shared__ double warp_sums[kWarps][kRows];
    if (lane < kRows) warp_sums[warp][lane] = sum;
    __syncthreads();
    if (part != 0 || !live || lane >= p.rows) return;
    sum = warp_sums[warp][lane];
    for (int q = 1; q < w; ++q) sum += warp_sums[warp + q][lane];
  }
  if (lane < p.rows) {
    double* c = p.C + lane * p.c_row + col * p.c_col;
    *c = p.beta == 0.0 ? p.alpha * sum : fma(p.beta, *c, p.alpha * sum);
  }
}

template <int kRows>
cudaError_t launch_rows(const SkinnyParams& p, bool s_pairs, cudaStream_t stream) {
  const dim3 grid(static_cast<unsigned>(skinny_stream_blocks(p.cols, p.stream_warps)));
  const bool shared = p.stream_warps > 1;
  if (s_pairs && shared) skinny_column_stream_kernel<kRows, true, true><<<grid, kSkinnyThreads, 0, stream>>>(p);
  else if (s_pairs) skinny_column_stream_kernel<kRows, true, false><<<grid, kSkinnyThreads, 0, stream>>>(p);
  else if (shared) skinny_column_stream_kernel<kRows, false, true><<<grid, kSkinnyThreads, 0, stream>>>(p);
  else skinny_column_stream_kernel<kRows, false, false><<<grid, kSkinnyThreads, 0, stream>>>(p);
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_skinny_column_stream(const SkinnyParams& p, bool s_pairs, cudaStream_t stream) {
  static_assert(kSkinnyStreamMaxRows == 2, "instances for 1 and 2 rows");
  // The kernel's part index (warp & (w - 1)) and columns per block need a power of two that divides the block.
  const int w = p.stream_warps;
  if (w < 1 || w > kSkinnyStreamMaxWarpsPerColumn || (w & (w - 1)) != 0) return cudaErrorInvalidValue;
  return p.rows <= 1 ? launch_rows<1>(p, s_pairs, stream) : launch_rows<2>(p, s_pairs, stream);
}

}  // namespace tcgemm::detail
