// Device gate, per-device property cache, context identity, and once-per-kernel attribute setup.
#include <cuda.h>  // CUcontext and the driver entry points' types; the functions come via the runtime

#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <tuple>
#include <utility>

#include "core/device.hpp"
#include "core/errors.hpp"

namespace tcgemm::detail {
namespace {

constexpr int kMinCcMajor = 8;  // FP64 WMMA (DMMA) needs sm_80 or newer

std::mutex g_mutex;
std::map<int, DeviceContext> g_devices;                    // device -> cached properties (fixed for its life)
std::set<std::pair<const void*, uint64_t>> g_smem_raised;  // (kernel, context id) whose smem limit is raised
std::map<std::pair<const void*, uint64_t>, int> g_resident_blocks;  // (kernel, context id) -> blocks per SM
// (kernel, context id, dynamic shared memory, cluster size) -> clusters at once
std::map<std::tuple<const void*, uint64_t, size_t, int>, int> g_active_clusters;

// Makes `device` the calling thread's current device for the scope's lifetime and restores the previous one,
// for queries (cudaFuncGetAttributes) that answer for the current device only.
class DeviceScope {
 public:
  explicit DeviceScope(int device) {
    if (cudaGetDevice(&previous_) != cudaSuccess) {
      (void)cudaGetLastError();
      previous_ = -1;
    }
    if (previous_ != device) status_ = cudaSetDevice(device);
  }
  ~DeviceScope() {
    if (previous_ >= 0 && status_ == cudaSuccess && cudaSetDevice(previous_) != cudaSuccess) (void)cudaGetLastError();
  }
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;
  cudaError_t status() const { return status_; }

 private:
  int previous_ = -1;
  cudaError_t status_ = cudaSuccess;
};

tcgemm_status query_device(int device, DeviceContext* ctx) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    auto it = g_devices.find(device);
    if (it != g_devices.end()) {
      *ctx = it->second;
      return TCGEMM_SUCCESS;
    }
  }
  DeviceContext c;
  c.device = device;
  int optin = 0, per_sm = 0, l2 = 0;
  TCGEMM_CUDA_TRY(cudaDeviceGetAttribute(&c.cc_major, cudaDevAttrComputeCapabilityMajor, device));
  TCGEMM_CUDA_TRY(cudaDeviceGetAttribute(&c.cc_minor, cudaDevAttrComputeCapabilityMinor, device));
  TCGEMM_CUDA_TRY(cudaDeviceGetAttribute(&c.sm_count, cudaDevAttrMultiProcessorCount, device));
  TCGEMM_CUDA_TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  TCGEMM_CUDA_TRY(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
  TCGEMM_CUDA_TRY(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  c.smem_optin = optin;
  c.smem_per_sm = per_sm;
  c.l2_bytes = l2;
  // Memory clock (kHz) and bus width (bits): the plan model tells an H200 from an H100 by them (the same SMs,
  // 4.8 against 3.35 TB/s). Not every device reports them; the model then keeps its H100 constants.
  int mem_khz = 0, bus_bits = 0;
  if (cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, device) == cudaSuccess &&
      cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device) == cudaSuccess)
    c.hbm_peak_bytes_per_us = peak_memory_bytes_per_us(mem_khz, bus_bits);
  else
    (void)cudaGetLastError();  // clears the failed query's error (the attributes are optional)
  std::lock_guard<std::mutex> lock(g_mutex);
  g_devices[device] = c;
  *ctx = c;
  return TCGEMM_SUCCESS;
}

// The driver's cuCtxGetCurrent and cuCtxGetId, reached through the runtime (cudaGetDriverEntryPointByVersion),
// so that tcgemm needs no link-time dependency on libcuda and still loads on machines without a driver.
struct DriverContextApi {
  CUresult (*get_current)(CUcontext*) = nullptr;
  CUresult (*get_id)(CUcontext, unsigned long long*) = nullptr;
};

