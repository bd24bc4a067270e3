// Family wmma_lowp: the article's Example 6 structure (A and B tiles in dynamic shared memory, padded
// leading dimensions, tile_k deep) on the WMMA shapes for 16-bit and TF32 inputs, with BLAS semantics.
//
// A block computes a tile x tile square of C with (tile / 32)^2 warps; each warp owns a 32 x 32 block of it,
// (32 / FM) x (32 / FN) accumulator fragments. Per k-tile the block copies tile x tile_k of op(A) and
// tile_k x tile of op(B) into shared memory, converting nothing (the inputs are stored as they come; TF32
// rounds at fragment load), then each warp walks the k-tile in steps of FK.
//
// Shared-memory layout (rules.hpp, lowp_smem_bytes): op(A) row-major (leading dimension tile_k + pad_a),
// op(B) column-major (tile_k + pad_b), so both are contiguous along k. This makes every fragment pointer
// 32-byte aligned for every shape, which load_matrix_sync requires: a fragment starts at k offset kk (a
// multiple of FK: 32 bytes in every input type) and at row or column offsets that are multiples of 8, times
// a leading dimension of whole 16-byte units. (A column-major A tile would put the 8-row fragments of the
// 8x32x16 shape 16 bytes apart.)
//
// Staging: each thread copies elements with bounds checks, walking the operand's contiguous dimension
// fastest so that a warp's global reads coalesce; elements outside op(A) or op(B) are written as zeros, which
// add nothing to C. This is the simple, always-legal path; the issue's fast path for these precisions is an
// mma.sync kernel with cp.async, not this one.
//
// Epilogue: each warp stores one accumulator fragment at a time into its own scratch in shared memory
// (store_matrix_sync), and its lanes apply C = alpha * acc + beta * C to the elements inside m x n, reading C
// only when beta != 0 and converting to C's type. The fragment's lane mapping stays opaque.
#include <cstdint>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include "core/checked_math.hpp"
#include "core/device.hpp"
#include "core/errors.hpp"
#include "families/lowp_c_element.cuh"
#include "families/wmma_lowp/launch.hpp"
#include "families/wmma_lowp/rules.hpp"

