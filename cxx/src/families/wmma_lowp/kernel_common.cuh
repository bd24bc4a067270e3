// Family wmma_lowp: what its two kernels share. kernel.cuh runs every configuration with its fields read at run
// time (the sweep's kernel); kernel_pipelined.cuh runs the fixed configurations (rules.hpp, lowp_fixed_config)
// with every field a compile-time constant. Both keep the CUDA Fortran tensor-core article's Example 6 structure:
// A and B tiles in dynamic shared memory with padded leading dimensions, fragments loaded with
// wmma::load_matrix_sync (in the pipelined kernel, by ldmatrix: fragment_ldmatrix.cuh); C
// written straight from registers where store_matrix_sync may write it, through a per-warp scratch fragment
// elsewhere (store_c_fragments).
#pragma once

#include <cstdint>
#include <type_traits>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include "families/lowp_c_element.cuh"
#include "families/wmma_lowp/launch.hpp"
#include "families/wmma_lowp/rules.hpp"

namespace tcgemm::detail::wmma_lowp {

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
struct InputTraits<float> {  // TF32: stored as float, rounded to nearest when a fragment is loaded
  using Frag = nvcuda::wmma::precision::tf32;
};

template <class Acc>
__device__ __forceinline__ float acc_to_float(Acc v) {
  if constexpr (std::is_same<Acc, float>::value) return v;
  else return __half2float(v);
}

// The bits of one element: staging moves raw bits (all-zero bits are +0 in every input type).
template <class In>
using ElemBits = typename std::conditional<sizeof(In) == 2, uint16_t, uint32_t>::type;

// Compile-time facts of one kernel instance. kAKContig / kBKContig: whether op(A) / op(B) is k-contiguous in
// memory (A transposed, B not), which is also the shared tile's order.
template <class In, class Acc, int FM, int FN, int FK, int kTileM, int kTileN, bool kAKContig, bool kBKContig>
struct LowpShape {
  static_assert(lowp_tile_allowed(kTileM, kTileN), "wmma_lowp: not one of the family's block tiles");
  static constexpr int kWarpTile = lowp_warp_tile(kTileM, kTileN);
  static constexpr int kWarpsM = kTileM / kWarpTile;
  static constexpr int kThreads = lowp_warps(kTileM, kTileN) * kWarpThreads;
  static constexpr int kFragsM = kWarpTile / FM;
  static constexpr int kFragsN = kWarpTile / FN;
  static constexpr int kPiece = 16 / int(sizeof(In));  // elements per 16-byte copy
  static constexpr int kStretchA = (!kAKContig && FM == 8) ? 2 : 1;
  static constexpr int kStretchB = (!kBKContig && FN == 8) ? 2 : 1;
  // The fragments read from the shared tiles, in the order each tile lies there: op(A) row-major when it is
  // k-contiguous (A transposed), op(B) col-major when it is k-contiguous (B not transposed).
  using FragA = nvcuda::wmma::fragment<
      nvcuda::wmma::matrix_a, FM, FN, FK, typename InputTraits<In>::Frag,
      typename std::conditional<kAKContig, nvcuda::wmma::row_major, nvcuda::wmma::col_major>::type>;
  using FragB = nvcuda::wmma::fragment<
      nvcuda::wmma::matrix_b, FM, FN, FK, typename InputTraits<In>::Frag,
      typename std::conditional<kBKContig, nvcuda::wmma::col_major, nvcuda::wmma::row_major>::type>;
  // 64 x 64 warp tiles take up to ~250 registers: 8 warps per SM (two 4-warp blocks or one of 8); 32 x 32
  // ones leave room for 3 blocks (a cap of 128 registers for 4 blocks spills).
  static constexpr int kMinBlocks = kWarpTile == 32 ? 3 : kThreads == 128 ? 2 : 1;
  static_assert(kWarpTile % FM == 0 && kWarpTile % FN == 0,
                "wmma_lowp: the fragment shape must tile the warp's block of C");
  static_assert(FK * sizeof(In) == 32,
                "wmma_lowp: one k step must be 32 bytes of input, so that every fragment pointer stays 32-byte "
                "aligned (load_matrix_sync's rule)");
  static_assert((kStretchA == 1 && kStretchB == 1) || kPiece == 8,
                "wmma_lowp: a stretched tile moves whole groups of 8 elements per 16-byte copy");
  static_assert(kTileM % kPiece == 0 && kTileN % kPiece == 0,
                "wmma_lowp: an o-contiguous tile row is whole 16-byte pieces");
};

// Offset (elements) of element (o, k) in a shared operand tile (rules.hpp, LowpOperandTile).
template <bool kKContig, int kStretch>
__device__ __forceinline__ int tile_offset(int o, int k, int ld) {
  if constexpr (kKContig) return o * ld + k;
  else if constexpr (kStretch == 2) return k * ld + ((o >> 3) << 4) + (o & 7);
  else return k * ld + o;
}

// Bytes of a 16-byte piece that has `left` elements of its operand before the operand's end.
template <class In>
__device__ __forceinline__ int piece_bytes(int64_t left) {
  constexpr int E = 16 / int(sizeof(In));
  return left >= E ? 16 : left > 0 ? int(left * int64_t(sizeof(In))) : 0;
}


// Loads one operand fragment from a shared tile. TF32 fragments are rounded to nearest here: the instruction
// reads only the top 19 bits of each element, which would truncate.
template <class Frag, class In>
__device__ __forceinline__ void load_fragment(Frag& f, const In* at, unsigned ld) {
  nvcuda::wmma::load_matrix_sync(f, at, ld);
  if constexpr (sizeof(In) == 4) {
#pragma unroll
    for (int e = 0; e < f.num_elements; ++e) f.x[e] = nvcuda::wmma::__float_to_tf32(f.x[e]);
  }
}

// C = alpha * acc + beta * C for one accumulator fragment whose first element is C's (fr, fc), through the
// warp's scratch in shared memory (column-major, leading dimension FM; the fragment's lane mapping stays
// opaque): only the elements inside m x n, C read only when beta != 0 (BLAS), converted to C's type. The route
// for every C type and alignment and for fragments across C's edges.
template <int FM, int FN, int FK, class Acc>
__device__ __forceinline__ void store_fragment_via_scratch(
    const LowpArgs& p, const nvcuda::wmma::fragment<nvcuda::wmma::accumulator, FM, FN, FK, Acc>& acc, Acc* scratch,
    int64_t fr, int64_t fc, int lane) {
  nvcuda::wmma::store_matrix_sync(scratch, acc, FM, nvcuda::wmma::mem_col_major);
  __syncwarp();
  // Not unrolled: the loop body holds C's type switch, and 16 fragments of unrolled copies of it made the
  // family's instances several times larger.
#pragma unroll 1
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

// The epilogue of one warp: its accumulator fragments, the block of C whose first row and column are r0 and c0.
// A fragment inside m x n goes straight from registers to C when p.c_direct says C may take it (C of the
// accumulator's type, C 32-byte aligned, ldc whole 16-byte units: store_matrix_sync's rules) and its first
// rows keep that alignment (FM elements are 32 bytes or a multiple): C's fragment is loaded when beta != 0,
// combined elementwise (the same lane mapping for both), and stored. Others go through the scratch. An SM
// with one 8-warp block (256 x 128 tiles) computes nothing while its epilogue runs: the direct route took
// F16 'N','N' there from 311 to 360 TFLOP/s at n = 8192 (H200).
template <int FM, int FN, int FK, class Acc, int kFragsM, int kFragsN>
__device__ __forceinline__ void store_c_fragments(
    const LowpArgs& p, nvcuda::wmma::fragment<nvcuda::wmma::accumulator, FM, FN, FK, Acc> (&acc)[kFragsM][kFragsN],
    Acc* scratch, int64_t r0, int64_t c0, int lane) {
  namespace wmma = nvcuda::wmma;
  constexpr bool kRowsAligned = (FM * sizeof(Acc)) % 32 == 0;
#pragma unroll
  for (int i = 0; i < kFragsM; ++i)
#pragma unroll
    for (int j = 0; j < kFragsN; ++j) {
      const int64_t fr = r0 + i * FM, fc = c0 + j * FN;
      if (kRowsAligned && p.c_direct && fr + FM <= p.m && fc + FN <= p.n) {
        Acc* at = static_cast<Acc*>(p.C) + fr + fc * p.ldc;
        auto& f = acc[i][j];
        if (p.beta != 0.0f) {
          wmma::fragment<wmma::accumulator, FM, FN, FK, Acc> c;
          wmma::load_matrix_sync(c, at, unsigned(p.ldc), wmma::mem_col_major);
#pragma unroll
          for (int e = 0; e < f.num_elements; ++e)
            f.x[e] = Acc(fmaf(p.beta, acc_to_float<Acc>(c.x[e]), p.alpha * acc_to_float<Acc>(f.x[e])));
        } else {
#pragma unroll
          for (int e = 0; e < f.num_elements; ++e) f.x[e] = Acc(p.alpha * acc_to_float<Acc>(f.x[e]));
        }
        wmma::store_matrix_sync(at, f, unsigned(p.ldc), wmma::mem_col_major);
      } else {
        store_fragment_via_scratch(p, acc[i][j], scratch, fr, fc, lane);
      }
    }
}

}  // namespace tcgemm::detail::wmma_lowp
