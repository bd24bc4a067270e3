// Routing of libtcgemm_blas's DGEMM calls (route.hpp).
#include "route.hpp"

#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "host_blas.hpp"
#include "tcgemm/tcgemm.h"

namespace tcgemm::blas {
namespace {

// A positive, finite number ("inf", "1e999" and "nan" give the fallback: the routing divides by these rates).
double env_double(const char* name, double fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const double x = std::strtod(v, &end);
  return (end && *end == '\0' && std::isfinite(x) && x > 0.0) ? x : fallback;
}

enum class Forced { Auto, Gpu, Host };

struct Settings {
  Forced forced = Forced::Auto;
  bool verbose = false;
  double link_gbs, pinned_link_gbs, gpu_tflops, host_gflops, gpu_overhead_us;
};

const Settings& settings() {
  static const Settings s = [] {
    Settings x;
    const char* route = std::getenv("TCGEMM_BLAS_ROUTE");
    if (route && std::strcmp(route, "gpu") == 0) x.forced = Forced::Gpu;
    if (route && std::strcmp(route, "host") == 0) x.forced = Forced::Host;
    const char* verbose = std::getenv("TCGEMM_BLAS_VERBOSE");
    x.verbose = verbose && *verbose && std::strcmp(verbose, "0") != 0;
    // Defaults: the H100 machine's measured rates through tcgemm's pipelined host path (pageable arrays
    // about 30 GB/s through its staging threads, pinned 50 GB/s each way), tcgemm's large-square speed, and
    // a modest multicore host BLAS; each call can be reported with TCGEMM_BLAS_VERBOSE=1 to tune them.
    x.link_gbs = env_double("TCGEMM_BLAS_LINK_GBS", 25.0);
    x.pinned_link_gbs = env_double("TCGEMM_BLAS_PINNED_LINK_GBS", 50.0);
    x.gpu_tflops = env_double("TCGEMM_BLAS_GPU_TFLOPS", 50.0);
    x.host_gflops = env_double("TCGEMM_BLAS_HOST_GFLOPS", 100.0);
    x.gpu_overhead_us = env_double("TCGEMM_BLAS_GPU_OVERHEAD_US", 100.0);
    return x;
  }();
  return s;
}

// A usable CUDA device (asked once; without one every call goes to the host BLAS).
bool gpu_available() {
  static const bool available = [] {
    int count = 0;
    const bool ok = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
    (void)cudaGetLastError();
    return ok;
  }();
  return available;
}

// Whether the process has any CUDA context (current on this thread, or a device's primary context active).
// Without one no pointer can be device or managed memory, so a call the model sends to the host BLAS need not
// touch the GPU: a code whose DGEMMs are all small (or an MPI job with libtcgemm_blas preloaded in every rank)
// then never creates a context or takes GPU memory. The driver functions are reached through the runtime, so
// the library needs no link-time libcuda. When this cannot be told, the answer is "yes" (pointers checked).
bool cuda_context_exists() {
  struct Api {
    CUresult (*get_current)(CUcontext*) = nullptr;
    CUresult (*primary_state)(CUdevice, unsigned*, int*) = nullptr;
  };
  static const Api api = [] {
    Api a;
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 12000, cudaEnableDefault, &found) == cudaSuccess &&
        found == cudaDriverEntryPointSuccess)
      a.get_current = reinterpret_cast<CUresult (*)(CUcontext*)>(fn);
    if (cudaGetDriverEntryPointByVersion("cuDevicePrimaryCtxGetState", &fn, 12000, cudaEnableDefault, &found) ==
            cudaSuccess &&
        found == cudaDriverEntryPointSuccess)
      a.primary_state = reinterpret_cast<CUresult (*)(CUdevice, unsigned*, int*)>(fn);
    (void)cudaGetLastError();
    return a;
  }();
  if (!api.get_current || !api.primary_state) return true;
  CUcontext current = nullptr;
  if (api.get_current(&current) == CUDA_SUCCESS && current) return true;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();
    return true;
  }
  for (int d = 0; d < count; ++d) {
    unsigned flags = 0;
    int active = 0;
    if (api.primary_state(d, &flags, &active) != CUDA_SUCCESS || active) return true;
  }
  return false;
}

enum class Memory { Host, Pinned, Device };  // Device: device or managed memory (GPU-accessible in place)

Memory memory_of(const void* p) {
  cudaPointerAttributes a{};
  if (!p || cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return Memory::Host;
  }
  if (a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged) return Memory::Device;
  if (a.type == cudaMemoryTypeHost) return Memory::Pinned;
  return Memory::Host;
}

const char* route_name(int r) {
  static const char* const names[] = {"host", "gpu (host arrays)", "gpu (device arrays)"};
  return names[r];
}

}  // namespace