namespace tcgemm::detail {
namespace {

using namespace nvcuda;

constexpr int kWarpThreads = 32;
constexpr int64_t kDefaultDynamicSmemBytes = 48 * 1024;

// The stored element type and the WMMA fragment element type of each input kind.
template <class In>
struct InputTraits;
template <>
struct InputTraits<__half> {
  using Frag = __half;
  static __device__ __forceinline__ __half zero() { return __float2half(0.0f); }
};
template <>
struct InputTraits<__nv_bfloat16> {
  using Frag = __nv_bfloat16;
  static __device__ __forceinline__ __nv_bfloat16 zero() { return __float2bfloat16(0.0f); }
};
template <>
struct InputTraits<float> {  // TF32: stored as float, rounded when a fragment is loaded
  using Frag = wmma::precision::tf32;
  static __device__ __forceinline__ float zero() { return 0.0f; }
};

template <class Acc>
__device__ __forceinline__ float acc_to_float(Acc v);
template <>
__device__ __forceinline__ float acc_to_float<float>(float v) {
  return v;
}
template <>
__device__ __forceinline__ float acc_to_float<__half>(__half v) {
  return __half2float(v);
}


// Copies rows x cols of a column-major `op` view into shared memory. Element (r, c) of op(X), X stored with
// leading dimension ld, is x[r + c * ld] untransposed and x[c + r * ld] transposed. The shared copy has
// element (r, c) at dst[r * rs + c * cs] (row-major A: rs = ld_s, cs = 1; column-major B: rs = 1, cs = ld_s).
// Threads walk the dimension that is contiguous in memory fastest.
template <class In, int kThreads>
__device__ __forceinline__ void stage_tile(In* dst, int rs, int cs, int rows, int cols, const In* x, int64_t ld,
                                           bool trans, int64_t r0, int64_t c0, int64_t r_lim, int64_t c_lim,
                                           int tid) {
  const int total = rows * cols;
#pragma unroll 4
  for (int idx = tid; idx < total; idx += kThreads) {
    // Untransposed: r is contiguous; transposed: c is.
    const int r = trans ? idx / cols : idx % rows;
    const int c = trans ? idx % cols : idx / rows;
    const int64_t gr = r0 + r, gc = c0 + c;
    In v = InputTraits<In>::zero();
    if (gr < r_lim && gc < c_lim) v = trans ? x[gc + gr * ld] : x[gr + gc * ld];
    dst[r * rs + c * cs] = v;
  }
}

template <class In, class Acc, int FM, int FN, int FK, int kTile>
struct LowpShape {
  static_assert(kTile % kLowpWarpTile == 0, "wmma_lowp: tile must be a multiple of the 32 x 32 warp tile");
  static_assert(kLowpWarpTile % FM == 0 && kLowpWarpTile % FN == 0,
                "wmma_lowp: the fragment shape must tile the 32 x 32 warp tile");
  static_assert(FK * sizeof(In) == 32,
                "wmma_lowp: one k step must be 32 bytes of input, so that every fragment pointer stays 32-byte "
                "aligned (load_matrix_sync's rule)");
  static constexpr int kWarpsPerSide = kTile / kLowpWarpTile;
  static constexpr int kThreads = kWarpsPerSide * kWarpsPerSide * kWarpThreads;
  static constexpr int kFragsM = kLowpWarpTile / FM;
  static constexpr int kFragsN = kLowpWarpTile / FN;
  static_assert(kThreads <= 1024, "wmma_lowp: at most 1024 threads per block");
};

template <class In, class Acc, int FM, int FN, int FK, int kTile>
__global__ void __launch_bounds__(LowpShape<In, Acc, FM, FN, FK, kTile>::kThreads)
    wmma_lowp_kernel(const LowpArgs p) {
  using Shape = LowpShape<In, Acc, FM, FN, FK, kTile>;
  using FragIn = typename InputTraits<In>::Frag;
  extern __shared__ __align__(128) unsigned char lowp_smem[];
  In* a_s = reinterpret_cast<In*>(lowp_smem);
  In* b_s = reinterpret_cast<In*>(lowp_smem + p.a_tile_bytes);
  const int lda_s = p.tile_k + p.pad_a, ldb_s = p.tile_k + p.pad_b;
  const int tid = static_cast<int>(threadIdx.x);
  const int warp = tid / kWarpThreads, lane = tid % kWarpThreads;
  const int warp_row = warp % Shape::kWarpsPerSide, warp_col = warp / Shape::kWarpsPerSide;
  Acc* scratch = reinterpret_cast<Acc*>(lowp_smem + p.a_tile_bytes + p.b_tile_bytes) + warp * FM * FN;
  const In* A = static_cast<const In*>(p.A);
  const In* B = static_cast<const In*>(p.B);
  // alpha == 0: A and B are not read (BLAS), so no k-tile is staged and the accumulators stay 0.
  const int64_t k_tiles = p.alpha == 0.0f ? 0 : ceil_div_bounded(p.k, p.tile_k);

  for (int64_t t = blockIdx.x; t < p.total_tiles; t += gridDim.x) {
    const int64_t row0 = (t % p.m_tiles) * kTile, col0 = (t / p.m_tiles) * kTile;
    wmma::fragment<wmma::accumulator, FM, FN, FK, Acc> acc[Shape::kFragsM][Shape::kFragsN];
#pragma unroll
    for (int i = 0; i < Shape::kFragsM; ++i)
#pragma unroll
      for (int j = 0; j < Shape::kFragsN; ++j) wmma::fill_fragment(acc[i][j], Acc(0.0f));

    for (int64_t s = 0; s < k_tiles; ++s) {
      const int64_t k0 = s * p.tile_k;
      __syncthreads();  // every warp is done with the previous k-tile
      stage_tile<In, Shape::kThreads>(a_s, lda_s, 1, kTile, p.tile_k, A, p.lda, p.trans_a, row0, k0, p.m, p.k, tid);
      stage_tile<In, Shape::kThreads>(b_s, 1, ldb_s, p.tile_k, kTile, B, p.ldb, p.trans_b, k0, col0, p.k, p.n, tid);
      __syncthreads();
      // The last k-tile stops at the last k step with data (the rest of it is zeros).
      const int64_t k_left = p.k - k0;
      const int k_steps = static_cast<int>(ceil_div_bounded(k_left < p.tile_k ? k_left : p.tile_k, FK));
      for (int ks = 0; ks < k_steps; ++ks) {
        wmma::fragment<wmma::matrix_a, FM, FN, FK, FragIn, wmma::row_major> a_frag[Shape::kFragsM];
#pragma unroll
        for (int i = 0; i < Shape::kFragsM; ++i) {
          wmma::load_matrix_sync(a_frag[i], a_s + (warp_row * kLowpWarpTile + i * FM) * lda_s + ks * FK, lda_s);
          if constexpr (sizeof(In) == 4) {
            for (int e = 0; e < a_frag[i].num_elements; ++e) a_frag[i].x[e] = wmma::__float_to_tf32(a_frag[i].x[e]);
          }
        }
#pragma unroll
        for (int j = 0; j < Shape::kFragsN; ++j) {
          wmma::fragment<wmma::matrix_b, FM, FN, FK, FragIn, wmma::col_major> b_frag;
          wmma::load_matrix_sync(b_frag, b_s + ks * FK + (warp_col * kLowpWarpTile + j * FN) * ldb_s, ldb_s);
          if constexpr (sizeof(In) == 4) {
            for (int e = 0; e < b_frag.num_elements; ++e) b_frag.x[e] = wmma::__float_to_tf32(b_frag.x[e]);
          }
#pragma unroll
          for (int i = 0; i < Shape::kFragsM; ++i) wmma::mma_sync(acc[i][j], a_frag[i], b_frag, acc[i][j]);
        }
      }
    }

    // Epilogue, one fragment at a time through the warp's scratch (column-major, leading dimension FM).
#pragma unroll
    for (int i = 0; i < Shape::kFragsM; ++i)
#pragma unroll
      for (int j = 0; j < Shape::kFragsN; ++j) {
        wmma::store_matrix_sync(scratch, acc[i][j], FM, wmma::mem_col_major);
        __syncwarp();
        const int64_t fr = row0 + warp_row * kLowpWarpTile + i * FM;
        const int64_t fc = col0 + warp_col * kLowpWarpTile + j * FN;
        for (int e = lane; e < FM * FN; e += kWarpThreads) {
          const int64_t r = fr + e % FM, c = fc + e / FM;
          if (r < p.m && c < p.n) {
            const int64_t at = r + c * p.ldc;
            float v = p.alpha * acc_to_float<Acc>(scratch[e]);
            if (p.beta != 0.0f) v = fmaf(p.beta, load_c_element(p.C, p.c_type, at), v);
            store_c_element(p.C, p.c_type, at, v);
          }
        }
        __syncwarp();  // the scratch is read before the next fragment overwrites it
      }
  }
}

template <class In, class Acc, int FM, int FN, int FK, int kTile>
tcgemm_status launch_instance(const LowpArgs& args, int64_t smem_bytes, const DeviceContext& ctx,
                              cudaStream_t stream) {
  auto* kernel = wmma_lowp_kernel<In, Acc, FM, FN, FK, kTile>;
  if (smem_bytes > kDefaultDynamicSmemBytes)
    TCGEMM_TRY(ensure_dynamic_smem_limit(reinterpret_cast<const void*>(kernel), ctx, "wmma_lowp_kernel"));
  const unsigned grid = lowp_grid(args);
  kernel<<<grid, LowpShape<In, Acc, FM, FN, FK, kTile>::kThreads, static_cast<size_t>(smem_bytes), stream>>>(args);
  TCGEMM_CHECK_LAUNCH("wmma_lowp_kernel");
  return TCGEMM_SUCCESS;
}

template <class In, class Acc, int FM, int FN, int FK>
tcgemm_status launch_tile(const LowpArgs& args, int tile, int64_t smem_bytes, const DeviceContext& ctx,
                          cudaStream_t stream) {
  if (tile == 128) return launch_instance<In, Acc, FM, FN, FK, 128>(args, smem_bytes, ctx, stream);
  return launch_instance<In, Acc, FM, FN, FK, 64>(args, smem_bytes, ctx, stream);
}

template <class In, class Acc>
tcgemm_status launch_shape16(const LowpArgs& args, const tcgemm_wmma_config& r, int64_t smem_bytes,
                             const DeviceContext& ctx, cudaStream_t stream) {
  switch (r.shape) {
    case TCGEMM_WMMA_32x8x16: return launch_tile<In, Acc, 32, 8, 16>(args, r.tile, smem_bytes, ctx, stream);
    case TCGEMM_WMMA_8x32x16: return launch_tile<In, Acc, 8, 32, 16>(args, r.tile, smem_bytes, ctx, stream);
    default: return launch_tile<In, Acc, 16, 16, 16>(args, r.tile, smem_bytes, ctx, stream);
  }
}

}  // namespace

tcgemm_status launch_wmma_lowp(const LowpProblem& pr, const tcgemm_wmma_config& r, const DeviceContext& ctx,
                               cudaStream_t stream) {
  LowpArgs a = lowp_kernel_args(pr, r.tile);
  a.tile_k = r.tile_k;
  a.pad_a = r.pad_a;
  a.pad_b = r.pad_b;
  const int in_bytes = datatype_bytes(pr.input_type);
  a.a_tile_bytes = lowp_a_tile_bytes(r, in_bytes);
  a.b_tile_bytes = lowp_b_tile_bytes(r, in_bytes);
  const int64_t smem = lowp_smem_bytes(r, in_bytes, pr.compute == TCGEMM_TYPE_F16 ? 2 : 4);
  switch (pr.input_type) {
    case TCGEMM_TYPE_F16:
      if (pr.compute == TCGEMM_TYPE_F16) return launch_shape16<__half, __half>(a, r, smem, ctx, stream);
      return launch_shape16<__half, float>(a, r, smem, ctx, stream);
    case TCGEMM_TYPE_BF16: return launch_shape16<__nv_bfloat16, float>(a, r, smem, ctx, stream);
    default: return launch_tile<float, float, 16, 16, 8>(a, r.tile, smem, ctx, stream);
  }
}

}  // namespace tcgemm::detail
