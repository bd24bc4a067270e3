// Exact-FP32 SGEMM on the CUDA cores (launch.hpp). A 256-thread block computes a 64 x 64 tile of C, each
// thread a 4 x 4 grid of it spaced 16 apart: a warp's 16 consecutive tx run down a column of C (coalesced
// stores, consecutive words of the A tile) and its two ty read B's words as broadcasts;
// k goes in steps of 16 through two shared tiles, op(A) as [k][row] and op(B) as [k][column], one column of
// padding against bank conflicts on the transposing writes. Elements outside op(A) and op(B) are staged as
// zeros; alpha = 0 reads neither A nor B; beta = 0 never reads C.
#include "families/sgemm_simt/launch.hpp"

#include "core/checked_math.hpp"
#include "core/errors.hpp"

namespace tcgemm::detail {
namespace {

constexpr int kTile = 64, kTileK = 16, kSide = 16, kPer = kTile / kSide, kThreads = kSide * kSide;
static_assert(kPer * kSide == kTile, "sgemm_simt: each thread covers kPer x kPer elements, kSide apart");


__global__ void __launch_bounds__(kThreads) sgemm_simt_kernel(const LowpArgs p) {
  const float* A = static_cast<const float*>(p.A);
  const float* B = static_cast<const float*>(p.B);
  float* C = static_cast<float*>(p.C);
  __shared__ float a_s[kTileK][kTile + 1];
  __shared__ float b_s[kTileK][kTile + 1];
  const int tid = static_cast<int>(threadIdx.x), tx = tid % kSide, ty = tid / kSide;
  const int64_t k_tiles = p.alpha == 0.0f ? 0 : ceil_div_bounded(p.k, kTileK);
  for (int64_t t = blockIdx.x; t < p.total_tiles; t += gridDim.x) {
    const int64_t row0 = (t % p.m_tiles) * kTile, col0 = (t / p.m_tiles) * kTile;
    float acc[kPer][kPer] = {};
    for (int64_t s = 0; s < k_tiles; ++s) {
      const int64_t k0 = s * kTileK;
      __syncthreads();
      for (int idx = tid; idx < kTile * kTileK; idx += kThreads) {
        // op(A)(row0 + r, k0 + kk): untransposed A is contiguous along r, transposed along kk.
        const int r = p.trans_a ? idx / kTileK : idx % kTile, kk = p.trans_a ? idx % kTileK : idx / kTile;
        const int64_t gr = row0 + r, gk = k0 + kk;
        a_s[kk][r] = gr < p.m && gk < p.k ? (p.trans_a ? A[gk + gr * p.lda] : A[gr + gk * p.lda]) : 0.0f;
        // op(B)(k0 + kb, col0 + c): untransposed B is contiguous along kb, transposed along c.
        const int kb = p.trans_b ? idx / kTile : idx % kTileK, c = p.trans_b ? idx % kTile : idx / kTileK;
        const int64_t bk = k0 + kb, bc = col0 + c;
        b_s[kb][c] = bk < p.k && bc < p.n ? (p.trans_b ? B[bc + bk * p.ldb] : B[bk + bc * p.ldb]) : 0.0f;
      }
      __syncthreads();
#pragma unroll
      for (int kk = 0; kk < kTileK; ++kk) {
        float a[kPer], b[kPer];
#pragma unroll
        for (int i = 0; i < kPer; ++i) a[i] = a_s[kk][tx + i * kSide];
#pragma unroll
        for (int j = 0; j < kPer; ++j) b[j] = b_s[kk][ty + j * kSide];
#pragma unroll
        for (int i = 0; i < kPer; ++i)
#pragma unroll
          for (int j = 0; j < kPer; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
      }
    }
#pragma unroll
    for (int i = 0; i < kPer; ++i)
#pragma unroll
      for (int j = 0; j < kPer; ++j) {
        const int64_t r = row0 + tx + i * kSide, c = col0 + ty + j * kSide;  // lanes along a column of C
        if (r < p.m && c < p.n) {
          float* dst = C + r + c * p.ldc;
          const float v = p.alpha * acc[i][j];
          *dst = p.beta == 0.0f ? v : fmaf(p.beta, *dst, v);
        }
      }
  }
}

}  // namespace

tcgemm_status launch_sgemm_simt(const LowpProblem& pr, cudaStream_t stream) {
  const LowpArgs a = lowp_kernel_args(pr, kTile);
  const unsigned grid = lowp_grid(a);
  sgemm_simt_kernel<<<grid, kThreads, 0, stream>>>(a);
  TCGEMM_CHECK_LAUNCH("sgemm_simt_kernel");
  return TCGEMM_SUCCESS;
}

}  // namespace tcgemm::detail
