// Every argument and configuration rule of the library, checked on the host without any CUDA call, so
// that CPU-only CI exercises them for real. Each failure records a message naming the argument and rule.
#pragma once

#include "launch.hpp"

namespace tcgemm::detail {

// How an argument is named in a message.
//   Blas : by BLAS position, e.g. "argument 8 (lda) must be >= max(1, m) = 100, got 50" (tcgemm_dgemm;
//          position_offset shifts the numbering for tcgemm_dgemm_config, whose first argument is config).
//   Named: by name, e.g. "lda=50: must be >= max(1, m) = 100" (the example-family entry points).
enum class ArgNaming { Blas, Named };

// Checks trans flags, sizes, leading dimensions and pointers; on success *out is the problem with
// transa/transb normalised to 'N' or 'T'.
tcgemm_status validate_problem(const GemmProblem& in, ArgNaming naming, int position_offset, GemmProblem* out);

// Checks a configuration against its family's rules; on success *out has every 0 ("default") field
// resolved. AUTO stays AUTO (it is resolved against the device by the API layer).
tcgemm_status validate_config(const tcgemm_config& in, tcgemm_config* out);

// For a resolved, valid configuration.
int64_t config_shared_memory_bytes(const tcgemm_config& resolved);
int config_threads_per_block(const tcgemm_config& resolved);
const char* family_name(int32_t family);

// Device-dependent rules for a resolved configuration: architecture and shared-memory limit.
tcgemm_status check_config_against_device(const tcgemm_config& resolved, const DeviceContext& ctx);

// Named checks for the example entry points with fixed shapes.
tcgemm_status validate_peak(int64_t m, int64_t n, int32_t niter, const double* A, int64_t lda, const double* B,
                            int64_t ldb, const double* C, int64_t ldc);

}  // namespace tcgemm::detail
