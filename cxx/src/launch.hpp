// Internal contract between the API layer (api.cpp), validation (validate.cpp) and the kernel families
// (one .cu file per family). Every GEMM family is reached through the same launcher signature.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "tcgemm/tcgemm.h"

namespace tcgemm::detail {

// One GEMM call, BLAS semantics: C <- alpha op(A) op(B) + beta C, column-major.
// transa/transb are normalised to 'N' or 'T' before a launcher sees them.
struct GemmProblem {
  char transa = 'N';
  char transb = 'N';
  int64_t m = 0, n = 0, k = 0;
  double alpha = 1.0;
  const double* A = nullptr;
  int64_t lda = 1;
  const double* B = nullptr;
  int64_t ldb = 1;
  double beta = 0.0;
  double* C = nullptr;
  int64_t ldc = 1;
};

// What the launchers need to know about the device they run on (queried once per device, cached).
struct DeviceContext {
  int device = 0;
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  int64_t smem_optin = 0;   // bytes per block after cudaFuncSetAttribute
  int64_t smem_per_sm = 0;  // bytes
  // The CUDA context the call runs in (cuCtxGetId: unique for the process's lifetime). Caches of
  // per-context state (kernel attributes, memory pools) are keyed by it, so that after cudaDeviceReset
  // nothing from the destroyed context is reused.
  uint64_t context_id = 0;
};

// The one launcher signature. A launcher is called only after:
//   - the problem passed validation (sizes, leading dimensions, pointers) and is not a quick return,
//   - m >= 1, n >= 1, k >= 1 and alpha != 0 (alpha == 0 or k == 0 is handled by launch_scale_c),
//   - the config passed validate_config() and fits the device (architecture, shared memory).
// It enqueues its kernel(s) on `stream`, checks the launch, and returns TCGEMM_SUCCESS or a CUDA error
// set through set_cuda_error().
using FamilyLauncher = tcgemm_status (*)(const GemmProblem&, const tcgemm_config&, const DeviceContext&,
                                         cudaStream_t);

// Reference-design families (examples): C = A B, transa = transb = 'N', alpha = 1, beta = 0.
tcgemm_status launch_single(const GemmProblem&, const tcgemm_config&, const DeviceContext&, cudaStream_t);
tcgemm_status launch_row(const GemmProblem&, const tcgemm_config&, const DeviceContext&, cudaStream_t);
tcgemm_status launch_warp_per_block(const GemmProblem&, const tcgemm_config&, const DeviceContext&,
                                    cudaStream_t);
tcgemm_status launch_block_tile(const GemmProblem&, const tcgemm_config&, const DeviceContext&, cudaStream_t);
// Families with full BLAS semantics (any trans, alpha, beta).
tcgemm_status launch_shared_a(const GemmProblem&, const tcgemm_config&, const DeviceContext&, cudaStream_t);
tcgemm_status launch_shared_ab(const GemmProblem&, const tcgemm_config&, const DeviceContext&, cudaStream_t);
tcgemm_status launch_sm90_mma(const GemmProblem&, const tcgemm_config&, const DeviceContext&, cudaStream_t);
// True when this build carries sm_90 code for the sm90_mma family that can run on ctx's device (a build
// whose CMAKE_CUDA_ARCHITECTURES lacks 90 has none). Cached per device; records no error.
bool sm90_code_available(const DeviceContext& ctx);

// Figure 1 benchmark: every 8x8 tile of C (m x n) gets niter * A(8x4) B(4x8).
tcgemm_status launch_peak(int64_t m, int64_t n, int32_t niter, const double* A, int64_t lda, const double* B,
                          int64_t ldb, double* C, int64_t ldc, const DeviceContext&, cudaStream_t);

// C <- beta C over m x n (beta == 0 writes zeros without reading C). Used for alpha == 0 or k == 0.
tcgemm_status launch_scale_c(int64_t m, int64_t n, double beta, double* C, int64_t ldc, cudaStream_t);

// ---- device handling (device.cpp) ----
// The device gate: the device (device < 0: the calling thread's current one) exists and has cc >= 8.0.
// Fills ctx from a per-device cache, so repeated calls query CUDA for the device count and id only.
// Also records the id of the calling thread's current CUDA context (made current first when there is none:
// first use, or after cudaDeviceReset) in ctx->context_id.
// device_arg_pos: where `device` stands in the calling entry point (0: it is not an argument), for the
// error that blames it.
tcgemm_status device_gate(int device, DeviceContext* ctx, int device_arg_pos = 0);
// Raise a kernel's dynamic shared-memory limit to what the device allows, once per (kernel, CUDA context):
// the attribute lives in the context, so a new context after cudaDeviceReset needs it again.
tcgemm_status ensure_dynamic_smem_limit(const void* kernel, const DeviceContext& ctx, const char* kernel_name);
// True when the loaded binary carries code for the kernel that can run on ctx's device (cudaFuncGetAttributes
// on that device, which need not be the current one): native code of at least min_binary_version, or PTX of
// at least that version (a PTX-JIT build for an older architecture compiles the kernel's newer-architecture
// body away, so its binary version alone proves nothing). Cached per (kernel, device).
tcgemm_status check_kernel_image(const void* kernel, const DeviceContext& ctx, const char* kernel_name,
                                 int min_binary_version);

// ---- errors (status.cpp) ----
void clear_error();
// Records a message that blames no argument (tcgemm_last_error_argument() == 0).
tcgemm_status set_error(tcgemm_status status, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
// Records a message and the 1-based position of the argument at fault.
tcgemm_status set_arg_error(tcgemm_status status, int32_t argument, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
// Records "<what> failed: <cudaGetErrorName>: <cudaGetErrorString>" and returns TCGEMM_ERROR_CUDA, or
// TCGEMM_ERROR_CONTEXT_LOST for a sticky error (the context is corrupt).
tcgemm_status set_cuda_error(cudaError_t err, const char* what);
bool is_sticky_cuda_error(cudaError_t err);
// Called right before a call's first launch: drops a non-sticky error left pending by earlier code (it is
// not tcgemm's, and must not make the check after the launch report a launch failure for a kernel that
// ran); reports a sticky one as TCGEMM_ERROR_CONTEXT_LOST, so that nothing is launched into a dead context.
tcgemm_status take_pending_cuda_error();

}  // namespace tcgemm::detail

// Return a failed tcgemm_status from the enclosing function (its message is already recorded).
#define TCGEMM_TRY(expr)                                                        \
  do {                                                                          \
    tcgemm_status tcgemm_st_ = (expr);                                          \
    if (tcgemm_st_ != TCGEMM_SUCCESS) return tcgemm_st_;                        \
  } while (0)

// Check a CUDA call inside a function returning tcgemm_status.
#define TCGEMM_CUDA_TRY(call)                                                   \
  do {                                                                          \
    cudaError_t tcgemm_err_ = (call);                                           \
    if (tcgemm_err_ != cudaSuccess)                                             \
      return ::tcgemm::detail::set_cuda_error(tcgemm_err_, #call);              \
  } while (0)

// Check the launch just enqueued (configuration errors surface here, not at the next sync). The call took the
// pending error before launching (take_pending_cuda_error), so what this reads is the launch's own result.
#define TCGEMM_CHECK_LAUNCH(kernel_name)                                        \
  do {                                                                          \
    cudaError_t tcgemm_err_ = cudaGetLastError();                               \
    if (tcgemm_err_ != cudaSuccess)                                             \
      return ::tcgemm::detail::set_cuda_error(tcgemm_err_, "launch of " kernel_name); \
  } while (0)