void run_dgemm(const DgemmCall& c, const char* entry) {
  const Settings& s = settings();
  const auto t0 = std::chrono::steady_clock::now();
  const double flops = 2.0 * double(c.m) * double(c.n) * double(c.k);
  const bool read_ab = c.alpha != 0.0 && c.k > 0;
  const double a_elems = read_ab ? double(c.m) * double(c.k) : 0.0, b_elems = read_ab ? double(c.k) * double(c.n) : 0.0;
  const double c_elems = double(c.m) * double(c.n) * (c.beta != 0.0 ? 2.0 : 1.0);
  const double bytes = 8.0 * (a_elems + b_elems + c_elems);

  enum { kHost = 0, kGpuHostArrays = 1, kGpuInPlace = 2 };
  int route = kHost;
  double gpu_us = 0.0, host_us = flops / (s.host_gflops * 1e3);
  bool pinned = false;
  // The GPU could win only if it did with the pinned link rate; otherwise, without a CUDA context, the call
  // goes to the host BLAS without touching the GPU (see cuda_context_exists).
  // The host path overlaps its copies with the products (host/pipelined_dgemm.hpp): the slower of the two
  // sets the time.
  auto gpu_time_us = [&](double link_gbs) {
    return std::max(bytes / (link_gbs * 1e3), flops / (s.gpu_tflops * 1e6)) + s.gpu_overhead_us;
  };
  const bool gpu_might_win = s.forced == Forced::Gpu || gpu_time_us(s.pinned_link_gbs) < host_us;
  if (s.forced != Forced::Host && gpu_available() && (gpu_might_win || cuda_context_exists())) {
    const Memory ma = read_ab ? memory_of(c.A) : Memory::Host, mb = read_ab ? memory_of(c.B) : Memory::Host;
    const Memory mc = memory_of(c.C);
    const bool any_device = ma == Memory::Device || mb == Memory::Device || mc == Memory::Device;
    const bool all_device = (!read_ab || (ma == Memory::Device && mb == Memory::Device)) && mc == Memory::Device;
    if (any_device && !all_device) {
      std::fprintf(stderr,
                   "tcgemm_blas: %s: A, B and C must all be host arrays or all be device (or managed) arrays\n",
                   entry);
      std::abort();
    }
    pinned = (!read_ab || (ma == Memory::Pinned && mb == Memory::Pinned)) && mc == Memory::Pinned;
    gpu_us = gpu_time_us(pinned ? s.pinned_link_gbs : s.link_gbs);
    if (all_device) route = kGpuInPlace;
    else if (s.forced == Forced::Gpu || gpu_us < host_us) route = kGpuHostArrays;
  }

  tcgemm_status st = TCGEMM_SUCCESS;
  if (route == kGpuInPlace) {
    st = tcgemm_dgemm(c.transa, c.transb, c.m, c.n, c.k, c.alpha, c.A, c.lda, c.B, c.ldb, c.beta, c.C, c.ldc,
                      nullptr);
    if (st == TCGEMM_SUCCESS && cudaStreamSynchronize(nullptr) != cudaSuccess) st = TCGEMM_ERROR_CUDA;
    if (st != TCGEMM_SUCCESS) {
      // Device arrays cannot go to the host BLAS: nothing can compute this call.
      std::fprintf(stderr, "tcgemm_blas: %s on device arrays failed: %s\n", entry, tcgemm_last_error());
      std::abort();
    }
  } else if (route == kGpuHostArrays) {
    st = tcgemm_dgemm_host(c.transa, c.transb, c.m, c.n, c.k, c.alpha, c.A, c.lda, c.B, c.ldb, c.beta, c.C, c.ldc);
    if (st != TCGEMM_SUCCESS) {
      // The host BLAS computes the call instead, from the caller's C as it was: a failure before any C tile
      // came back left C unchanged, and with beta == 0 C is not read. A failure in the middle of the
      // pipeline with beta != 0 has replaced part of C by results, and nothing can recompute from it.
      if (tcgemm_last_error_output_written() && c.beta != 0.0) {
        std::fprintf(stderr, "tcgemm_blas: %s: GPU route failed after writing part of C: %s\n", entry,
                     tcgemm_last_error());
        std::abort();
      }
      std::fprintf(stderr, "tcgemm_blas: %s: GPU route failed (%s); using the host BLAS\n", entry,
                   tcgemm_last_error());
      route = kHost;
    }
  }
  if (route == kHost) host_dgemm(c.transa, c.transb, c.m, c.n, c.k, c.alpha, c.A, c.lda, c.B, c.ldb, c.beta, c.C, c.ldc);

  if (s.verbose) {
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::fprintf(stderr,
                 "tcgemm_blas: %s %lldx%lldx%lld %c%c route=%s%s model gpu %.1f us host %.1f us; %.3f ms%s%s\n",
                 entry, static_cast<long long>(c.m), static_cast<long long>(c.n), static_cast<long long>(c.k),
                 c.transa, c.transb, route_name(route), pinned ? " pinned" : "", gpu_us, host_us, ms,
                 route == kHost ? " via " : "", route == kHost ? host_blas_name() : "");
  }
}

}  // namespace tcgemm::blas
