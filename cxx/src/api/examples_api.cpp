// The entry points of the reference design's examples: C = A B through one family each, with every
// argument checked and numbered by its place in the entry point's prototype.
#include "api/gemm_call.hpp"
#include "core/device.hpp"
#include "core/errors.hpp"
#include "families/ex1_4_global_wmma/rules.hpp"

namespace tcgemm::detail {
namespace {

tcgemm_status run_example(int32_t family, int32_t tile_m, int32_t tile_n, int32_t tile_k, int32_t pad_a,
                          int32_t pad_b, int64_t m, int64_t n, int64_t k, const double* A, int64_t lda,
                          const double* B, int64_t ldb, double* C, int64_t ldc, const ArgPositions& pos,
                          cudaStream_t stream) {
  // C = A B: no transpose, alpha = 1, beta = 0 (C is not read).
  const GemmProblem p = blas_problem('N', 'N', m, n, k, 1.0, A, lda, B, ldb, 0.0, C, ldc);
  tcgemm_config c{};
  c.family = family;
  c.tile_m = tile_m;
  c.tile_n = tile_n;
  c.tile_k = tile_k;
  c.pad_a = pad_a;
  c.pad_b = pad_b;
  return run_gemm(p, c, ArgNaming::Named, pos, stream);
}

// Argument positions of the example entry points (fields: transa transb m n k alpha A lda B ldb beta C ldc
// tile_m tile_n tile_k pad_a pad_b stages config niter).

constexpr ArgPositions kSinglePositions{0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 0, 5, 6, 0, 0, 0, 0, 0, 0, 0, 0};
constexpr ArgPositions kRowPositions{0, 0, 0, 0, 1, 0, 2, 3, 4, 5, 0, 6, 7, 0, 0, 0, 0, 0, 0, 0, 0};
constexpr ArgPositions kWarpPerBlockPositions{0, 0, 1, 2, 3, 0, 4, 5, 6, 7, 0, 8, 9, 0, 0, 0, 0, 0, 0, 0, 0};
constexpr ArgPositions kBlockTilePositions{0, 0, 1, 2, 3, 0, 6, 7, 8, 9, 0, 10, 11, 4, 5, 0, 0, 0, 0, 0, 0};
constexpr ArgPositions kSharedAPositions{0, 0, 1, 2, 3, 0, 6, 7, 8, 9, 0, 10, 11, 4, 0, 0, 5, 0, 0, 0, 0};
constexpr ArgPositions kSharedABPositions{0, 0, 1, 2, 3, 0, 8, 9, 10, 11, 0, 12, 13, 4, 4, 5, 6, 7, 0, 0, 0};

}  // namespace
}  // namespace tcgemm::detail

using namespace tcgemm::detail;

extern "C" {

tcgemm_status tcgemm_dmma_single(const double* A, int64_t lda, const double* B, int64_t ldb, double* C, int64_t ldc,
                                 cudaStream_t stream) {
  return run_example(TCGEMM_FAMILY_SINGLE, 0, 0, 0, 0, 0, kWmmaM, kWmmaN, kWmmaK, A, lda, B, ldb, C, ldc,
                     kSinglePositions, stream);
}

tcgemm_status tcgemm_dmma_row(int64_t k, const double* A, int64_t lda, const double* B, int64_t ldb, double* C,
                              int64_t ldc, cudaStream_t stream) {
  return run_example(TCGEMM_FAMILY_ROW, 0, 0, 0, 0, 0, kWmmaM, kWmmaN, k, A, lda, B, ldb, C, ldc, kRowPositions,
                     stream);
}

tcgemm_status tcgemm_dmma_warp_per_block(int64_t m, int64_t n, int64_t k, const double* A, int64_t lda,
                                         const double* B, int64_t ldb, double* C, int64_t ldc, cudaStream_t stream) {
  return run_example(TCGEMM_FAMILY_WARP_PER_BLOCK, 0, 0, 0, 0, 0, m, n, k, A, lda, B, ldb, C, ldc,
                     kWarpPerBlockPositions, stream);
}

tcgemm_status tcgemm_dmma_block_tile(int64_t m, int64_t n, int64_t k, int32_t tile_m, int32_t tile_n,
                                     const double* A, int64_t lda, const double* B, int64_t ldb, double* C,
                                     int64_t ldc, cudaStream_t stream) {
  return run_example(TCGEMM_FAMILY_BLOCK_TILE, tile_m, tile_n, 0, 0, 0, m, n, k, A, lda, B, ldb, C, ldc,
                     kBlockTilePositions, stream);
}

tcgemm_status tcgemm_dmma_shared_a(int64_t m, int64_t n, int64_t k, int32_t tile_m, int32_t pad_a, const double* A,
                                   int64_t lda, const double* B, int64_t ldb, double* C, int64_t ldc,
                                   cudaStream_t stream) {
  return run_example(TCGEMM_FAMILY_SHARED_A, tile_m, 0, 0, pad_a, 0, m, n, k, A, lda, B, ldb, C, ldc,
                     kSharedAPositions, stream);
}

tcgemm_status tcgemm_dmma_shared_ab(int64_t m, int64_t n, int64_t k, int32_t tile, int32_t tile_k, int32_t pad_a,
                                    int32_t pad_b, const double* A, int64_t lda, const double* B, int64_t ldb,
                                    double* C, int64_t ldc, cudaStream_t stream) {
  return run_example(TCGEMM_FAMILY_SHARED_AB, tile, 0, tile_k, pad_a, pad_b, m, n, k, A, lda, B, ldb, C, ldc,
                     kSharedABPositions, stream);
}

tcgemm_status tcgemm_dmma_peak(int64_t m, int64_t n, int32_t niter, const double* A, int64_t lda, const double* B,
                               int64_t ldb, double* C, int64_t ldc, cudaStream_t stream) {
  clear_error();
  TCGEMM_TRY(validate_peak(m, n, niter, A, lda, B, ldb, C, ldc));
  if (m == 0 || n == 0) return TCGEMM_SUCCESS;
  DeviceContext ctx;
  TCGEMM_TRY(device_gate(-1, &ctx));
  TCGEMM_TRY(take_pending_cuda_error());
  return launch_peak(m, n, niter, A, lda, B, ldb, C, ldc, ctx, stream);
}

}  // extern "C"
