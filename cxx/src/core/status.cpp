// Status strings and the thread-local record of the last failure: its message and the argument it blames.
#include <cstdarg>
#include <cstdio>
#include <string>

#include "core/errors.hpp"

namespace tcgemm::detail {
namespace {
// One record per host thread, so concurrent callers never see each other's errors.
struct LastError {
  std::string message;
  int32_t argument = 0;  // 1-based argument position (see tcgemm_last_error_argument), 0: none
  bool output_written = false;  // the failed call had already written part of C (tcgemm_dgemm_host)
};
thread_local LastError g_last;

tcgemm_status record(tcgemm_status status, int32_t argument, const char* fmt, va_list args) {
  char buffer[1024];
  std::vsnprintf(buffer, sizeof buffer, fmt, args);
  g_last.message = buffer;
  g_last.argument = argument;
  return status;
}
}  // namespace

void clear_error() {
  g_last.message.clear();
  g_last.argument = 0;
  g_last.output_written = false;
}

void set_output_written(bool written) { g_last.output_written = written; }

tcgemm_status set_error(tcgemm_status status, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  const tcgemm_status st = record(status, 0, fmt, args);
  va_end(args);
  return st;
}

tcgemm_status set_arg_error(tcgemm_status status, int32_t argument, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  const tcgemm_status st = record(status, argument, fmt, args);
  va_end(args);
  return st;
}

bool is_sticky_cuda_error(cudaError_t err) {
  // The errors after which the CUDA context is corrupt: every later call in the process returns the same
  // error until the device is reset (CUDA runtime documentation of each code).
  switch (err) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorLaunchTimeout:
    case cudaErrorAssert:
    case cudaErrorECCUncorrectable:
      return true;
    default:
      return false;
  }
}

tcgemm_status set_cuda_error(cudaError_t err, const char* what) {
  // Consume the runtime's per-thread "last error" so that the caller's next CUDA check does not see a
  // failure tcgemm has already reported (a sticky error stays regardless).
  (void)cudaGetLastError();
  if (is_sticky_cuda_error(err))
    return set_error(TCGEMM_ERROR_CONTEXT_LOST,
                     "%s failed: %s: %s; this error is sticky: the CUDA context is unusable (a kernel of this "
                     "process faulted) until the device is reset (cudaDeviceReset) or the process restarts",
                     what, cudaGetErrorName(err), cudaGetErrorString(err));
  return set_error(TCGEMM_ERROR_CUDA, "%s failed: %s: %s", what, cudaGetErrorName(err), cudaGetErrorString(err));
}

tcgemm_status take_pending_cuda_error() {
  // cudaGetLastError() returns and clears the thread's pending error. A non-sticky one (say, a failed
  // cudaFree in the caller's code) says nothing about tcgemm's launch and is dropped here, so the check
  // after the launch sees only the launch's own result. A sticky one means no launch can succeed.
  const cudaError_t pending = cudaGetLastError();
  if (!is_sticky_cuda_error(pending)) return TCGEMM_SUCCESS;
  return set_error(TCGEMM_ERROR_CONTEXT_LOST,
                   "the CUDA context is unusable: an earlier error is sticky (%s: %s); no tcgemm kernel was "
                   "launched; reset the device (cudaDeviceReset) or restart the process",
                   cudaGetErrorName(pending), cudaGetErrorString(pending));
}

}  // namespace tcgemm::detail

extern "C" {

const char* tcgemm_status_string(tcgemm_status status) {
  switch (status) {
    case TCGEMM_SUCCESS: return "TCGEMM_SUCCESS";
    case TCGEMM_ERROR_INVALID_ARGUMENT: return "TCGEMM_ERROR_INVALID_ARGUMENT";
    case TCGEMM_ERROR_INVALID_CONFIG: return "TCGEMM_ERROR_INVALID_CONFIG";
    case TCGEMM_ERROR_NO_DEVICE: return "TCGEMM_ERROR_NO_DEVICE";
    case TCGEMM_ERROR_ARCHITECTURE: return "TCGEMM_ERROR_ARCHITECTURE";
    case TCGEMM_ERROR_SHARED_MEMORY: return "TCGEMM_ERROR_SHARED_MEMORY";
    case TCGEMM_ERROR_CUDA: return "TCGEMM_ERROR_CUDA";
    case TCGEMM_ERROR_CONTEXT_LOST: return "TCGEMM_ERROR_CONTEXT_LOST";
  }
  return "TCGEMM_ERROR_UNKNOWN_STATUS";
}

const char* tcgemm_last_error(void) { return tcgemm::detail::g_last.message.c_str(); }

int32_t tcgemm_last_error_argument(void) { return tcgemm::detail::g_last.argument; }

int32_t tcgemm_last_error_output_written(void) { return tcgemm::detail::g_last.output_written ? 1 : 0; }

const char* tcgemm_version_string(void) {
#define TCGEMM_STR2(x) #x
#define TCGEMM_STR(x) TCGEMM_STR2(x)
  return TCGEMM_STR(TCGEMM_VERSION_MAJOR) "." TCGEMM_STR(TCGEMM_VERSION_MINOR) "." TCGEMM_STR(TCGEMM_VERSION_PATCH);
}

}  // extern "C"
