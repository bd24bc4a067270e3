// Device helpers of the shared-memory FP64 WMMA families shared_a (the article's Example 5) and shared_ab (Example 6):
// the kernel argument block, cp.async wrappers, fragment coordinate maps, and the guarded BLAS epilogue.
//
// Fragment coordinate maps
// ------------------------
// nvcuda::wmma keeps the lane -> matrix-element mapping of a fragment opaque. Two things in these kernels need
// it anyway: the shared_a kernel builds its 4x8 B fragment straight from global memory with bounds checks
// (any ldb, any base alignment, transposed or not), and both kernels finish with a per-element
// C = alpha * acc + beta * C that must skip elements outside m x n. Instead of assuming the mapping, each
// warp loads a fragment from a small table whose entries are their own positions (entry e holds the double
// e): after load_matrix_sync, element x[i] of a lane holds the position that element came from. This uses only
// the documented API, works for whatever mapping the compiler implements, costs one table write and one
// fragment load per warp at kernel start, and needs no shared memory beyond the tile the kernel already owns
// (the table is written into the start of that tile before the first k step overwrites it). It also keeps the
// shared-memory footprint exactly the one validation reports (the families' rules.hpp: shared_a_smem_bytes,
// shared_ab_smem_bytes), which a per-warp scratch tile for the epilogue would break.
#pragma once

#include <cstdint>

#include <mma.h>

#include "arch/cp_async_sm80.cuh"
#include "core/checked_math.hpp"
#include "core/problem.hpp"
#include "families/common/shared_tiles.hpp"
#include "families/common/wmma_fragments.cuh"

