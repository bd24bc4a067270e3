// Host-array DGEMM, for callers (Fortran above all) that do not manage device memory themselves.
//
// Memory and stream policy of tcgemm_dgemm_host (documented in tcgemm.h):
//   - the work is spread over the host device list (host/device_list.hpp: tcgemm_set_host_devices,
//     TCGEMM_DEVICES, TCGEMM_DEVICE, the local rank, else every device) in contiguous blocks of C, one host
//     thread per block (host/multi_device.hpp); each block goes through the pipelined host path
//     (host/pipelined_dgemm.hpp): one operand resident on the GPU, the other and C streamed in panels on three streams of an engine that tcgemm keeps per CUDA
//     context (host/host_engine.hpp), so uploads, products and downloads overlap; calls from several threads
//     take separate engines (up to four per context, then they wait) and never use the legacy default stream;
//   - device buffers come from tcgemm's memory pool (core/memory_pool), one per CUDA context, shared by all
//     threads, trimmed to its retain limit after each call; pinned staging buffers belong to the engines;
//   - pools and engines are keyed by context id: after cudaDeviceReset new ones are made and nothing of the
//     destroyed context is touched again.
#include <algorithm>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "api/gemm_call.hpp"
#include "core/arguments.hpp"
#include "core/checked_math.hpp"
#include "core/device.hpp"
#include "core/errors.hpp"
#include "core/memory_pool.hpp"
#include "host/device_list.hpp"
#include "host/host_engine.hpp"
#include "host/multi_device.hpp"

using namespace tcgemm::detail;

extern "C" {

tcgemm_status tcgemm_dgemm_host(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha,
                                const double* A, int64_t lda, const double* B, int64_t ldb, double beta, double* C,
                                int64_t ldc) {
  clear_error();
  const GemmProblem in = blas_problem(transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
  GemmProblem p;
  TCGEMM_TRY(validate_problem(in, ArgNaming::Blas, kBlasPositions, &p));
  if (p.m == 0 || p.n == 0) return TCGEMM_SUCCESS;
  if ((p.alpha == 0.0 || p.k == 0) && p.beta == 1.0) return TCGEMM_SUCCESS;

  // The devices (device_list.hpp): the thread's list, TCGEMM_DEVICES, TCGEMM_DEVICE, the local rank, or all;
  // each passes the gate (architecture) without a context being made on it yet.
  std::vector<int> devices;
  TCGEMM_TRY(host_device_list(&devices));
  for (size_t i = 0; i < devices.size(); ++i) {
    if (std::find(devices.begin(), devices.begin() + i, devices[i]) != devices.begin() + i) continue;
    DeviceContext ctx;
    TCGEMM_TRY(device_gate(devices[i], &ctx));
  }
  if (p.alpha == 0.0 || p.k == 0) {
    // C = beta * C touches nothing but C: on the host, where it is, rather than over the link twice. beta = 0
    // writes zeros without reading C (it may hold NaN).
    for (int64_t j = 0; j < p.n; ++j) {
      double* c = p.C + j * p.ldc;
      for (int64_t i = 0; i < p.m; ++i) c[i] = p.beta == 0.0 ? 0.0 : p.beta * c[i];
    }
    return TCGEMM_SUCCESS;
  }
  TCGEMM_TRY(take_pending_cuda_error());
  bool c_written = false;
  tcgemm_status st = TCGEMM_SUCCESS;
  try {
    st = multi_device_host_dgemm(p, devices, &c_written);
  } catch (const std::exception& ex) {
    // Only host resources can throw here (memory, threads); nothing may cross into a C or Fortran caller.
    // The engine's lease and the streams' drain ran during the unwinding.
    st = set_error(TCGEMM_ERROR_CUDA, "tcgemm_dgemm_host: out of host resources: %s", ex.what());
  }
  if (st != TCGEMM_SUCCESS && c_written) {
    const std::string reason = tcgemm_last_error();
    set_error(st, "%s; C was partly written (tiles that came back before the failure, and possibly part of "
              "the one coming back, hold the result; the rest is unchanged)", reason.c_str());
    set_output_written(true);
  }
  return st;
}

tcgemm_status tcgemm_set_host_devices(const int32_t* devices, int32_t count) {
  clear_error();
  if (count < 0) return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 2, "count=%d: must be >= 0", int(count));
  if (count > kMaxHostDevices)
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 2, "count=%d: at most %d devices", int(count), kMaxHostDevices);
  if (count == 0) {
    set_thread_host_devices({});
    return TCGEMM_SUCCESS;
  }
  if (!devices) return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 1, "devices is NULL with count=%d", int(count));
  for (int32_t i = 0; i < count; ++i)
    if (devices[i] < 0)
      return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 1, "devices[%d] = %d: a device ordinal must be >= 0", int(i),
                           int(devices[i]));
  int visible = 0;
  TCGEMM_TRY(visible_device_count(&visible));
  for (int32_t i = 0; i < count; ++i)
    if (devices[i] >= visible)
      return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 1,
                           "devices[%d] = %d: must be < the number of CUDA devices (%d)", int(i), int(devices[i]),
                           visible);
  set_thread_host_devices(std::vector<int>(devices, devices + count));
  return TCGEMM_SUCCESS;
}

tcgemm_status tcgemm_get_host_devices(int32_t* devices, int32_t capacity, int32_t* count) {
  clear_error();
  if (capacity < 0) return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 2, "capacity=%d: must be >= 0", int(capacity));
  if (!devices && capacity > 0)
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 1, "devices is NULL with capacity=%d", int(capacity));
  if (!count) return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 3, "count is NULL");
  *count = 0;
  std::vector<int> list;
  TCGEMM_TRY(host_device_list(&list));
  for (size_t i = 0; i < list.size() && int64_t(i) < capacity; ++i) devices[i] = list[i];
  *count = int32_t(list.size());
  return TCGEMM_SUCCESS;
}

tcgemm_status tcgemm_release_workspace(void) {
  clear_error();
  // Trims the current context's pool to nothing. Pools of other devices keep at most the retain limit; the
  // entry of a context destroyed by cudaDeviceReset is never used again (its id never comes back).
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    return TCGEMM_SUCCESS;  // no device: nothing was ever allocated
  }
  DeviceContext ctx;
  TCGEMM_TRY(device_gate(-1, &ctx));
  trim_host_engines(ctx);
  TCGEMM_TRY(trim_context_pool(ctx));
  return TCGEMM_SUCCESS;
}

}  // extern "C"
