// The wmma_lowp family's problem and launcher (launch.cu, kernel.cuh). Lower-precision calls have their own problem
// type: GemmProblem (core/problem.hpp) holds double pointers and scalars, and the FP64 families' one
// launcher signature stays as it is.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "core/checked_math.hpp"
#include "core/problem.hpp"
#include "tcgemm/tcgemm.h"

namespace tcgemm::detail {

// One validated tcgemm_gemm_ex call: m, n >= 1 (k may be 0, alpha may be 0: the kernel then only scales C),
// transa/transb normalised to 'N' or 'T', types checked (validate_lowp_types).
struct LowpProblem {
  char transa = 'N', transb = 'N';
  int64_t m = 0, n = 0, k = 0;
  float alpha = 1.0f, beta = 0.0f;
  const void* A = nullptr;
  const void* B = nullptr;
  void* C = nullptr;
  int64_t lda = 1, ldb = 1, ldc = 1;
  int32_t input_type = TCGEMM_TYPE_F16;  // A's and B's
  int32_t c_type = TCGEMM_TYPE_F32;
  int32_t compute = TCGEMM_TYPE_F32;
  // TF32 inputs already rounded to TF32 and k-contiguous (tcgemm's packed copies, families/mma_lowp/tf32_pack.hpp):
  // the WMMA family's pipelined kernel takes TF32 operands only in this form (launch.cu).
  bool tf32_rounded = false;
};

// The kernel's parameter block, by value.
struct LowpArgs {
  const void* A;
  const void* B;
  void* C;
  int64_t lda, ldb, ldc;
  int64_t m, n, k;
  // C tiles down m, and in all; which tile a linear index is depends on the kernel (the run-time WMMA kernel:
  // m first, t % m_tiles; the pipelined one and mma_lowp: groups of m tiles, families/common/tile_raster.cuh).
  int64_t m_tiles, total_tiles;
  // wmma_lowp: bytes of one stage's A and B tiles (rules.hpp, lowp_tiles); stage s's A tile starts at
  // s (a_tile_bytes + b_tile_bytes), its B tile a_tile_bytes later, the epilogue scratch after the last stage.
  int64_t a_tile_bytes, b_tile_bytes;
  float alpha, beta;
  int32_t c_type;
  int32_t tile_k, stages;
  int32_t lda_s, ldb_s;  // wmma_lowp: the shared tiles' leading dimensions (elements)
  bool trans_a, trans_b;
  // wmma_lowp: whether A and B may be copied in 16-byte pieces with cp.async (pointer 16-byte aligned,
  // leading dimension a whole number of 16-byte units); otherwise they are staged element by element.
  bool vec_a, vec_b;
  // wmma_lowp: whether C may take accumulator fragments straight from registers (store_matrix_sync): C of the
  // accumulator's type, 32-byte aligned, ldc a whole number of 16-byte units and at most kLowpMaxDirectLdc
  // (kernel_common.cuh).
  bool c_direct;
  // wmma_lowp: LowpProblem::tf32_rounded.
  bool tf32_rounded;
};

// The problem of a call, argument for argument (unvalidated).
inline LowpProblem lowp_problem(char transa, char transb, int64_t m, int64_t n, int64_t k, float alpha, const void* A,
                                int64_t lda, const void* B, int64_t ldb, float beta, void* C, int64_t ldc,
                                int32_t input_type, int32_t c_type, int32_t compute) {
  LowpProblem p;
  p.transa = transa;
  p.transb = transb;
  p.m = m;
  p.n = n;
  p.k = k;
  p.alpha = alpha;
  p.beta = beta;
  p.A = A;
  p.B = B;
  p.C = C;
  p.lda = lda;
  p.ldb = ldb;
  p.ldc = ldc;
  p.input_type = input_type;
  p.c_type = c_type;
  p.compute = compute;
  return p;
}

// The parameter fields every lower-precision kernel reads (wmma_lowp's, mma_lowp's and the exact-FP32
// kernel's), for C tiles of tile_m x tile_n (default square); the WMMA family's own fields (tile_k, paddings,
// tile offsets) stay 0.
inline LowpArgs lowp_kernel_args(const LowpProblem& p, int64_t tile_m, int64_t tile_n = 0) {
  LowpArgs a{};
  a.A = p.A;
  a.B = p.B;
  a.C = p.C;
  a.lda = p.lda;
  a.ldb = p.ldb;
  a.ldc = p.ldc;
  a.m = p.m;
  a.n = p.n;
  a.k = p.k;
  a.alpha = p.alpha;
  a.beta = p.beta;
  a.c_type = p.c_type;
  a.trans_a = p.transa == 'T';
  a.trans_b = p.transb == 'T';
  a.m_tiles = ceil_div_nonneg(p.m, tile_m);
  a.total_tiles = a.m_tiles * ceil_div_nonneg(p.n, tile_n > 0 ? tile_n : tile_m);
  return a;
}

// Whether an operand may be copied in 16-byte pieces (cp.async, or a TMA box row): a 16-byte aligned start and
// columns a whole number of 16-byte units apart. The one rule of the WMMA family's copies, the mma.sync fast
// path and its TMA route.
inline bool lowp_vec16_ok(const void* x, int64_t ld, int elem_bytes) {
  return reinterpret_cast<uintptr_t>(x) % 16 == 0 && (ld * elem_bytes) % 16 == 0;
}

// The grid of a lower-precision kernel: one block per C tile up to gridDim.x's limit; the kernels walk the
// tiles with a grid-stride loop, so any tile count is covered.
inline unsigned lowp_grid(const LowpArgs& a) {
  constexpr int64_t kMaxGridX = 2147483647;
  return static_cast<unsigned>(a.total_tiles < kMaxGridX ? a.total_tiles : kMaxGridX);
}

// The kernel parameters of a call with a resolved configuration `r`, as launch_wmma_lowp passes them: the
// shared tiles' leading dimensions and sizes, tile_k, stages, and whether each operand may go by 16-byte copies.
LowpArgs lowp_wmma_args(const LowpProblem& p, const tcgemm_wmma_config& r);

// Whether a call with these kernel parameters, on the WMMA shape `shape` with inputs of in_bytes and C tiles
// of tile_m x tile_n, runs the pipelined kernel (rules.hpp, lowp_fixed_config): its configuration is exactly the
// fixed one of its tile and both operands go by 16-byte copies; TF32 operands must also be the packed copies
// ('T','N', already rounded), which is how a configured TF32 call with a fixed configuration runs
// (lowp_tf32_packs).
bool lowp_fixed_instance_applies(const LowpArgs& a, int shape, int in_bytes, int tile_m, int tile_n);

// Whether a configured TF32 call with the resolved configuration r runs on TF32-rounded packed copies of its
// operands ('T','N', families/mma_lowp/tf32_pack.hpp) through the pipelined kernel: r is the fixed configuration
// of its tile, alpha != 0 and k >= 1. The pipelined kernel then loads every fragment with ldmatrix and rounds nothing
// (fragment_ldmatrix.cuh); the run-time kernel would load and round each element of each fragment it loads.
bool lowp_tf32_packs(const LowpProblem& p, const tcgemm_wmma_config& r);

// Enqueues the product on `stream` for a resolved configuration that fits the device (shared memory checked
// by the caller). Returns TCGEMM_SUCCESS or a CUDA error.
tcgemm_status launch_wmma_lowp(const LowpProblem& p, const tcgemm_wmma_config& resolved, const DeviceContext& ctx,
                               cudaStream_t stream);

}  // namespace tcgemm::detail