namespace tcgemm::detail {

// Everything a shared-memory GEMM kernel needs, passed by value (one struct keeps the launch lines short).
// The problem is the validated GemmProblem: m, n, k >= 1, alpha != 0, transa/transb normalised.
struct SharedGemmArgs : GemmOperands {
  int64_t m_tiles;      // blocks along m; the linear tile index t maps to (t % m_tiles, t / m_tiles)
  int64_t total_tiles;  // m_tiles * n_tiles (the grid may be smaller: grid-stride loop)
  int32_t tile_k;       // shared_ab: depth of one k k-tile (multiple of 4); shared_a: 4
  int32_t pad_a;        // doubles added to the leading dimension of the shared A tile
  int32_t pad_b;        // doubles added to the leading dimension of the shared B tile (shared_ab)
  bool trans_a;         // op(A) = A^T: A is stored k x m
  bool trans_b;         // op(B) = B^T: B is stored n x k
  bool a_vec16;         // A is 16-byte aligned and lda even: 16-byte cp.async is legal for untransposed A
  bool b_vec16;         // the same for B
};

// ---- dynamic shared memory --------------------------------------------------------------------------------
// 128-byte alignment is more than WMMA's 32-byte tile rule and cp.async's 16-byte rule need.
__device__ __forceinline__ double* shared_gemm_smem() {
  extern __shared__ __align__(128) double tcgemm_shared_gemm_smem[];
  return tcgemm_shared_gemm_smem;
}

// The shared-memory WMMA families copy with cp.async and its "memory" clobber (arch/cp_async_sm80.cuh):
// their tiles are read with wmma::load_matrix_sync between barriers, and nothing is gained by letting the
// compiler move accesses across the copies.
constexpr arch::Clobber kCopyClobber = arch::Clobber::kMemory;

// ---- fragment coordinate maps (see the header comment) -----------------------------------------------------
constexpr int kCoordTableDoubles = kWmmaM * kWmmaN;  // 64 positions: covers the 8x8 C and the 4x8 B tile

// Writes the position table into `table` (>= 64 doubles of shared memory, 32-byte aligned). The caller
// synchronises the block before the maps are loaded and again before the table is overwritten.
__device__ __forceinline__ void write_coord_table(double* table, int tid, int threads) {
  for (int e = tid; e < kCoordTableDoubles; e += threads) table[e] = static_cast<double>(e);
}

// Position (row, column) inside the fragment's tile of each element this lane holds.
template <int kElements>
struct FragCoords {
  int8_t row[kElements];
  int8_t col[kElements];
};
using AccCoords = FragCoords<DmmaFragC::num_elements>;
using ACoords = FragCoords<DmmaFragA::num_elements>;
using BCoords = FragCoords<DmmaFragB::num_elements>;

namespace shared_detail {
// The table is read as a column-major tile with `rows` rows, so entry e sits at (e % rows, e / rows).
template <class Frag>
__device__ __forceinline__ FragCoords<Frag::num_elements> decode_coords(const Frag& f, int rows) {
  FragCoords<Frag::num_elements> xy;
#pragma unroll
  for (int i = 0; i < Frag::num_elements; ++i) {
    const int pos = static_cast<int>(f.x[i]);
    xy.row[i] = static_cast<int8_t>(pos % rows);
    xy.col[i] = static_cast<int8_t>(pos / rows);
  }
  return xy;
}
}  // namespace shared_detail

// 8x8 accumulator tile.
__device__ __forceinline__ AccCoords load_acc_coords(const double* table) {
  DmmaFragC f;
  wmma::load_matrix_sync(f, table, static_cast<unsigned>(kWmmaM), wmma::mem_col_major);
  return shared_detail::decode_coords(f, kWmmaM);
}
// 8x4 A tile (column-major): row 0..7, col = k index 0..3.
__device__ __forceinline__ ACoords load_a_coords(const double* table) {
  DmmaFragA f;
  wmma::load_matrix_sync(f, table, static_cast<unsigned>(kWmmaM));
  return shared_detail::decode_coords(f, kWmmaM);
}
// 4x8 B tile (column-major): row = k index 0..3, col 0..7.
__device__ __forceinline__ BCoords load_b_coords(const double* table) {
  DmmaFragB f;
  wmma::load_matrix_sync(f, table, static_cast<unsigned>(kWmmaK));
  return shared_detail::decode_coords(f, kWmmaK);
}

// Offsets (in doubles) of this lane's fragment elements inside a column-major tile with leading dimension ld.
// Filling a fragment from shared memory through these offsets gives exactly what load_matrix_sync would, but
// the compiler sees a plain shared-memory access: wmma::load_matrix_sync takes a generic pointer and is
// emitted as a generic-address load (64-bit address registers, no LDS with immediate offsets), which costs
// registers and issue slots in the innermost loop (measured gain: docs/tuning.md).
template <int kElements>
struct FragOffsets {
  int v[kElements];
};
template <int kElements>
__device__ __forceinline__ FragOffsets<kElements> fragment_offsets(const FragCoords<kElements>& xy, int ld) {
  FragOffsets<kElements> o;
#pragma unroll
  for (int i = 0; i < kElements; ++i) o.v[i] = xy.row[i] + xy.col[i] * ld;
  return o;
}
template <class Frag>
__device__ __forceinline__ void fill_fragment_from_shared(Frag& f, const double* tile,
                                                          const FragOffsets<Frag::num_elements>& o) {
#pragma unroll
  for (int i = 0; i < Frag::num_elements; ++i) f.x[i] = tile[o.v[i]];
}

// ---- epilogue ---------------------------------------------------------------------------------------------
// C(row0:row0+7, col0:col0+7) = alpha * acc + beta * C for the elements inside m x n. beta == 0 never reads
// C (BLAS rule: C may be uninitialised or NaN). Each lane touches only its own elements, so no shared memory
// and no alignment requirement on C or ldc.
__device__ __forceinline__ void store_c_guarded(const DmmaFragC& acc, const AccCoords& xy, const SharedGemmArgs& p,
                                                int64_t row0, int64_t col0) {
#pragma unroll
  for (int i = 0; i < acc.num_elements; ++i) {
    const int64_t r = row0 + xy.row[i];
    const int64_t c = col0 + xy.col[i];
    if (r < p.m && c < p.n) {
      double* dst = p.C + r + c * p.ldc;
      const double product = p.alpha * acc.x[i];
      *dst = (p.beta == 0.0) ? product : fma(p.beta, *dst, product);
    }
  }
}

// ---- host side ----------------------------------------------------------------------------------------------
// Maximum gridDim.x; kernels walk the tiles with a grid-stride loop, so any tile count is covered.
constexpr int64_t kSharedMaxGridX = 2147483647;

inline SharedGemmArgs make_shared_gemm_args(const GemmProblem& pr, int tile, int tile_k, int pad_a, int pad_b) {
  SharedGemmArgs a{};
  static_cast<GemmOperands&>(a) = kernel_operands(pr);
  a.m_tiles = ceil_div_nonneg(pr.m, tile);
  a.total_tiles = a.m_tiles * ceil_div_nonneg(pr.n, tile);
  a.tile_k = tile_k;
  a.pad_a = pad_a;
  a.pad_b = pad_b;
  a.trans_a = pr.transa == 'T';
  a.trans_b = pr.transb == 'T';
  a.a_vec16 = arch::cp_async16_aligned(pr.A, pr.lda);
  a.b_vec16 = arch::cp_async16_aligned(pr.B, pr.ldb);
  return a;
}

inline unsigned shared_gemm_grid(const SharedGemmArgs& a) {
  return static_cast<unsigned>(a.total_tiles < kSharedMaxGridX ? a.total_tiles : kSharedMaxGridX);
}

}  // namespace tcgemm::detail
