// Tiled transpose through shared memory (transpose.hpp): both the reads and the writes are coalesced.
#include "families/common/transpose.hpp"

#include "core/errors.hpp"

namespace tcgemm::detail {
namespace {

constexpr int kTile = 32;     // a 32 x 32 tile per block
constexpr int kRowsStep = 8;  // 32 x 8 threads, four elements each
constexpr unsigned kMaxGridY = 65535;

__global__ void __launch_bounds__(kTile * kRowsStep) transpose_kernel(int64_t rows, int64_t cols,
                                                                      const double* __restrict__ src, int64_t ld_src,
                                                                      double* __restrict__ dst, int64_t ld_dst) {
  // One column of padding: the tile's columns, read down in the second phase, fall into different banks
  // (a 33-double pitch is odd in 8-byte words).
  __shared__ double tile[kTile][kTile + 1];
  const int64_t r0 = int64_t(blockIdx.x) * kTile;
  for (int64_t c0 = int64_t(blockIdx.y) * kTile; c0 < cols; c0 += int64_t(gridDim.y) * kTile) {
    // Read: consecutive threads take consecutive rows of one source column.
#pragma unroll
    for (int j = threadIdx.y; j < kTile; j += kRowsStep) {
      const int64_t r = r0 + threadIdx.x, c = c0 + j;
      if (r < rows && c < cols) tile[j][threadIdx.x] = src[c * ld_src + r];
    }
    __syncthreads();
    // Write: consecutive threads take consecutive rows of one destination column (a source row).
#pragma unroll
    for (int j = threadIdx.y; j < kTile; j += kRowsStep) {
      const int64_t c = c0 + threadIdx.x, r = r0 + j;
      if (r < rows && c < cols) dst[r * ld_dst + c] = tile[threadIdx.x][j];
    }
    __syncthreads();
  }
}

}  // namespace

tcgemm_status launch_transpose(int64_t rows, int64_t cols, const double* src, int64_t ld_src, double* dst,
                               int64_t ld_dst, cudaStream_t stream) {
  // The caller bounds rows by the 2^52-byte matrix rule, so rows / 32 fits the grid's x limit (2^31 - 1).
  const int64_t tiles_c = (cols + kTile - 1) / kTile;
  const dim3 grid(static_cast<unsigned>((rows + kTile - 1) / kTile),
                  static_cast<unsigned>(tiles_c < kMaxGridY ? tiles_c : kMaxGridY));
  transpose_kernel<<<grid, dim3(kTile, kRowsStep), 0, stream>>>(rows, cols, src, ld_src, dst, ld_dst);
  TCGEMM_CHECK_LAUNCH("transpose_kernel");
  return TCGEMM_SUCCESS;
}

}  // namespace tcgemm::detail
