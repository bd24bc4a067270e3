// TF32 packing (tf32_pack.hpp), two kernels:
//  - an operand that is already k-contiguous, 16-byte aligned with a leading dimension of whole 16-byte units,
//    is copied line by line, 16 bytes per thread, no shared memory (tf32_pack_lines_kernel);
//  - any other goes through 32 x 32 tiles in shared memory, so that both the read (along whichever dimension
//    of x is contiguous) and the write (along k) are coalesced; the tile's row pitch of 33 words keeps the
//    transposed accesses free of bank conflicts (tf32_pack_kernel).
#include "families/mma_lowp/tf32_pack.hpp"

#include <cstdint>

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

// One line of x per blockIdx.y (and gridDim.y apart), kLineChunk elements of it per blockIdx.x, four per
// thread: 16-byte loads and stores, no index division. The padding past k is written as zeros.
constexpr int kLineThreads = 256, kLineChunk = 4 * kLineThreads;
constexpr int64_t kMaxGridY = 65535;

__global__ void __launch_bounds__(kLineThreads) tf32_pack_lines_kernel(const float* x, int64_t ld, int64_t k,
                                                                        int64_t lines, int64_t ld_out, float* dst) {
  const int64_t kk = int64_t(blockIdx.x) * kLineChunk + 4 * int64_t(threadIdx.x);
  if (kk >= ld_out) return;
  for (int64_t c = blockIdx.y; c < lines; c += gridDim.y) {
    const float* src = x + c * ld + kk;
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (kk + 4 <= k) {
      v = *reinterpret_cast<const float4*>(src);
    } else {  // the line's last piece: only the elements before k exist
      if (kk < k) v.x = src[0];
      if (kk + 1 < k) v.y = src[1];
      if (kk + 2 < k) v.z = src[2];
    }
    v.x = round_tf32(v.x);
    v.y = round_tf32(v.y);
    v.z = round_tf32(v.z);
    v.w = round_tf32(v.w);
    *reinterpret_cast<float4*>(dst + c * ld_out + kk) = v;
  }
}

}  // namespace

bool tf32_pack_bytes(const LowpProblem& p, int64_t* a_bytes, int64_t* b_bytes) {
  const int64_t ld = tf32_pack_ld(p.k);
  int64_t a = 0, b = 0;
  if (!checked_mul(ld, p.m, &a) || !checked_mul(a, 4, &a)) return false;
  if (!checked_mul(ld, p.n, &b) || !checked_mul(b, 4, &b)) return false;
  int64_t sum = 0;
  if (!checked_add(a, b, &sum)) return false;
  *a_bytes = a;
  *b_bytes = b;
  return true;
}

tcgemm_status launch_tf32_pack(const float* x, int64_t ld, bool k_contiguous, int64_t k, int64_t lines, float* dst,
                               cudaStream_t stream) {
  const int64_t ld_out = tf32_pack_ld(k);
  if (lines == 0 || ld_out == 0) return TCGEMM_SUCCESS;
  // dst is a pool block (aligned) with lines ld_out apart, a multiple of 4 floats.
  if (k_contiguous && reinterpret_cast<uintptr_t>(x) % 16 == 0 && ld % 4 == 0 &&
      ceil_div_nonneg(ld_out, kLineChunk) <= int64_t(2147483647)) {
    const dim3 grid(static_cast<unsigned>(ceil_div_nonneg(ld_out, kLineChunk)),
                    static_cast<unsigned>(lines < kMaxGridY ? lines : kMaxGridY));
    tf32_pack_lines_kernel<<<grid, kLineThreads, 0, stream>>>(x, ld, k, lines, ld_out, dst);
    TCGEMM_CHECK_LAUNCH("tf32_pack_lines_kernel");
    return TCGEMM_SUCCESS;
  }
  const int64_t k_tiles = ceil_div_nonneg(ld_out, kTile), tiles = k_tiles * ceil_div_nonneg(lines, kTile);
  if (tiles == 0) return TCGEMM_SUCCESS;
  const unsigned blocks = static_cast<unsigned>(tiles < kMaxBlocks ? tiles : kMaxBlocks);
  tf32_pack_kernel<<<blocks, dim3(kTile, kRows), 0, stream>>>(x, ld, k_contiguous, k, lines, ld_out, k_tiles, tiles,
                                                              dst);
  TCGEMM_CHECK_LAUNCH("tf32_pack_kernel");
  return TCGEMM_SUCCESS;
}

}  // namespace tcgemm::detail
