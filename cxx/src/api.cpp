// The public entry points. Every GEMM-like call takes the same path:
//   validate arguments -> validate configuration -> quick return -> device gate -> configuration on this
//   device -> (alpha == 0 or k == 0: scale C) -> the family's launcher.
// Nothing touches the GPU before the first two steps pass, so a rejected call never launches and never
// writes C.
#include <cstring>

#include "config_rules.hpp"
#include "launch.hpp"
#include "sm90_shape_select.hpp"
#include "validate.hpp"

namespace tcgemm::detail {
namespace {

FamilyLauncher launcher_for(int32_t family) {
  switch (family) {
    case TCGEMM_FAMILY_SINGLE: return launch_single;
    case TCGEMM_FAMILY_ROW: return launch_row;
    case TCGEMM_FAMILY_WARP_PER_BLOCK: return launch_warp_per_block;
    case TCGEMM_FAMILY_BLOCK_TILE: return launch_block_tile;
    case TCGEMM_FAMILY_SHARED_A: return launch_shared_a;
    case TCGEMM_FAMILY_SHARED_AB: return launch_shared_ab;
    case TCGEMM_FAMILY_SM90_MMA: return launch_sm90_mma;
    default: return nullptr;
  }
}

bool is_blas_family(int32_t family) {
  return family == TCGEMM_FAMILY_AUTO || family == TCGEMM_FAMILY_SHARED_A || family == TCGEMM_FAMILY_SHARED_AB ||
         family == TCGEMM_FAMILY_SM90_MMA;
}

tcgemm_config default_config_for(int32_t family) {
  tcgemm_config c{};
  c.family = family;
  if (family == TCGEMM_FAMILY_SHARED_A) c.pad_a = kSharedADefaultPad;
  if (family == TCGEMM_FAMILY_SHARED_AB) c.pad_a = c.pad_b = kSharedABDefaultPad;
  tcgemm_config resolved{};
  if (validate_config(c, kConfigFirstPositions, &resolved) != TCGEMM_SUCCESS)
    return c;  // unknown family: left for validation
  return resolved;
}

// The configuration tcgemm_dgemm uses: the Hopper family on compute capability 9.x when the build carries
// its sm_90 code (block tile chosen for the problem's shape, see sm90_shape_select.hpp), else shared_ab.
// A null problem gives the defaults.
tcgemm_config select_config(const DeviceContext& ctx, const GemmProblem* p = nullptr) {
  if (!sm90_code_available(ctx)) return default_config_for(TCGEMM_FAMILY_SHARED_AB);
  tcgemm_config c = default_config_for(TCGEMM_FAMILY_SM90_MMA);
  if (p) {
    const Sm90Shape& s = kSm90Shapes[sm90_select_shape(p->m, p->n, p->k, ctx.sm_count)];
    c.tile_m = s.tile_m;
    c.tile_n = s.tile_n;
    c.tile_k = s.tile_k;
    c.stages = s.default_stages;
  }
  return c;
}

tcgemm_status run_gemm(const GemmProblem& raw, const tcgemm_config& raw_config, ArgNaming naming,
                       const ArgPositions& pos, cudaStream_t stream) {
  clear_error();
  GemmProblem p;
  TCGEMM_TRY(validate_problem(raw, naming, pos, &p));
  tcgemm_config cfg;
  TCGEMM_TRY(validate_config(raw_config, pos, &cfg));
  if (cfg.family != TCGEMM_FAMILY_AUTO) TCGEMM_TRY(check_grid(p, cfg, naming, pos));

  // Reference-BLAS quick return: nothing to compute and C stays as it is.
  if (p.m == 0 || p.n == 0) return TCGEMM_SUCCESS;
  if ((p.alpha == 0.0 || p.k == 0) && p.beta == 1.0) return TCGEMM_SUCCESS;

  DeviceContext ctx;
  TCGEMM_TRY(device_gate(-1, &ctx));
  if (cfg.family == TCGEMM_FAMILY_AUTO) {
    cfg = select_config(ctx, &p);
    TCGEMM_TRY(check_grid(p, cfg, naming, pos));
  }
  TCGEMM_TRY(check_config_against_device(cfg, ctx));
  TCGEMM_TRY(take_pending_cuda_error());

  // alpha == 0 or k == 0: C <- beta C; A and B are not read.
  if (p.alpha == 0.0 || p.k == 0) return launch_scale_c(p.m, p.n, p.beta, p.C, p.ldc, stream);

  return launcher_for(cfg.family)(p, cfg, ctx, stream);
}

// C = A B for the reference-design example families; `pos` gives each argument's place in the entry
// point's prototype.
tcgemm_status run_example(int32_t family, int32_t tile_m, int32_t tile_n, int32_t tile_k, int32_t pad_a,
                          int32_t pad_b, int64_t m, int64_t n, int64_t k, const double* A, int64_t lda,
                          const double* B, int64_t ldb, double* C, int64_t ldc, const ArgPositions& pos,
                          cudaStream_t stream) {
  GemmProblem p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.A = A;
  p.lda = lda;
  p.B = B;
  p.ldb = ldb;
  p.C = C;
  p.ldc = ldc;
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

GemmProblem blas_problem(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha, const double* A,
                         int64_t lda, const double* B, int64_t ldb, double beta, double* C, int64_t ldc) {
  GemmProblem p;
  p.transa = transa;
  p.transb = transb;
  p.m = m;
  p.n = n;
  p.k = k;
  p.alpha = alpha;
  p.A = A;
  p.lda = lda;
  p.B = B;
  p.ldb = ldb;
  p.beta = beta;
  p.C = C;
  p.ldc = ldc;
  return p;
}

}  // namespace
}  // namespace tcgemm::detail

using namespace tcgemm::detail;

extern "C" {

tcgemm_status tcgemm_default_config(int32_t family, tcgemm_config* config) {
  clear_error();
  if (!config) return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 2, "config is NULL");
  tcgemm_config c = default_config_for(family);
  tcgemm_config resolved;
  TCGEMM_TRY(validate_config(c, kConfigFirstPositions, &resolved));
  *config = resolved;
  return TCGEMM_SUCCESS;
}

tcgemm_status tcgemm_config_validate(const tcgemm_config* config) {
  clear_error();
  if (!config) return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 1, "config is NULL");
  tcgemm_config resolved;
  return validate_config(*config, kConfigFirstPositions, &resolved);
}

