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
// Staging: both shared tiles hold their operand k-contiguous, element (o, k) at dst[o * ld_s + k] (o is m
// for A, n for B). Where A and B allow 16-byte reads (LowpArgs::vec_a/vec_b) a thread moves whole 16-byte
// pieces of E = 16 / sizeof(In) elements: an operand that is k-contiguous in memory too (A transposed, B not)
// goes piece for piece; one that is m- or n-contiguous (A untransposed, B transposed) goes in E x E blocks,
// E pieces along o read from E consecutive k columns and transposed in registers into E pieces along k, so
// both the global reads and the shared writes stay 16 bytes wide. Pieces or blocks that cross the edge of
// op(A) or op(B), and operands without 16-byte reads, are staged element by element with bounds checks.
// Elements outside op(A) or op(B) are written as zeros, which add nothing to C.
//
// Epilogue: each warp stores one accumulator fragment at a time into its own scratch in shared memory
// (store_matrix_sync), and its lanes apply C = alpha * acc + beta * C to the elements inside m x n, reading C
// only when beta != 0 and converting to C's type. The fragment's lane mapping stays opaque.
#include <cstdint>
#include <cstring>
#include <type_traits>

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

// The WMMA fragment element type of each input kind.
template <class In>
struct InputTraits;
template <>
struct InputTraits<__half> {
  using Frag = __half;
};
template <>
struct InputTraits<__nv_bfloat16> {
  using Frag = __nv_bfloat16;
};
template <>
struct InputTraits<float> {  // TF32: stored as float, rounded when a fragment is loaded
  using Frag = wmma::precision::tf32;
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


// The bits of one element: staging moves raw bits (all-zero bits are +0 in every input type).
template <class In>
using ElemBits = typename std::conditional<sizeof(In) == 2, uint16_t, uint32_t>::type;

// Element (o, k) of an operand whose tile is being staged: x[k + o * ld] when k-contiguous, else x[o + k * ld].
struct StageSource {
  const void* x;
  int64_t ld;
  bool k_contiguous;
  int64_t o0, k0;        // the tile's first element
  int64_t o_lim, k_lim;  // the operand's extent (m or n, k)
};

template <class Bits>
__device__ __forceinline__ Bits element_or_zero(const StageSource& s, int o, int k) {
  const int64_t go = s.o0 + o, gk = s.k0 + k;
  if (go >= s.o_lim || gk >= s.k_lim) return Bits(0);
  const Bits* x = static_cast<const Bits*>(s.x);
  return s.k_contiguous ? x[gk + go * s.ld] : x[go + gk * s.ld];
}

// One E-element piece along k at (o, k), element by element (edges, unaligned operands).
template <class Bits, int E>
__device__ __forceinline__ void stage_piece_scalar(Bits* dst, int ld_s, const StageSource& s, int o, int k) {
#pragma unroll
  for (int e = 0; e < E; ++e) dst[o * ld_s + k + e] = element_or_zero<Bits>(s, o, k + e);
}

// The tile_o x tile_k tile of s into dst (element (o, k) at dst[o * ld_s + k]) by `threads` threads.
template <class In, int kThreads>
__device__ __forceinline__ void stage_tile(ElemBits<In>* dst, int ld_s, int tile_o, int tile_k,
                                           const StageSource& s, bool vec, int tid) {
  using Bits = ElemBits<In>;
  constexpr int E = 16 / int(sizeof(In));
  const int k_pieces = tile_k / E;  // tile_k is a multiple of the shape's k, itself a multiple of E
  if (!vec) {
    for (int u = tid; u < tile_o * k_pieces; u += kThreads)
      stage_piece_scalar<Bits, E>(dst, ld_s, s, u / k_pieces, (u % k_pieces) * E);
    return;
  }
  const Bits* x = static_cast<const Bits*>(s.x);
  if (s.k_contiguous) {
    // Consecutive threads take consecutive pieces of one row: a warp reads whole 16-byte runs of a column.
    for (int u = tid; u < tile_o * k_pieces; u += kThreads) {
      const int o = u / k_pieces, k = (u % k_pieces) * E;
      const int64_t go = s.o0 + o, gk = s.k0 + k;
      if (go < s.o_lim && gk + E <= s.k_lim)
        *reinterpret_cast<uint4*>(dst + o * ld_s + k) = __ldg(reinterpret_cast<const uint4*>(x + gk + go * s.ld));
      else
        stage_piece_scalar<Bits, E>(dst, ld_s, s, o, k);
    }
    return;
  }
  // o-contiguous: E x E blocks. Consecutive threads take consecutive blocks down o, so a warp's reads of one
  // k column are contiguous.
  const int o_blocks = tile_o / E;
  for (int u = tid; u < o_blocks * k_pieces; u += kThreads) {
    const int o = (u % o_blocks) * E, k = (u / o_blocks) * E;
    const int64_t go = s.o0 + o, gk = s.k0 + k;
    if (go + E <= s.o_lim && gk + E <= s.k_lim) {
      // col[j]: the piece of column k + j, rows o .. o + E - 1, as four 32-bit words.
      uint32_t col[E][4];
#pragma unroll
      for (int j = 0; j < E; ++j) {
        const uint4 piece = __ldg(reinterpret_cast<const uint4*>(x + go + (gk + j) * s.ld));
        col[j][0] = piece.x;
        col[j][1] = piece.y;
        col[j][2] = piece.z;
        col[j][3] = piece.w;
      }
#pragma unroll
      for (int i = 0; i < E; ++i) {
        uint32_t row[4];  // row o + i, columns k .. k + E - 1
#pragma unroll
        for (int w = 0; w < 4; ++w) {
          if constexpr (E == 4) {  // 32-bit elements: word i of each column
            row[w] = col[w][i];
          } else {  // 16-bit: element i of columns 2w and 2w + 1 (low or high half of word i / 2)
            row[w] = __byte_perm(col[2 * w][i / 2], col[2 * w + 1][i / 2], (i % 2) ? 0x7632 : 0x5410);
          }
        }
        *reinterpret_cast<uint4*>(dst + (o + i) * ld_s + k) = make_uint4(row[0], row[1], row[2], row[3]);
      }
    } else {
#pragma unroll 1
      for (int i = 0; i < E; ++i) stage_piece_scalar<Bits, E>(dst, ld_s, s, o + i, k);
    }
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
      stage_tile<In, Shape::kThreads>(reinterpret_cast<ElemBits<In>*>(a_s), lda_s, kTile, p.tile_k,
                                      StageSource{A, p.lda, p.trans_a, row0, k0, p.m, p.k}, p.vec_a, tid);
      stage_tile<In, Shape::kThreads>(reinterpret_cast<ElemBits<In>*>(b_s), ldb_s, kTile, p.tile_k,
                                      StageSource{B, p.ldb, !p.trans_b, col0, k0, p.n, p.k}, p.vec_b, tid);
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
  const int in_bytes = datatype_bytes(pr.input_type);
  // 16-byte reads need a 16-byte aligned start and columns a whole number of 16-byte units apart.
  const auto vec_ok = [](const void* x, int64_t ld, int bytes) {
    return reinterpret_cast<uintptr_t>(x) % 16 == 0 && (ld * bytes) % 16 == 0;
  };
  a.vec_a = vec_ok(pr.A, pr.lda, in_bytes);
  a.vec_b = vec_ok(pr.B, pr.ldb, in_bytes);
  a.tile_k = r.tile_k;
  a.pad_a = r.pad_a;
  a.pad_b = r.pad_b;
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
