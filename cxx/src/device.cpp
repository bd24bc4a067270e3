// Device gate, per-device property cache, and once-per-kernel attribute setup.
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <utility>

#include "launch.hpp"

namespace tcgemm::detail {
namespace {

constexpr int kMinCcMajor = 8;  // FP64 WMMA (DMMA) needs sm_80 or newer

std::mutex g_mutex;
std::map<int, DeviceContext> g_contexts;              // device -> cached properties
std::set<std::pair<const void*, int>> g_smem_raised;  // (kernel, device) whose smem limit is raised
std::map<std::pair<const void*, int>, int> g_binary_version;

bool is_no_device_error(cudaError_t e) {
  return e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver || e == cudaErrorInitializationError;
}

tcgemm_status query_context(int device, DeviceContext* ctx) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    auto it = g_contexts.find(device);
    if (it != g_contexts.end()) {
      *ctx = it->second;
      return TCGEMM_SUCCESS;
    }
  }
  DeviceContext c;
  c.device = device;
  int optin = 0, per_sm = 0;
  TCGEMM_CUDA_TRY(cudaDeviceGetAttribute(&c.cc_major, cudaDevAttrComputeCapabilityMajor, device));
  TCGEMM_CUDA_TRY(cudaDeviceGetAttribute(&c.cc_minor, cudaDevAttrComputeCapabilityMinor, device));
  TCGEMM_CUDA_TRY(cudaDeviceGetAttribute(&c.sm_count, cudaDevAttrMultiProcessorCount, device));
  TCGEMM_CUDA_TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  TCGEMM_CUDA_TRY(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
  c.smem_optin = optin;
  c.smem_per_sm = per_sm;
  std::lock_guard<std::mutex> lock(g_mutex);
  g_contexts[device] = c;
  *ctx = c;
  return TCGEMM_SUCCESS;
}

// Finds the device to use: `device` >= 0, or the calling thread's current device.
tcgemm_status resolve_device(int device, int* out) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (is_no_device_error(e) || (e == cudaSuccess && count == 0)) {
    (void)cudaGetLastError();
    return set_error(TCGEMM_ERROR_NO_DEVICE, "no CUDA device is available (%s: %s)",
                     e == cudaSuccess ? "cudaGetDeviceCount" : cudaGetErrorName(e),
                     e == cudaSuccess ? "0 devices" : cudaGetErrorString(e));
  }
  if (e != cudaSuccess) return set_cuda_error(e, "cudaGetDeviceCount");
  if (device < 0) {
    TCGEMM_CUDA_TRY(cudaGetDevice(&device));
  } else if (device >= count) {
    return set_error(TCGEMM_ERROR_INVALID_ARGUMENT, "device=%d: must be < the number of CUDA devices (%d)", device,
                     count);
  }
  *out = device;
  return TCGEMM_SUCCESS;
}

}  // namespace

tcgemm_status device_gate(int requested, DeviceContext* ctx) {
  int device = 0;
  TCGEMM_TRY(resolve_device(requested, &device));
  TCGEMM_TRY(query_context(device, ctx));
  if (ctx->cc_major < kMinCcMajor)
    return set_error(TCGEMM_ERROR_ARCHITECTURE,
                     "device %d has compute capability %d.%d; tcgemm's FP64 tensor-core kernels need 8.0 or newer",
                     device, ctx->cc_major, ctx->cc_minor);
  return TCGEMM_SUCCESS;
}

tcgemm_status ensure_dynamic_smem_limit(const void* kernel, const DeviceContext& ctx, const char* kernel_name) {
  const auto key = std::make_pair(kernel, ctx.device);
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_smem_raised.count(key)) return TCGEMM_SUCCESS;
  }
  cudaFuncAttributes attr;
  cudaError_t e = cudaFuncGetAttributes(&attr, kernel);
  if (e != cudaSuccess) return set_cuda_error(e, kernel_name);
  // The opt-in limit covers static + dynamic shared memory; leave room for the kernel's static part.
  const int dynamic_max = int(ctx.smem_optin) - int(attr.sharedSizeBytes);
  e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, dynamic_max);
  if (e != cudaSuccess) return set_cuda_error(e, "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)");
  std::lock_guard<std::mutex> lock(g_mutex);
  g_smem_raised.insert(key);
  return TCGEMM_SUCCESS;
}

tcgemm_status check_kernel_image(const void* kernel, const DeviceContext& ctx, const char* kernel_name,
                                 int min_binary_version) {
  const auto key = std::make_pair(kernel, ctx.device);
  int version = -1;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    auto it = g_binary_version.find(key);
    if (it != g_binary_version.end()) version = it->second;
  }
  if (version < 0) {
    cudaFuncAttributes attr;
    cudaError_t e = cudaFuncGetAttributes(&attr, kernel);
    if (e == cudaErrorInvalidDeviceFunction || e == cudaErrorNoKernelImageForDevice) {
      (void)cudaGetLastError();
      return set_error(TCGEMM_ERROR_ARCHITECTURE,
                       "%s: this build of tcgemm has no code for device %d (compute capability %d.%d): %s; rebuild "
                       "with CMAKE_CUDA_ARCHITECTURES including %d%d",
                       kernel_name, ctx.device, ctx.cc_major, ctx.cc_minor, cudaGetErrorString(e), ctx.cc_major,
                       ctx.cc_minor);
    }
    if (e != cudaSuccess) return set_cuda_error(e, kernel_name);
    version = attr.binaryVersion;
    std::lock_guard<std::mutex> lock(g_mutex);
    g_binary_version[key] = version;
  }
  if (version < min_binary_version)
    return set_error(TCGEMM_ERROR_ARCHITECTURE,
                     "%s: the loaded code is for sm_%d but this kernel needs sm_%d code; rebuild with "
                     "CMAKE_CUDA_ARCHITECTURES including %d",
                     kernel_name, version, min_binary_version, min_binary_version);
  return TCGEMM_SUCCESS;
}

}  // namespace tcgemm::detail

extern "C" tcgemm_status tcgemm_device_info_get(int32_t device, tcgemm_device_info* info) {
  using namespace tcgemm::detail;
  clear_error();
  if (!info) return set_error(TCGEMM_ERROR_INVALID_ARGUMENT, "info is NULL");
  int dev = 0;
  TCGEMM_TRY(resolve_device(device, &dev));
  DeviceContext ctx;
  TCGEMM_TRY(query_context(dev, &ctx));
  cudaDeviceProp prop;
  TCGEMM_CUDA_TRY(cudaGetDeviceProperties(&prop, dev));
  std::memset(info, 0, sizeof *info);
  std::snprintf(info->name, sizeof info->name, "%s", prop.name);
  info->device = dev;
  info->cc_major = ctx.cc_major;
  info->cc_minor = ctx.cc_minor;
  info->sm_count = ctx.sm_count;
  info->shared_memory_per_block_optin = ctx.smem_optin;
  info->shared_memory_per_sm = ctx.smem_per_sm;
  info->global_memory = int64_t(prop.totalGlobalMem);
  return TCGEMM_SUCCESS;
}
