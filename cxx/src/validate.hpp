// Every argument and configuration rule of the library, checked on the host without any CUDA call, so
// that CPU-only CI exercises them for real. Each failure records a message naming the argument and rule,
// and the argument's position (tcgemm_last_error_argument).
#pragma once

#include "launch.hpp"

namespace tcgemm::detail {

// How an argument is named in a message.
//   Blas : by BLAS position, e.g. "argument 8 (lda) must be >= max(1, m) = 100, got 50" (tcgemm_dgemm,
//          tcgemm_dgemm_config, tcgemm_dgemm_host: reference DGEMM's numbering for all three).
//   Named: by name, e.g. "lda=50: must be >= max(1, m) = 100" (the example-family entry points).
enum class ArgNaming { Blas, Named };

// Where each argument stands in an entry point's prototype, 1-based; 0 where the entry point has no such
// argument. Configuration fields passed as separate arguments (tcgemm_dmma_shared_ab's tile_k, say) have
// their own position; the others are blamed on `config`.
struct ArgPositions {
  int transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc;
  int tile_m, tile_n, tile_k, pad_a, pad_b, stages;
  int config;
  int niter;
};
// Reference DGEMM's numbering (XERBLA's INFO); the configuration of tcgemm_dgemm_config after it.
constexpr ArgPositions kBlasPositions{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
                                      0, 0, 0, 0, 0, 0, TCGEMM_ARG_CONFIG, 0};
// Entry points whose only argument of interest is a tcgemm_config* in first position (tcgemm_config_*).
constexpr ArgPositions kConfigFirstPositions{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0};

// Checks trans flags, sizes, leading dimensions, pointers and the addressable extent of every matrix the
// call touches (TCGEMM_MAX_MATRIX_BYTES); on success *out is the problem with transa/transb normalised to
// 'N' or 'T'.
tcgemm_status validate_problem(const GemmProblem& in, ArgNaming naming, const ArgPositions& pos, GemmProblem* out);

// Checks a configuration against its family's rules; on success *out has every 0 ("default") field
// resolved. AUTO stays AUTO (it is resolved against the device by the API layer).
tcgemm_status validate_config(const tcgemm_config& in, const ArgPositions& pos, tcgemm_config* out);

// The grid rule for a validated problem and a resolved configuration: families that launch one thread
// block per C tile need at most 2^31 - 1 blocks in one launch (a single launch keeps "error => nothing
// ran" true). Only a C of tens of TiB can break it.
tcgemm_status check_grid(const GemmProblem& p, const tcgemm_config& resolved, ArgNaming naming,
                         const ArgPositions& pos);

// For a resolved, valid configuration.
int64_t config_shared_memory_bytes(const tcgemm_config& resolved);
int config_threads_per_block(const tcgemm_config& resolved);
const char* family_name(int32_t family);

// Device-dependent rules for a resolved configuration: architecture and shared-memory limit.
tcgemm_status check_config_against_device(const tcgemm_config& resolved, const DeviceContext& ctx);

// Named checks for the Figure 1 benchmark entry point (A is 8 x 4, B is 4 x 8, C is m x n).
tcgemm_status validate_peak(int64_t m, int64_t n, int32_t niter, const double* A, int64_t lda, const double* B,
                            int64_t ldb, const double* C, int64_t ldc);

}  // namespace tcgemm::detail
