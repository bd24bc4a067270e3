// The per-context pool of host-path engines (host_engine.hpp).
#include "host/host_engine.hpp"

#include <condition_variable>
#include <cstdlib>
#include <map>
#include <mutex>
#include <new>
#include <vector>

#include "core/env.hpp"
#include "core/errors.hpp"

namespace tcgemm::detail {
namespace {

// Engines per context: each holds kStagingBuffers * 2 pinned buffers, so this bounds the pinned memory a
// process takes (4 engines x 8 x 16 MiB = 512 MiB at most). More threads than this wait for a free engine;
// they would share the one host link anyway.
constexpr int kMaxEnginesPerContext = 4;
constexpr int64_t kDefaultStagingBytes = int64_t(16) << 20;

int64_t staging_buffer_bytes() {
  // TCGEMM_HOST_STAGING_BYTES: bytes of each staging buffer (at least 1 MiB, a multiple of 8).
  return env_int("TCGEMM_HOST_STAGING_BYTES", int64_t(1) << 20, INT64_MAX, kDefaultStagingBytes) / 8 * 8;
}

struct ContextEngines {
  std::vector<HostEngine*> idle;
  int count = 0;  // made and not destroyed
};
struct Pool {
  std::mutex mutex;
  std::condition_variable returned;
  std::map<uint64_t, ContextEngines> by_context;
};
Pool& pool() {
  static Pool* p = new Pool;  // never destroyed: used by threads that outlive static destruction
  return *p;
}

// Frees what exists of an engine; errors are not reported (the caller's status is) and not left pending.
void destroy(HostEngine* e) {
  for (cudaStream_t s : {e->upload, e->compute, e->download})
    if (s) (void)cudaStreamSynchronize(s);
  for (cudaStream_t s : {e->upload, e->compute, e->download})
    if (s) (void)cudaStreamDestroy(s);
  for (int i = 0; i < HostEngine::kStagingBuffers; ++i) {
    if (e->up_staging[i]) (void)cudaFreeHost(e->up_staging[i]);
    if (e->down_staging[i]) (void)cudaFreeHost(e->down_staging[i]);
    if (e->up_staging_free[i]) (void)cudaEventDestroy(e->up_staging_free[i]);
    if (e->down_staging_ready[i]) (void)cudaEventDestroy(e->down_staging_ready[i]);
  }
  for (int i = 0; i < HostEngine::kSlots; ++i)
    for (cudaEvent_t ev : {e->slot_uploaded[i], e->slot_computed[i], e->slot_free[i]})
      if (ev) (void)cudaEventDestroy(ev);
  for (cudaEvent_t ev : e->resident_used)
    if (ev) (void)cudaEventDestroy(ev);
  if (e->join) (void)cudaEventDestroy(e->join);
  delete e;
  (void)cudaGetLastError();
}

tcgemm_status make_event(cudaEvent_t* ev) {
  TCGEMM_CUDA_TRY(cudaEventCreateWithFlags(ev, cudaEventDisableTiming));
  return TCGEMM_SUCCESS;
}

tcgemm_status build(const DeviceContext& ctx, HostEngine* e) {
  for (cudaStream_t* s : {&e->upload, &e->compute, &e->download})
    TCGEMM_CUDA_TRY(cudaStreamCreateWithFlags(s, cudaStreamNonBlocking));
  e->staging_bytes = staging_buffer_bytes();
  for (int i = 0; i < HostEngine::kStagingBuffers; ++i) {
    TCGEMM_CUDA_TRY(cudaHostAlloc(reinterpret_cast<void**>(&e->up_staging[i]), size_t(e->staging_bytes),
                                  cudaHostAllocPortable));
    TCGEMM_CUDA_TRY(cudaHostAlloc(reinterpret_cast<void**>(&e->down_staging[i]), size_t(e->staging_bytes),
                                  cudaHostAllocPortable));
    TCGEMM_TRY(make_event(&e->up_staging_free[i]));
    TCGEMM_TRY(make_event(&e->down_staging_ready[i]));
  }
  for (int i = 0; i < HostEngine::kSlots; ++i) {
    TCGEMM_TRY(make_event(&e->slot_uploaded[i]));
    TCGEMM_TRY(make_event(&e->slot_computed[i]));
    TCGEMM_TRY(make_event(&e->slot_free[i]));
  }
  for (cudaEvent_t& ev : e->resident_used) TCGEMM_TRY(make_event(&ev));
  TCGEMM_TRY(make_event(&e->join));
  size_t free_bytes = 0, total_bytes = 0;
  TCGEMM_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total_bytes));
  e->device_memory = int64_t(total_bytes);
  int max_pitch = 0;
  TCGEMM_CUDA_TRY(cudaDeviceGetAttribute(&max_pitch, cudaDevAttrMaxPitch, ctx.device));
  e->max_pitch = max_pitch;
  return TCGEMM_SUCCESS;
}

}  // namespace

tcgemm_status acquire_host_engine(const DeviceContext& ctx, HostEngine** out) {
  *out = nullptr;
  Pool& all = pool();
  {
    std::unique_lock<std::mutex> lock(all.mutex);
    ContextEngines& mine = all.by_context[ctx.context_id];
    all.returned.wait(lock, [&] { return !mine.idle.empty() || mine.count < kMaxEnginesPerContext; });
    if (!mine.idle.empty()) {
      *out = mine.idle.back();
      mine.idle.pop_back();
      return TCGEMM_SUCCESS;
    }
    ++mine.count;  // reserved while it is built outside the lock
  }
  HostEngine* e = new (std::nothrow) HostEngine;
  const tcgemm_status st =
      e ? build(ctx, e) : set_error(TCGEMM_ERROR_CUDA, "tcgemm_dgemm_host: out of host memory for its streams");
  if (st != TCGEMM_SUCCESS) {
    if (e) destroy(e);
    std::lock_guard<std::mutex> lock(all.mutex);
    --all.by_context[ctx.context_id].count;
    all.returned.notify_all();
    return st;
  }
  *out = e;
  return TCGEMM_SUCCESS;
}

void release_host_engine(const DeviceContext& ctx, HostEngine* engine, bool healthy) {
  if (!engine) return;
  if (!healthy) destroy(engine);
  Pool& all = pool();
  std::lock_guard<std::mutex> lock(all.mutex);
  ContextEngines& mine = all.by_context[ctx.context_id];
  if (healthy) mine.idle.push_back(engine);
  else --mine.count;
  all.returned.notify_all();
}

void trim_host_engines(const DeviceContext& ctx) {
  std::vector<HostEngine*> idle;
  Pool& all = pool();
  {
    std::lock_guard<std::mutex> lock(all.mutex);
    ContextEngines& mine = all.by_context[ctx.context_id];
    idle.swap(mine.idle);
    mine.count -= int(idle.size());
  }
  for (HostEngine* e : idle) destroy(e);
}

}  // namespace tcgemm::detail
