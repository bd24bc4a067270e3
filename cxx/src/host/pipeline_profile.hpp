// Where a pipelined host call's time goes (TCGEMM_HOST_PROFILE=1): CUDA events around every upload, product
// and download on the engine's three streams, and one line on stderr per call once its streams are drained:
// wall time, when the first product started, and each stream's busy time. Off (the default), every member is
// a no-op and no event is made; on, the events are made per call (a diagnostic, not the fast path).
#pragma once

#include <cstdint>
#include <vector>

#include <cuda_runtime.h>

namespace tcgemm::detail {

struct HostSchedule;

class PipelineProfile {
 public:
  enum Kind { kUpload = 0, kCompute = 1, kDownload = 2 };

  PipelineProfile();  // reads TCGEMM_HOST_PROFILE
  ~PipelineProfile();
  PipelineProfile(const PipelineProfile&) = delete;
  PipelineProfile& operator=(const PipelineProfile&) = delete;

  bool on() const { return on_; }
  // The call's time zero, on `stream`, before any of its work is queued.
  void start(cudaStream_t stream);
  // Brackets one operation of `kind` queued on `stream` between begin and end (returns the span's index).
  int begin(Kind kind, cudaStream_t stream);
  void end(int span, cudaStream_t stream);
  // After every stream is drained: the report line (nothing when off or when an event failed).
  void report(int64_t m, int64_t n, int64_t k, const HostSchedule& s, bool pinned, int64_t bytes_up,
              int64_t bytes_down);

 private:
  cudaEvent_t make();
  struct Span {
    Kind kind;
    cudaEvent_t begin, end;
  };
  bool on_ = false, failed_ = false;
  cudaEvent_t zero_ = nullptr;
  std::vector<Span> spans_;
  std::vector<cudaEvent_t> all_;
};

}  // namespace tcgemm::detail
