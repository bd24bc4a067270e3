// Family skinny (rules.hpp), 5 to 8 rows over a k-contiguous G on the FP64 tensor cores (sm_90,
// mma.m16n8k16.f64): C'^T = G^T S^T, with G^T as the MMA's 16-row A operand (16 columns of G) and S^T as its
// 8-column B operand (the rows of S, zero past p.rows). For 16 k of 16 columns the CUDA-core kernel (kernel.cu)
// spends 64 FMAs per lane, shared loads of S for every pair of columns and a warp reduction per column; this one
// issues one MMA. The product is a stream of G: the kernel is built to keep as many of G's bytes in flight as
// an SM holds.
//
// Fragments. An MMA's k slots may stand for any k values as long as both operands use the same ones: lane
// (g, t) (lane = 4 g + t) holds k = 16 step + 4 t + w in slot w (w = 0..3), so its G values of a column are
// 32 contiguous bytes (two 16-byte shared loads) and its S values two conflict-free 16-byte shared loads of row
// g (kMmaSPitch puts rows g and g + 1 of a quarter warp 16 bytes apart modulo 128). The accumulator holds
// columns g, g + 8 by rows 2 t, 2 t + 1.
//
// G through shared memory. Each warp copies its own 16 columns with cp.async into a ring of kMmaRing steps
// (16 columns x 16 k each): 4 steps, 64 KB per block, in flight without holding a register. The first form of
// the kernel loaded G into registers (two 16-byte loads per column and step, two steps double-buffered): at 128
// registers it kept 32 KB per block in flight and streamed 8 x 8192 x 8192 at 3.47 TB/s under ncu, 72% of the
// H200's DRAM peak (cuBLAS 3.90, 81%); 0.96 of cuBLAS. The ring streams it at 87% (1.01-1.05 of cuBLAS).
// Each copy instruction takes whole 32-byte sectors (4 columns x 128 contiguous bytes): copies of each lane's
// own fragments (16 bytes of every other 16) read each sector twice from L2 past L1 (cp.async.cg) and ran at 0.48
// of cuBLAS (bench/results/2026-11-28-h200-skinny-ring/lane-copies-withdrawn/).
//
// S through shared memory, kMmaSegmentK of k at a time in two buffers: the next segment's copies go out with
// the first step of the current one and land before the segment after it starts. A block's chunk of k may
// therefore be as deep as k itself (skinny_mma_chunk_k: as many chunks as fill the SMs' slots once), where the
// first form staged all of a chunk's S at once and was held to 512-deep chunks, 2048 short blocks at 8 x 8192 x
// 8192.
//
// Work. The block's 64 columns (kSkinnyColsPerBlock: the chunk and cluster rules' unit) are 4 groups of 16, each
// taken by 2 warps that take alternate 16-k steps of the chunk; the halves are added in shared memory in a fixed
// order (half 0 + half 1), so results are the same bit for bit from run to run. G's columns start 16-byte
// aligned (skinny_on_tensor_cores); odd leading dimensions keep the CUDA-core kernel's 8-byte loads.
#include "families/skinny/params.hpp"

#include "arch/cp_async_sm80.cuh"
#include "arch/dependent_launch_sm90.cuh"
#include "arch/mma_sm90.cuh"
#include "core/device.hpp"
#include "core/errors.hpp"
#include "families/skinny/chunk_common.cuh"

