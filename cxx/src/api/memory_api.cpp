// Small device-memory helpers, for Fortran and C callers without the CUDA headers' helpers.
#include <cstdint>

#include "core/device.hpp"
#include "core/errors.hpp"

using namespace tcgemm::detail;

extern "C" {

tcgemm_status tcgemm_malloc(void** device_ptr, int64_t bytes) {
  clear_error();
  if (!device_ptr) return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 1, "device_ptr is NULL");
  if (bytes < 0)
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 2, "bytes=%lld: must be >= 0", (long long)bytes);
  *device_ptr = nullptr;
  if (bytes == 0) return TCGEMM_SUCCESS;
  DeviceContext ctx;
  TCGEMM_TRY(device_gate(-1, &ctx));
  TCGEMM_CUDA_TRY(cudaMalloc(device_ptr, size_t(bytes)));
  return TCGEMM_SUCCESS;
}

tcgemm_status tcgemm_free(void* device_ptr) {
  clear_error();
  if (!device_ptr) return TCGEMM_SUCCESS;
  TCGEMM_CUDA_TRY(cudaFree(device_ptr));
  return TCGEMM_SUCCESS;
}

tcgemm_status tcgemm_host_register(void* host_ptr, int64_t bytes) {
  clear_error();
  if (!host_ptr) return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 1, "host_ptr is NULL");
  if (bytes <= 0)
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 2, "bytes=%lld: must be > 0", (long long)bytes);
  DeviceContext ctx;
  TCGEMM_TRY(device_gate(-1, &ctx));
  TCGEMM_CUDA_TRY(cudaHostRegister(host_ptr, size_t(bytes), cudaHostRegisterPortable));
  return TCGEMM_SUCCESS;
}

tcgemm_status tcgemm_host_unregister(void* host_ptr) {
  clear_error();
  if (!host_ptr) return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 1, "host_ptr is NULL");
  DeviceContext ctx;
  TCGEMM_TRY(device_gate(-1, &ctx));
  TCGEMM_CUDA_TRY(cudaHostUnregister(host_ptr));
  return TCGEMM_SUCCESS;
}

static tcgemm_status copy_bytes(void* dst, const void* src, int64_t bytes, cudaMemcpyKind kind) {
  clear_error();
  // Positions: (destination, source, bytes) in both copy entry points.
  if (bytes < 0)
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 3, "bytes=%lld: must be >= 0", (long long)bytes);
  if (bytes == 0) return TCGEMM_SUCCESS;
  if (!dst) return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 1, "destination is NULL but bytes > 0");
  if (!src) return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 2, "source is NULL but bytes > 0");
  TCGEMM_CUDA_TRY(cudaMemcpy(dst, src, size_t(bytes), kind));
  return TCGEMM_SUCCESS;
}

tcgemm_status tcgemm_memcpy_to_device(void* device_dst, const void* host_src, int64_t bytes) {
  return copy_bytes(device_dst, host_src, bytes, cudaMemcpyHostToDevice);
}

tcgemm_status tcgemm_memcpy_to_host(void* host_dst, const void* device_src, int64_t bytes) {
  return copy_bytes(host_dst, device_src, bytes, cudaMemcpyDeviceToHost);
}

tcgemm_status tcgemm_synchronize(cudaStream_t stream) {
  clear_error();
  const cudaError_t e = cudaStreamSynchronize(stream);
  if (e == cudaSuccess) return TCGEMM_SUCCESS;
  // Without a usable GPU the wait itself says so: the named status, with no device query on every call.
  if (is_no_device_error(e)) {
    (void)cudaGetLastError();
    return set_error(TCGEMM_ERROR_NO_DEVICE, "no CUDA device is available (cudaStreamSynchronize: %s: %s)",
                     cudaGetErrorName(e), cudaGetErrorString(e));
  }
  return set_cuda_error(e, "cudaStreamSynchronize");
}

}  // extern "C"
