// The thread-local error record (core/status.cpp) and the macros that propagate a failed status.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "tcgemm/tcgemm.h"

namespace tcgemm::detail {

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
// Marks the failure being reported as one that came after part of C was written (tcgemm_dgemm_host's
// pipeline); clear_error() unmarks it.
void set_output_written(bool written);
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