namespace tcgemm::detail {
namespace {

using namespace skinny_chunked;

constexpr int kMmaStepK = 16;         // k of one mma.m16n8k16
constexpr int kMmaColsPerWarp = 16;   // the MMA's 16 rows
constexpr int kMmaGroups = kSkinnyColsPerBlock / kMmaColsPerWarp;
constexpr int kMmaHalves = kWarps / kMmaGroups;
constexpr int kMmaRing = kSkinnyMmaRingSteps;
constexpr int kMmaCopies = 4;         // 16-byte copies of G per lane and step (16 columns x 128 bytes per warp)
constexpr int kSlotDoubles = kMmaColsPerWarp * kMmaStepK;  // one step of a warp's G in its ring
constexpr int kMmaSegmentK = kSkinnyMmaSegmentK;
constexpr int kMmaSegmentSteps = kMmaSegmentK / (kMmaStepK * kMmaHalves);  // a warp's steps per segment
constexpr int kMmaSPitch = kMmaSegmentK + 2;
constexpr int kMmaSPerThread = kSkinnyMaxRows * kMmaSegmentK / kSkinnyThreads;
static_assert(kSkinnyMaxRows == 8, "S^T is the MMA's 8-column operand");
static_assert(kMmaGroups * kMmaHalves == kWarps && kMmaHalves == 2, "warps: column groups x two k halves");
static_assert(kMmaSegmentK % (kMmaStepK * kMmaHalves) == 0, "whole steps of both halves per segment");
static_assert(kMmaSPerThread * kSkinnyThreads == kSkinnyMaxRows * kMmaSegmentK, "S in equal shares per thread");
static_assert(kSkinnyChunkQuantum % (kMmaStepK * kMmaHalves) == 0, "chunks start on a step: 16-byte aligned k");
static_assert(kMmaSPitch % 16 == 2, "S rows 16 bytes apart modulo 128: conflict-free fragment reads");
// The next segment's S goes out with the copies of the segment's first step, which complete kMmaRing - 1 steps
// later: no later than the next segment's first step.
static_assert(kMmaRing - 1 <= kMmaSegmentSteps, "S of the next segment lands before it is read");
static_assert(kMmaRing - 2 <= arch::kWaitPendingMax, "cp.async.wait_group's count");
static_assert(kMmaCopies * kWarp * 16 == kSlotDoubles * int(sizeof(double)), "a warp's copies fill its step's slot");

template <bool kCluster>
__global__ void __launch_bounds__(kSkinnyThreads, 2) skinny_k_contiguous_mma_kernel(const SkinnyParams p) {
#if __CUDA_ARCH__ >= 900
  if (p.reduction_follows) arch::launch_dependents();
  // G: each warp's ring of kMmaRing steps (dynamic shared memory, kSkinnyMmaRingBytes).
  extern __shared__ __align__(16) double2 g_ring[];
  // S a segment at a time, two segments: the next one lands while this one is read.
  __shared__ __align__(16) double s_sm[2][kSkinnyMaxRows * kMmaSPitch];
  __shared__ double2 half_sum[kMmaGroups][2][kWarp];  // half 1's sums, [column half][lane]: 16-byte rows
  __shared__ double part[kCluster ? kSkinnyMaxRows * kSkinnyColsPerBlock : 1];
  const int64_t k0 = int64_t(blockIdx.y) * p.chunk_k;
  const int len = int((p.k - k0) < p.chunk_k ? (p.k - k0) : p.chunk_k);
  const int tid = int(threadIdx.x), lane = tid % kWarp, warp = tid / kWarp;
  const int g = lane / 4, t = lane % 4;
  const int group = warp % kMmaGroups, half = warp / kMmaGroups;
  const int64_t base = int64_t(blockIdx.x) * kSkinnyColsPerBlock + group * kMmaColsPerWarp;
  // The halves take alternate steps: the warp's step i is the chunk's k = 32 i + 16 half.
  const int steps = (len + kMmaStepK * kMmaHalves - 1) / (kMmaStepK * kMmaHalves);  // the same for every warp
  const int segments = (len + kMmaSegmentK - 1) / kMmaSegmentK;
  const int lane_k = half * kMmaStepK + 4 * t;  // the lane's slots: k = 32 i + lane_k + w
  const bool in_cols[2] = {base + g < p.cols, base + g + 8 < p.cols};
  // The warp's ring: kMmaRing slots of kMmaColsPerWarp columns x kMmaStepK doubles (128 bytes per column).
  // Copy instruction m of a step: lane l takes 16 bytes, piece l % 8 of column 4 m + l / 8, so that each
  // instruction reads whole 32-byte sectors (4 columns x 128 contiguous bytes); the lanes then read each other's
  // copies (cp.async.wait_group, then __syncwarp). Piece kp of column col sits at kp ^ (col & 1) of the column's
  // 128 bytes: the fragment reads (columns g and g + 1 of a quarter warp, 128 bytes apart) are conflict-free.
  double* const warp_ring = reinterpret_cast<double*>(g_ring) + warp * kMmaRing * kSlotDoubles;
  const int copy_piece = lane % 8, copy_col = lane / 8;
  const double* gsrc[kMmaCopies];
  bool copy_in[kMmaCopies];
#pragma unroll
  for (int m = 0; m < kMmaCopies; ++m) {
    const int64_t col = base + 4 * m + copy_col;
    copy_in[m] = col < p.cols;
    gsrc[m] = p.G + (copy_in[m] ? col : 0) * p.g_col + k0 + half * kMmaStepK + 2 * copy_piece;
  }
  // Step i of G (the chunk's k = 32 i + 16 half + 0..15), zero past the chunk and the columns.
  auto copy_g = [&](int i) {
    double* slot = warp_ring + (i % kMmaRing) * kSlotDoubles;
    const int left = len - (kMmaStepK * kMmaHalves * i + half * kMmaStepK + 2 * copy_piece);
#pragma unroll
    for (int m = 0; m < kMmaCopies; ++m) {
      const int col = 4 * m + copy_col;
      const int bytes = copy_in[m] ? (left >= 2 ? 16 : (left == 1 ? 8 : 0)) : 0;
      arch::cp_async_zfill<16, arch::Clobber::kMemory>(
          arch::smem_address(slot + col * kMmaStepK + 2 * (copy_piece ^ (col & 1))),
          bytes > 0 ? gsrc[m] + kMmaStepK * kMmaHalves * i : p.G, bytes);
    }
  };
  // Segment j of S: this thread's kMmaSPerThread elements, consecutive idx along S's contiguous direction, zero
  // past the rows and the chunk (8-byte copies: S may be strided or transposed on its way in).
  auto copy_s = [&](int j) {
#pragma unroll
    for (int e = 0; e < kMmaSPerThread; ++e) {
      const int idx = tid + kSkinnyThreads * e;
      int i, kk;
      if (p.s_k == 1) {
        i = idx / kMmaSegmentK;
        kk = idx % kMmaSegmentK;
      } else {
        kk = idx / kSkinnyMaxRows;
        i = idx % kSkinnyMaxRows;
      }
      const int kc = j * kMmaSegmentK + kk;
      const bool in = i < p.rows && kc < len;
      arch::cp_async_zfill<8, arch::Clobber::kMemory>(arch::smem_address(&s_sm[j & 1][i * kMmaSPitch + kk]),
                                                      in ? p.S + i * p.s_row + (k0 + kc) * p.s_k : p.S, in ? 8 : 0);
    }
  };
  // Prologue: S's first segment with G's first step, then steps up to kMmaRing - 2, one group each.
  copy_s(0);
#pragma unroll
  for (int i = 0; i < kMmaRing - 1; ++i) {
    if (i < steps) copy_g(i);
    arch::cp_async_commit<arch::Clobber::kMemory>();
  }
  double d[4] = {0.0, 0.0, 0.0, 0.0};
  for (int i = 0; i < steps; ++i) {
    // Step i's group is done when at most kMmaRing - 2 younger ones are pending. After the warp's barrier every
    // lane's copies of step i are visible to the warp, and every lane is done reading step i - 1, whose slot
    // the copies of step i + kMmaRing - 1 take.
    arch::cp_async_wait<kMmaRing - 2>();
    const int j = i / kMmaSegmentSteps;
    if (i % kMmaSegmentSteps == 0) {
      // Segment j has landed for every thread, and nobody reads segment j - 1 again: its buffer takes j + 1.
      __syncthreads();
      if (j + 1 < segments) copy_s(j + 1);
    } else {
      __syncwarp();
    }
    if (i + kMmaRing - 1 < steps) copy_g(i + kMmaRing - 1);
    arch::cp_async_commit<arch::Clobber::kMemory>();
    const double* slot = warp_ring + (i % kMmaRing) * kSlotDoubles;
    double a[8];
#pragma unroll
    for (int c = 0; c < 2; ++c)
#pragma unroll
      for (int q = 0; q < 2; ++q) {  // slots w = 2 q, 2 q + 1 of column g + 8 c: piece 2 t + q
        const int col = g + 8 * c;
        const double2 x = *reinterpret_cast<const double2*>(slot + col * kMmaStepK + 2 * ((2 * t + q) ^ (col & 1)));
        a[2 * (2 * q) + c] = x.x;  // a[2 w + c]: column c (the A row g + 8 c), slot w
        a[2 * (2 * q + 1) + c] = x.y;
      }
    const double* srow = s_sm[j & 1] + g * kMmaSPitch + (i % kMmaSegmentSteps) * (kMmaStepK * kMmaHalves) + lane_k;
    const double2 b01 = *reinterpret_cast<const double2*>(srow);
    const double2 b23 = *reinterpret_cast<const double2*>(srow + 2);
    const double b[4] = {b01.x, b01.y, b23.x, b23.y};
    arch::Mma<16>::run(d, a, b);
  }
  arch::cp_async_wait<0>();
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

static_assert(int64_t(sizeof(double)) * kWarps * kMmaRing * kSlotDoubles == kSkinnyMmaRingBytes,
              "the ring rules.hpp counts (kSkinnyMmaSmemBytes)");
static_assert(kMmaSPitch == kSkinnyMmaSegmentK + 2 && kMmaGroups == 4, "the S segments and sums rules.hpp counts");

tcgemm_status launch_skinny_k_contiguous_mma(const SkinnyParams& p, bool cluster, dim3 grid, const DeviceContext& ctx,
                                             cudaStream_t stream) {
  void (*kernel)(SkinnyParams) = cluster ? skinny_k_contiguous_mma_kernel<true> : skinny_k_contiguous_mma_kernel<false>;
  TCGEMM_TRY(ensure_dynamic_smem_limit(reinterpret_cast<const void*>(kernel), ctx, "skinny tensor-core kernel"));
  const cudaError_t e = launch_kernel(kernel, p, grid, cluster, stream, size_t(kSkinnyMmaRingBytes));
  return e == cudaSuccess ? TCGEMM_SUCCESS
                          : set_cuda_error(e, cluster ? "launch of the skinny tensor-core kernel (cluster reduction)"
                                                      : "launch of the skinny tensor-core kernel");
}

}  // namespace tcgemm::detail
