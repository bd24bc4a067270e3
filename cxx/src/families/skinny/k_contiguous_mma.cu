// Family skinny (rules.hpp), 5 to 8 rows over a k-contiguous G on the FP64 tensor cores (sm_90,
// mma.m16n8k16.f64): C'^T = G^T S^T, with G^T as the MMA's 16-row A operand (16 columns of G) and S^T as its
// 8-column B operand (the rows of S, zero past p.rows). For 16 k of 16 columns the CUDA-core kernel (kernel.cu)
// spends 64 FMAs per lane, shared loads of S for every pair of columns and a warp reduction per column; this one
// issues one MMA, and its registers go to loads in flight instead. 8 x 8192 x 8192 'N','N' (H100, against cuBLAS
// in the same process): 0.202 -> 0.190 ms, ratio 0.96 -> 1.02 (bench/results/2026-11-28-h100-skinny-mma/).
//
// Fragments. An MMA's k slots may stand for any k values as long as both operands use the same ones: lane
// (g, t) (lane = 4 g + t) holds k = 16 step + 4 t + w in slot w (w = 0..3), so its G registers are two 16-byte
// loads from each of its two columns (base + g, base + g + 8), issued back to back, which together cover the
// column's 128 contiguous bytes of the step (each load alone takes 16 bytes of every 32-byte sector); its S
// registers are two 16-byte shared loads of row g, conflict-free because kSRowPitch puts rows g and g + 1 of a
// quarter warp 16 bytes apart modulo 128. The accumulator holds columns g, g + 8 by rows 2 t, 2 t + 1.
// Measured and not kept: slots w = 2 q + e at k = 8 q + 2 t + e (each load 64 contiguous bytes of the column, S
// rows 64 bytes apart modulo 128): 3-5% slower (8 x 8192 x 8192 'N','N' 1.03 -> 0.98 of cuBLAS).
//
// Work. The block's 64 columns (kSkinnyColsPerBlock, so the chunk and cluster rules are the CUDA-core
// kernels') are 4 groups of 16, each taken by 2 warps that split the chunk's 16-k steps into halves; the
// halves are added in shared memory in a fixed order (half 0 + half 1), so results are the same bit for bit
// from run to run. Loads go out kMmaStageSteps steps at a time, double-buffered: with 4 steps ptxas spilled at
// 128 registers; with 1 step at 80 registers and 3 blocks per SM, 8 x 8192 x 8192 ran at 0.95 of cuBLAS
// instead of 1.02. G's columns start 16-byte aligned (skinny_on_tensor_cores): read 8 bytes at a time, 7 x 3000
// x 33333 and 8 x 8191 x 8191 (odd leading dimensions) measured 1% slower than the CUDA-core kernel.
#include "families/skinny/params.hpp"

#include "arch/dependent_launch_sm90.cuh"
#include "arch/mma_sm90.cuh"
#include "families/skinny/chunk_common.cuh"

