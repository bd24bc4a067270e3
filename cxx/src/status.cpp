// Status strings and the thread-local last-error message.
#include <cstdarg>
#include <cstdio>
#include <string>

#include "launch.hpp"

namespace tcgemm::detail {
namespace {
// One message per host thread, so concurrent callers never see each other's errors.
thread_local std::string g_last_error;
}  // namespace

void clear_error() { g_last_error.clear(); }

tcgemm_status set_error(tcgemm_status status, const char* fmt, ...) {
  char buffer[1024];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buffer, sizeof buffer, fmt, args);
  va_end(args);
  g_last_error = buffer;
  return status;
}

tcgemm_status set_cuda_error(cudaError_t err, const char* what) {
  // Clear CUDA's sticky "last error" for non-sticky failures so the next call starts clean.
  (void)cudaGetLastError();
  return set_error(TCGEMM_ERROR_CUDA, "%s failed: %s: %s", what, cudaGetErrorName(err), cudaGetErrorString(err));
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
  }
  return "TCGEMM_ERROR_UNKNOWN_STATUS";
}

const char* tcgemm_last_error(void) { return tcgemm::detail::g_last_error.c_str(); }

const char* tcgemm_version_string(void) {
#define TCGEMM_STR2(x) #x
#define TCGEMM_STR(x) TCGEMM_STR2(x)
  return TCGEMM_STR(TCGEMM_VERSION_MAJOR) "." TCGEMM_STR(TCGEMM_VERSION_MINOR) "." TCGEMM_STR(TCGEMM_VERSION_PATCH);
}

}  // extern "C"