const DriverContextApi& driver_context_api() {
  static const DriverContextApi api = [] {
    DriverContextApi a;
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    // 12000: both functions exist since CUDA 12.0 (cuCtxGetId was added then).
    if (cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 12000, cudaEnableDefault, &found) == cudaSuccess &&
        found == cudaDriverEntryPointSuccess)
      a.get_current = reinterpret_cast<CUresult (*)(CUcontext*)>(fn);
    if (cudaGetDriverEntryPointByVersion("cuCtxGetId", &fn, 12000, cudaEnableDefault, &found) == cudaSuccess &&
        found == cudaDriverEntryPointSuccess)
      a.get_id = reinterpret_cast<CUresult (*)(CUcontext, unsigned long long*)>(fn);
    (void)cudaGetLastError();
    return a;
  }();
  return api;
}

bool read_current_context_id(uint64_t* id) {
  const DriverContextApi& api = driver_context_api();
  CUcontext current = nullptr;
  unsigned long long value = 0;
  if (!api.get_current || !api.get_id || api.get_current(&current) != CUDA_SUCCESS || !current ||
      api.get_id(current, &value) != CUDA_SUCCESS)
    return false;
  *id = value;
  return true;
}

// The id of the context the runtime launches into on this thread. Before the runtime's first use on the
// thread, and after cudaDeviceReset destroyed the context, there is none (or a dead one): cudaSetDevice makes
// the device's primary context current (since CUDA 12 it initialises it), and the read is repeated.
tcgemm_status current_context_id(int device, uint64_t* id) {
  if (read_current_context_id(id)) return TCGEMM_SUCCESS;
  TCGEMM_CUDA_TRY(cudaSetDevice(device));
  if (read_current_context_id(id)) return TCGEMM_SUCCESS;
  // Without the driver entry points (a driver older than CUDA 12) there is no id: 0 then stands for
  // "unknown", and the per-context caches behave as before (one context per device for the process).
  *id = 0;
  return TCGEMM_SUCCESS;
}

// Finds the device to use: `device` >= 0, or the calling thread's current device.
tcgemm_status resolve_device(int device, int device_arg_pos, int* out) {
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
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, device_arg_pos,
                         "device=%d: must be < the number of CUDA devices (%d)", device, count);
  }
  *out = device;
  return TCGEMM_SUCCESS;
}

}  // namespace

bool is_no_device_error(cudaError_t e) {
  return e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver || e == cudaErrorInitializationError;
}

tcgemm_status device_gate(int requested, DeviceContext* ctx, int device_arg_pos) {
  int device = 0;
  TCGEMM_TRY(resolve_device(requested, device_arg_pos, &device));
  TCGEMM_TRY(query_device(device, ctx));
  if (ctx->cc_major < kMinCcMajor)
    return set_error(TCGEMM_ERROR_ARCHITECTURE,
                     "device %d has compute capability %d.%d; tcgemm's FP64 tensor-core kernels need 8.0 or newer",
                     device, ctx->cc_major, ctx->cc_minor);
  // The context id matters only where tcgemm launches: into the current device's context. Every launching
  // entry point asks for the current device (requested < 0); the queries about a named device do not launch.
  if (requested < 0) TCGEMM_TRY(current_context_id(device, &ctx->context_id));
  return TCGEMM_SUCCESS;
}

namespace {
// ensure_dynamic_smem_limit's work; records nothing. *what names the CUDA call that failed.
cudaError_t raise_dynamic_smem_limit(const void* kernel, const DeviceContext& ctx, const char** what) {
  const auto key = std::make_pair(kernel, ctx.context_id);
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_smem_raised.count(key)) return cudaSuccess;
  }
  cudaFuncAttributes attr;
  cudaError_t e = cudaFuncGetAttributes(&attr, kernel);
  if (e != cudaSuccess) return e;
  // The opt-in limit covers static + dynamic shared memory; leave room for the kernel's static part.
  const int dynamic_max = int(ctx.smem_optin) - int(attr.sharedSizeBytes);
  e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, dynamic_max);
  if (e != cudaSuccess) {
    *what = "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)";
    return e;
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  g_smem_raised.insert(key);
  return cudaSuccess;
}
}  // namespace