tcgemm_status tcgemm_config_shared_memory_bytes(const tcgemm_config* config, int64_t* bytes) {
  clear_error();
  if (!config || !bytes)
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, config ? 2 : 1, "%s is NULL", config ? "bytes" : "config");
  tcgemm_config resolved;
  TCGEMM_TRY(validate_config(*config, kConfigFirstPositions, &resolved));
  *bytes = config_shared_memory_bytes(resolved);
  return TCGEMM_SUCCESS;
}

tcgemm_status tcgemm_config_threads_per_block(const tcgemm_config* config, int32_t* threads) {
  clear_error();
  if (!config || !threads)
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, config ? 2 : 1, "%s is NULL", config ? "threads" : "config");
  tcgemm_config resolved;
  TCGEMM_TRY(validate_config(*config, kConfigFirstPositions, &resolved));
  *threads = config_threads_per_block(resolved);
  return TCGEMM_SUCCESS;
}

tcgemm_status tcgemm_config_check_device(const tcgemm_config* config, int32_t device) {
  clear_error();
  if (!config) return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 1, "config is NULL");
  tcgemm_config resolved;
  TCGEMM_TRY(validate_config(*config, kConfigFirstPositions, &resolved));
  DeviceContext ctx;
  TCGEMM_TRY(device_gate(device, &ctx, 2));
  if (resolved.family == TCGEMM_FAMILY_AUTO) resolved = select_config(ctx);
  TCGEMM_TRY(check_config_against_device(resolved, ctx));
  // The family's code must exist for this device, not only its rules hold (a build for sm_80 alone runs
  // on a Hopper through PTX, in which the sm90_mma kernel is compiled away).
  if (resolved.family == TCGEMM_FAMILY_SM90_MMA && !sm90_code_available(ctx))
    return set_error(TCGEMM_ERROR_ARCHITECTURE,
                     "family sm90_mma: this build of tcgemm has no sm_90 code for device %d; rebuild with "
                     "CMAKE_CUDA_ARCHITECTURES including 90",
                     ctx.device);
  return TCGEMM_SUCCESS;
}

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

tcgemm_status tcgemm_dgemm(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha, const double* A,
                           int64_t lda, const double* B, int64_t ldb, double beta, double* C, int64_t ldc,
                           cudaStream_t stream) {
  tcgemm_config automatic{};
  return run_gemm(blas_problem(transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc), automatic,
                  ArgNaming::Blas, kBlasPositions, stream);
}

tcgemm_status tcgemm_dgemm_config(const tcgemm_config* config, char transa, char transb, int64_t m, int64_t n,
                                  int64_t k, double alpha, const double* A, int64_t lda, const double* B, int64_t ldb,
                                  double beta, double* C, int64_t ldc, cudaStream_t stream) {
  clear_error();
  if (!config)
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, TCGEMM_ARG_CONFIG,
                         "argument config (TCGEMM_ARG_CONFIG) is NULL");
  if (!is_blas_family(config->family))
    return set_arg_error(TCGEMM_ERROR_INVALID_CONFIG, TCGEMM_ARG_CONFIG,
                     "family=%d (%s): tcgemm_dgemm_config runs the BLAS-semantics families shared_a, shared_ab, "
                     "sm90_mma or auto; the reference-design examples have their own tcgemm_dmma_* entry points",
                     config->family, family_name(config->family));
  // The DGEMM arguments keep reference DGEMM's numbering; the configuration is TCGEMM_ARG_CONFIG.
  return run_gemm(blas_problem(transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc), *config,
                  ArgNaming::Blas, kBlasPositions, stream);
}

tcgemm_status tcgemm_dgemm_select_config(int32_t device, tcgemm_config* config) {
  clear_error();
  if (!config) return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 2, "config is NULL");
  DeviceContext ctx;
  TCGEMM_TRY(device_gate(device, &ctx, 1));
  *config = select_config(ctx);
  return TCGEMM_SUCCESS;
}

}  // extern "C"
