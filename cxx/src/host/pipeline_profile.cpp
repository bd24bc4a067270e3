// PipelineProfile (pipeline_profile.hpp).
#include "host/pipeline_profile.hpp"

#include <algorithm>
#include <cstdio>

#include "core/env.hpp"
#include "host/pipelined_dgemm.hpp"

namespace tcgemm::detail {

PipelineProfile::PipelineProfile() {
  on_ = env_flag("TCGEMM_HOST_PROFILE");
}

PipelineProfile::~PipelineProfile() {
  for (cudaEvent_t e : all_) (void)cudaEventDestroy(e);
}

cudaEvent_t PipelineProfile::make() {
  cudaEvent_t e = nullptr;
  if (cudaEventCreate(&e) != cudaSuccess) {
    (void)cudaGetLastError();  // a diagnostic must not leave an error for the call to find
    failed_ = true;
    return nullptr;
  }
  all_.push_back(e);
  return e;
}

void PipelineProfile::start(cudaStream_t stream) {
  if (!on_) return;
  zero_ = make();
  if (zero_ && cudaEventRecord(zero_, stream) != cudaSuccess) (void)cudaGetLastError(), failed_ = true;
}

int PipelineProfile::begin(Kind kind, cudaStream_t stream) {
  if (!on_) return -1;
  Span s{kind, make(), make()};
  if (s.begin && cudaEventRecord(s.begin, stream) != cudaSuccess) (void)cudaGetLastError(), failed_ = true;
  spans_.push_back(s);
  return int(spans_.size()) - 1;
}

void PipelineProfile::end(int span, cudaStream_t stream) {
  if (!on_ || span < 0) return;
  cudaEvent_t e = spans_[size_t(span)].end;
  if (e && cudaEventRecord(e, stream) != cudaSuccess) (void)cudaGetLastError(), failed_ = true;
}

void PipelineProfile::report(int64_t m, int64_t n, int64_t k, const HostSchedule& s, bool pinned, int64_t bytes_up,
                             int64_t bytes_down) {
  if (!on_ || failed_ || !zero_ || spans_.empty()) return;
  // Milliseconds from time zero to an event; -1 if CUDA cannot say (the call then prints nothing).
  auto at = [&](cudaEvent_t e) {
    float ms = 0.0f;
    if (!e || cudaEventElapsedTime(&ms, zero_, e) != cudaSuccess) {
      (void)cudaGetLastError();
      return -1.0;
    }
    return double(ms);
  };
  double busy[3] = {0, 0, 0}, first_product = -1.0, last_upload = 0.0, wall = 0.0;
  for (const Span& sp : spans_) {
    const double b = at(sp.begin), e = at(sp.end);
    if (b < 0 || e < 0) return;
    busy[sp.kind] += e - b;
    wall = std::max(wall, e);
    if (sp.kind == kCompute && first_product < 0) first_product = b;
    if (sp.kind == kUpload) last_upload = std::max(last_upload, e);
  }
  const int64_t resident_len = s.resident_a ? m : n, streamed_len = s.resident_a ? n : m;
  const int64_t chunks = (resident_len + s.resident_chunk - 1) / s.resident_chunk;
  const int64_t panels = host_panel_count(s, streamed_len);
  auto gbs = [](int64_t bytes, double ms) { return ms > 0 ? double(bytes) / (ms * 1e6) : 0.0; };
  std::fprintf(stderr,
               "tcgemm host profile: %lldx%lldx%lld %s, resident op(%c) %lld chunk%s of %lld%s, %lld panels of up to %lld;"
               " wall %.2f ms; first product at %.2f ms; upload busy %.2f ms (%.1f GB/s of %.2f GB); compute busy"
               " %.2f ms (%.1f TFLOP/s while busy); download busy %.2f ms (%.1f GB/s of %.2f GB); after the last"
               " upload %.2f ms\n",
               (long long)m, (long long)n, (long long)k, pinned ? "pinned" : "pageable", s.resident_a ? 'A' : 'B',
               (long long)chunks, chunks > 1 ? "s" : "", (long long)s.resident_chunk,
               s.double_buffer ? " (double-buffered)" : "", (long long)panels, (long long)s.panel, wall, first_product,
               busy[kUpload], gbs(bytes_up, busy[kUpload]), double(bytes_up) / 1e9, busy[kCompute],
               busy[kCompute] > 0 ? 2.0 * double(m) * double(n) * double(k) / (busy[kCompute] * 1e9) : 0.0,
               busy[kDownload], gbs(bytes_down, busy[kDownload]), double(bytes_down) / 1e9, wall - last_upload);
}

}  // namespace tcgemm::detail