tcgemm_status ensure_dynamic_smem_limit(const void* kernel, const DeviceContext& ctx, const char* kernel_name) {
  const char* what = kernel_name;
  const cudaError_t e = raise_dynamic_smem_limit(kernel, ctx, &what);
  return e == cudaSuccess ? TCGEMM_SUCCESS : set_cuda_error(e, what);
}

int resident_blocks_per_sm(const void* kernel, const DeviceContext& ctx, int threads, size_t dynamic_smem,
                           int fallback) {
  const auto key = std::make_pair(kernel, ctx.context_id);
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    const auto it = g_resident_blocks.find(key);
    if (it != g_resident_blocks.end()) return it->second;
  }
  int n = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, threads, dynamic_smem) != cudaSuccess || n < 1) {
    (void)cudaGetLastError();
    n = fallback;
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  g_resident_blocks.emplace(key, n);
  return n;
}

int max_active_clusters(const void* kernel, const DeviceContext& ctx, int threads, size_t dynamic_smem,
                        int cluster_y) {
  const auto key = std::make_tuple(kernel, ctx.context_id, dynamic_smem, cluster_y);
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    const auto it = g_active_clusters.find(key);
    if (it != g_active_clusters.end()) return it->second;
  }
  const char* what = "";
  if (raise_dynamic_smem_limit(kernel, ctx, &what) != cudaSuccess) {
    (void)cudaGetLastError();  // no answer (not cached: a later call may get one); the caller's bound applies
    return -1;
  }
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(1, static_cast<unsigned>(cluster_y), 1);
  config.blockDim = dim3(static_cast<unsigned>(threads), 1, 1);
  config.dynamicSmemBytes = dynamic_smem;
  cudaLaunchAttribute cluster;
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = 1;
  cluster.val.clusterDim.y = static_cast<unsigned>(cluster_y);
  cluster.val.clusterDim.z = 1;
  config.attrs = &cluster;
  config.numAttrs = 1;
  int n = 0;
  if (cudaOccupancyMaxActiveClusters(&n, kernel, &config) != cudaSuccess || n < 0) {
    (void)cudaGetLastError();
    return -1;
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  g_active_clusters.emplace(key, n);
  return n;
}

cudaError_t kernel_code_version(const void* kernel, int device, int* version) {
  cudaFuncAttributes attr;
  cudaError_t e;
  {
    // cudaFuncGetAttributes answers for the current device.
    DeviceScope scope(device);
    e = scope.status();
    if (e == cudaSuccess) e = cudaFuncGetAttributes(&attr, kernel);
  }
  if (e != cudaSuccess) (void)cudaGetLastError();
  if (e == cudaErrorInvalidDeviceFunction || e == cudaErrorNoKernelImageForDevice) {
    *version = 0;
    return cudaSuccess;
  }
  if (e != cudaSuccess) return e;
  *version = attr.binaryVersion < attr.ptxVersion ? attr.binaryVersion : attr.ptxVersion;
  return cudaSuccess;
}

CurrentDeviceSwitch::CurrentDeviceSwitch(int device) {
  // Whether the thread has a current context (without the driver entry points: assume it has, and restore).
  const DriverContextApi& api = driver_context_api();
  CUcontext current = nullptr;
  const bool had_context = !api.get_current || (api.get_current(&current) == CUDA_SUCCESS && current);
  int previous = -1;
  if (cudaGetDevice(&previous) != cudaSuccess) {
    (void)cudaGetLastError();
    previous = -1;
  }
  if (previous == device && had_context) return;
  status_ = cudaSetDevice(device);
  if (status_ != cudaSuccess) return;
  if (had_context && previous >= 0) previous_ = previous;
}

CurrentDeviceSwitch::~CurrentDeviceSwitch() {
  if (previous_ >= 0 && cudaSetDevice(previous_) != cudaSuccess) (void)cudaGetLastError();
}

}  // namespace tcgemm::detail

extern "C" tcgemm_status tcgemm_device_info_get(int32_t device, tcgemm_device_info* info) {
  using namespace tcgemm::detail;
  clear_error();
  if (!info) return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 2, "info is NULL");
  int dev = 0;
  TCGEMM_TRY(resolve_device(device, 1, &dev));
  DeviceContext ctx;
  TCGEMM_TRY(query_device(dev, &ctx));
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
