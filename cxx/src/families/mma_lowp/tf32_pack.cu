// TF32 packing (tf32_pack.hpp): 32 x 32 tiles through shared memory, so that both the read (along whichever
// dimension of x is contiguous) and the write (along k) are coalesced. The tile's row pitch of 33 words keeps
// the transposed accesses free of bank conflicts.
#include "families/mma_lowp/tf32_pack.hpp"

#include "core/checked_math.hpp"
#include "core/errors.hpp"

namespace tcgemm::detail {
namespace {

constexpr int kTile = 32, kRows = 8;  // block of 32 x 8 threads, each moving 4 elements
constexpr int64_t kMaxBlocks = 65535 * 8;

__device__ __forceinline__ float round_tf32(float v) {
  uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(v));
  return __uint_as_float(r);
}

__global__ void __launch_bounds__(kTile * kRows) tf32_pack_kernel(const float* x, int64_t ld, bool k_contiguous,
                                                                   int64_t k, int64_t lines, int64_t ld_out,
                                                                   int64_t k_tiles, int64_t tiles, float* dst) {
  __shared__ float t[kTile][kTile + 1];  // t[line][k] of the tile
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  for (int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const int64_t k0 = (tile % k_tiles) * kTile, c0 = (tile / k_tiles) * kTile;
#pragma unroll
    for (int r = ty; r < kTile; r += kRows) {
      // Consecutive threads read consecutive addresses: along k when it is contiguous, else along c.
      const int kl = k_contiguous ? tx : r, cl = k_contiguous ? r : tx;
      const int64_t kk = k0 + kl, c = c0 + cl;
      float v = 0.0f;
      if (kk < k && c < lines) v = k_contiguous ? x[kk + c * ld] : x[c + kk * ld];
      t[cl][kl] = v;
    }
    __syncthreads();
#pragma unroll
    for (int r = ty; r < kTile; r += kRows) {
      const int64_t kk = k0 + tx, c = c0 + r;
      if (kk < ld_out && c < lines) dst[kk + c * ld_out] = round_tf32(t[r][tx]);
    }
    __syncthreads();  // the tile is read before the next one overwrites it
  }
}

}  // namespace

bool tf32_pack_bytes(const LowpProblem& p, int64_t* a_bytes, int64_t* b_bytes) {
  const int64_t ld = tf32_pack_ld(p.k);
  int64_t a = 0, b = 0;
  if (!checked_mul(ld, p.m, &a) || !checked_mul(a, 4, &a)) return false;
  if (!checked_mul(ld, p.n, &b) || !checked_mul(b, 4, &b)) return false;
  *a_bytes = a;
  *b_bytes = b;
  return true;
}

tcgemm_status launch_tf32_pack(const float* x, int64_t ld, bool k_contiguous, int64_t k, int64_t lines, float* dst,
                               cudaStream_t stream) {
  const int64_t ld_out = tf32_pack_ld(k);
  const int64_t k_tiles = ceil_div_nonneg(ld_out, kTile), tiles = k_tiles * ceil_div_nonneg(lines, kTile);
  if (tiles == 0) return TCGEMM_SUCCESS;
  const unsigned blocks = static_cast<unsigned>(tiles < kMaxBlocks ? tiles : kMaxBlocks);
  tf32_pack_kernel<<<blocks, dim3(kTile, kRows), 0, stream>>>(x, ld, k_contiguous, k, lines, ld_out, k_tiles, tiles,
                                                              dst);
  TCGEMM_CHECK_LAUNCH("tf32_pack_kernel");
  return TCGEMM_SUCCESS;
}

}  // namespace tcgemm::detail