namespace tcgemm::detail {
namespace {

using namespace skinny_chunked;

constexpr int kMmaStepK = 16;         // k of one mma.m16n8k16
constexpr int kMmaColsPerWarp = 16;   // the MMA's 16 rows
constexpr int kMmaGroups = kSkinnyColsPerBlock / kMmaColsPerWarp;
constexpr int kMmaHalves = kWarps / kMmaGroups;
constexpr int kMmaStageSteps = 2;     // steps whose loads go out together; two stages in flight
static_assert(kSkinnyMaxRows == 8, "S^T is the MMA's 8-column operand");
static_assert(kMmaGroups * kMmaHalves == kWarps && kMmaHalves == 2, "warps: column groups x two k halves");
static_assert(kSkinnyMaxChunkK % (kMmaStepK * kMmaHalves * kMmaStageSteps) == 0, "whole stages per half");
static_assert(kSkinnyChunkQuantum % kMmaStepK == 0, "chunks start on a step: 16-byte aligned k");
static_assert(kSRowPitch % 16 == 2, "S rows 16 bytes apart modulo 128: conflict-free fragment reads");

template <bool kCluster>
__global__ void __launch_bounds__(kSkinnyThreads, 2) skinny_k_contiguous_mma_kernel(const SkinnyParams p) {
#if __CUDA_ARCH__ >= 900
  if (p.reduction_follows) arch::launch_dependents();
  __shared__ __align__(16) double s_sm[kSkinnyMaxRows * kSRowPitch];
  __shared__ double2 half_sum[kMmaGroups][2][kWarp];  // half 1's sums, [column half][lane]: 16-byte rows
  __shared__ double part[kCluster ? kSkinnyMaxRows * kSkinnyColsPerBlock : 1];
  const int64_t k0 = int64_t(blockIdx.y) * p.chunk_k;
  const int len = int((p.k - k0) < p.chunk_k ? (p.k - k0) : p.chunk_k);
  const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  const int g = lane / 4, t = lane % 4;
  // k offset (in a 16-k step) of lane t's 16-byte load q (q = 0, 1), which fills its slots 2 q and 2 q + 1.
  auto slot_pair_k = [](int lane_t, int q) { return 4 * lane_t + 2 * q; };
  const int group = warp % kMmaGroups, half = warp / kMmaGroups;
  const int64_t base = int64_t(blockIdx.x) * kSkinnyColsPerBlock + group * kMmaColsPerWarp;
  const int steps = (len + kMmaStepK - 1) / kMmaStepK;
  const int half_steps = (steps + kMmaHalves - 1) / kMmaHalves;
  const int s_begin = half * half_steps;
  const int my_steps = min(steps - s_begin, half_steps);
  // The lane's two columns, base + g and base + g + 8.
  const bool in_cols[2] = {base + g < p.cols, base + g + 8 < p.cols};
  const double* gcol[2] = {p.G + (base + g) * p.g_col + k0, p.G + (base + g + 8) * p.g_col + k0};
  constexpr int kMaxStages = kSkinnyMaxChunkK / (kMmaStepK * kMmaHalves * kMmaStageSteps);
  // v[u][c][w]: G(k, column c) of stage step u in slot w: k = 16 step + slot_pair_k(t, w / 2) + w % 2.
  auto load_stage = [&](int st, double (&v)[kMmaStageSteps][2][4]) {
#pragma unroll
    for (int u = 0; u < kMmaStageSteps; ++u) {
      const int s = st * kMmaStageSteps + u;
      const int k_step = (s_begin + s) * kMmaStepK;
#pragma unroll
      for (int c = 0; c < 2; ++c)
#pragma unroll
        for (int q = 0; q < 2; ++q) {
          const int kk = k_step + slot_pair_k(t, q);
          double2 x = make_double2(0.0, 0.0);
          if (in_cols[c] && s < my_steps) {
            if (kk + 1 < len) x = __ldcs(reinterpret_cast<const double2*>(gcol[c] + kk));
            else if (kk < len) x.x = __ldcs(gcol[c] + kk);
          }
          v[u][c][2 * q] = x.x;
          v[u][c][2 * q + 1] = x.y;
        }
    }
  };
  double cur[kMmaStageSteps][2][4], nxt[kMmaStageSteps][2][4];
  load_stage(0, cur);
  // Batched staging for an S stored by columns (dense or strided), not for k-contiguous rows (chunk_common.cuh).
  if (p.s_k == 1) stage_s<kSkinnyMaxRows, true, false>(p, k0, len, s_sm);
  else stage_s<kSkinnyMaxRows, true, true>(p, k0, len, s_sm);
  __syncthreads();
  double d[4] = {0.0, 0.0, 0.0, 0.0};
#pragma unroll
  for (int st = 0; st < kMaxStages; ++st) {
    if (st * kMmaStageSteps >= my_steps) break;
    if ((st + 1) * kMmaStageSteps < my_steps) load_stage(st + 1, nxt);
#pragma unroll
    for (int u = 0; u < kMmaStageSteps; ++u) {
      const int s = st * kMmaStageSteps + u;
      if (s >= my_steps) break;
      const double* srow = s_sm + g * kSRowPitch + (s_begin + s) * kMmaStepK;
      const double2 b01 = *reinterpret_cast<const double2*>(srow + slot_pair_k(t, 0));
      const double2 b23 = *reinterpret_cast<const double2*>(srow + slot_pair_k(t, 1));
      const double b[4] = {b01.x, b01.y, b23.x, b23.y};
      double a[8];
#pragma unroll
      for (int r = 0; r < 8; ++r) a[r] = cur[u][r & 1][r >> 1];
      arch::Mma<16>::run(d, a, b);
    }
    if ((st + 1) * kMmaStageSteps >= my_steps) break;
#pragma unroll
    for (int u = 0; u < kMmaStageSteps; ++u)
#pragma unroll
      for (int c = 0; c < 2; ++c)
#pragma unroll
        for (int w = 0; w < 4; ++w) cur[u][c][w] = nxt[u][c][w];
  }
  // d[2 h + e] = sum of G column base + g + 8 h times S row 2 t + e. Half 1 hands its sums to half 0.
  if (half == 1) {
    half_sum[group][0][lane] = make_double2(d[0], d[1]);
    half_sum[group][1][lane] = make_double2(d[2], d[3]);
  }
  __syncthreads();
  if (half == 0) {
    const double2 o0 = half_sum[group][0][lane], o1 = half_sum[group][1][lane];
    d[0] += o0.x;
    d[1] += o0.y;
    d[2] += o1.x;
    d[3] += o1.y;
#pragma unroll
    for (int h = 0; h < 2; ++h)
#pragma unroll
      for (int e = 0; e < 2; ++e) {
        const int row = 2 * t + e;
        const int c = group * kMmaColsPerWarp + g + 8 * h;
        if (row >= p.rows || !in_cols[h]) continue;
        if constexpr (kCluster) part[row * kSkinnyColsPerBlock + c] = d[2 * h + e];
        else store_out(p, row, int64_t(blockIdx.x) * kSkinnyColsPerBlock + c, d[2 * h + e]);
      }
  }
  if constexpr (kCluster) cluster_add_and_store<kSkinnyMaxRows>(p, part, int64_t(blockIdx.x) * kSkinnyColsPerBlock);
#else
  __trap();  // launched only where the build's sm_90 code runs
#endif
}

}  // namespace

cudaError_t launch_skinny_k_contiguous_mma(const SkinnyParams& p, bool cluster, dim3 grid, cudaStream_t stream) {
  return launch_kernel(cluster ? skinny_k_contiguous_mma_kernel<true> : skinny_k_contiguous_mma_kernel<false>, p,
                       grid, cluster, stream);
}

}  // namespace tcgemm::detail
