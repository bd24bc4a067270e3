// See workspace.hpp.
#include "workspace.hpp"

#include <algorithm>
#include <condition_variable>
#include <map>
#include <mutex>

namespace tcgemm::pblas {
namespace {

struct Slot {
  GpuWorkspace ws;
  bool busy = false;
};
std::mutex& mutex() {
  static std::mutex m;
  return m;
}
std::condition_variable& returned() {
  static std::condition_variable cv;
  return cv;
}
std::map<int, Slot>& slots() {
  static auto* s = new std::map<int, Slot>;  // never destroyed: the CUDA runtime may be gone at exit
  return *s;
}

bool ok(cudaError_t e, const char* what, std::string* why) {
  if (e == cudaSuccess) return true;
  *why = std::string(what) + ": " + cudaGetErrorString(e);
  (void)cudaGetLastError();
  return false;
}

void free_device(double*& p) {
  if (p) (void)cudaFree(p);
  p = nullptr;
}
void free_host(double*& p) {
  if (p) (void)cudaFreeHost(p);
  p = nullptr;
}

void free_buffers(GpuWorkspace& w) {
  free_device(w.c);
  for (int i = 0; i < 2; ++i) {
    free_device(w.dev_a[i]);
    free_device(w.dev_b[i]);
    free_host(w.host_a[i]);
    free_host(w.host_b[i]);
    free_host(w.host_c[i]);
  }
  w.c_bytes = w.a_bytes = w.b_bytes = w.stage_bytes = 0;
}

void destroy(GpuWorkspace& w) {
  int previous = -1;
  (void)cudaGetDevice(&previous);
  (void)cudaSetDevice(w.device);
  free_buffers(w);
  for (int i = 0; i < 2; ++i) {
    if (w.uploaded[i]) (void)cudaEventDestroy(w.uploaded[i]);
    if (w.multiplied[i]) (void)cudaEventDestroy(w.multiplied[i]);
    if (w.staged[i]) (void)cudaEventDestroy(w.staged[i]);
    w.uploaded[i] = w.multiplied[i] = w.staged[i] = nullptr;
  }
  for (cudaEvent_t e : w.chunk_done) (void)cudaEventDestroy(e);
  w.chunk_done.clear();
  for (cudaStream_t* s : {&w.up_stream, &w.compute_stream, &w.c_stream}) {
    if (*s) (void)cudaStreamDestroy(*s);
    *s = nullptr;
  }
  (void)cudaGetLastError();
  if (previous >= 0) (void)cudaSetDevice(previous);
}

// Grows the buffers to the sizes asked (freeing the old ones first, so that memory is not needed twice).
bool grow(GpuWorkspace& w, size_t c_bytes, size_t a_bytes, size_t b_bytes, size_t stage_bytes, std::string* why) {
  if (!w.up_stream) {
    if (!ok(cudaStreamCreateWithFlags(&w.up_stream, cudaStreamNonBlocking), "cudaStreamCreate", why) ||
        !ok(cudaStreamCreateWithFlags(&w.compute_stream, cudaStreamNonBlocking), "cudaStreamCreate", why) ||
        !ok(cudaStreamCreateWithFlags(&w.c_stream, cudaStreamNonBlocking), "cudaStreamCreate", why))
      return false;
    for (int i = 0; i < 2; ++i)
      if (!ok(cudaEventCreateWithFlags(&w.uploaded[i], cudaEventDisableTiming), "cudaEventCreate", why) ||
          !ok(cudaEventCreateWithFlags(&w.multiplied[i], cudaEventDisableTiming), "cudaEventCreate", why) ||
          !ok(cudaEventCreateWithFlags(&w.staged[i], cudaEventDisableTiming), "cudaEventCreate", why))
        return false;
  }
  if (c_bytes > w.c_bytes) {
    free_device(w.c);
    w.c_bytes = 0;
    if (!ok(cudaMalloc(&w.c, c_bytes), "cudaMalloc of the local C", why)) return false;
    w.c_bytes = c_bytes;
  }
  if (a_bytes > w.a_bytes) {
    for (int i = 0; i < 2; ++i) {
      free_device(w.dev_a[i]);
      free_host(w.host_a[i]);
    }
    w.a_bytes = 0;
    for (int i = 0; i < 2; ++i)
      if (!ok(cudaMalloc(&w.dev_a[i], a_bytes), "cudaMalloc of an A panel", why) ||
          !ok(cudaMallocHost(&w.host_a[i], a_bytes), "cudaMallocHost of an A panel", why))
        return false;
    w.a_bytes = a_bytes;
  }
  if (b_bytes > w.b_bytes) {
    for (int i = 0; i < 2; ++i) {
      free_device(w.dev_b[i]);
      free_host(w.host_b[i]);
    }
    w.b_bytes = 0;
    for (int i = 0; i < 2; ++i)
      if (!ok(cudaMalloc(&w.dev_b[i], b_bytes), "cudaMalloc of a B panel", why) ||
          !ok(cudaMallocHost(&w.host_b[i], b_bytes), "cudaMallocHost of a B panel", why))
        return false;
    w.b_bytes = b_bytes;
  }
  if (stage_bytes > w.stage_bytes) {
    for (int i = 0; i < 2; ++i) free_host(w.host_c[i]);
    w.stage_bytes = 0;
    for (int i = 0; i < 2; ++i)
      if (!ok(cudaMallocHost(&w.host_c[i], stage_bytes), "cudaMallocHost of a C staging buffer", why)) return false;
    w.stage_bytes = stage_bytes;
  }
  return true;
}

}  // namespace

GpuWorkspace* acquire_gpu_workspace(int device, int64_t mloc, int64_t nloc, int64_t panel, std::string* why) {
  std::unique_lock<std::mutex> lock(mutex());
  Slot& slot = slots()[device];
  returned().wait(lock, [&] { return !slot.busy; });
  slot.busy = true;
  GpuWorkspace& w = slot.ws;
  w.device = device;
  const size_t d = sizeof(double);
  const size_t c_bytes = std::max<size_t>(d, size_t(mloc) * size_t(nloc) * d);
  const size_t a_bytes = std::max<size_t>(d, size_t(mloc) * size_t(panel) * d);
  const size_t b_bytes = std::max<size_t>(d, size_t(panel) * size_t(nloc) * d);
  const size_t stage_bytes = std::max<size_t>(kStageBytes, size_t(mloc) * d);  // at least one column
  if (!grow(w, c_bytes, a_bytes, b_bytes, stage_bytes, why)) {
    // A failed allocation (after a larger call, or next to the program's own data): start from nothing and
    // try once more, so the memory of the old buffers counts.
    free_buffers(w);
    std::string again;
    if (!grow(w, c_bytes, a_bytes, b_bytes, stage_bytes, &again)) {
      free_buffers(w);
      slot.busy = false;
      returned().notify_all();
      return nullptr;
    }
  }
  return &w;
}

void release_gpu_workspace(GpuWorkspace* ws) {
  std::lock_guard<std::mutex> lock(mutex());
  slots()[ws->device].busy = false;
  returned().notify_all();
}

void free_gpu_workspaces() {
  std::lock_guard<std::mutex> lock(mutex());
  for (auto& [device, slot] : slots())
    if (!slot.busy) destroy(slot.ws);
}

}  // namespace tcgemm::pblas
