// CUDA-event timing shared by the benchmark programs: warm-up launches, then each timed launch between
// its own pair of events; the median (and min/max) of those times is reported.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

namespace tcgemm::bench {

struct Timing {
  double median_ms = 0, min_ms = 0, max_ms = 0;
  int reps = 0;
};

inline void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// main() of a benchmark program: runs `run`, and reports an exception (a failed CUDA call, cuda_check) on
// stderr with exit status 1 instead of terminating.
template <class Run>
int guarded_main(Run&& run, int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}

// The median of a set of times (the mean of the two middle ones for an even count).
inline double median_of(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

// Owns CUDA events, so that a launch that throws still releases them.
struct EventSet {
  std::vector<cudaEvent_t> list;
  explicit EventSet(size_t count) : list(count, nullptr) {
    for (auto& e : list) cuda_check(cudaEventCreate(&e), "cudaEventCreate");
  }
  EventSet(const EventSet&) = delete;
  EventSet& operator=(const EventSet&) = delete;
  ~EventSet() {
    for (cudaEvent_t e : list)
      if (e) cudaEventDestroy(e);
  }
  cudaEvent_t operator[](size_t i) const { return list[i]; }
};

// Median, min and max of the times between events[first + stride * r] and events[first + stride * r + 1].
inline Timing summarise(const EventSet& events, int reps, int first, int stride) {
  std::vector<double> ms(static_cast<size_t>(reps));
  for (int r = 0; r < reps; ++r) {
    float t = 0;
    cuda_check(cudaEventElapsedTime(&t, events[size_t(first + stride * r)], events[size_t(first + stride * r + 1)]),
               "cudaEventElapsedTime");
    ms[size_t(r)] = t;
  }
  Timing t;
  t.reps = reps;
  t.min_ms = *std::min_element(ms.begin(), ms.end());
  t.max_ms = *std::max_element(ms.begin(), ms.end());
  t.median_ms = median_of(ms);
  return t;
}

// `launch` enqueues one run on `stream` and returns true on success (false aborts the timing).
template <class Launch>
Timing time_launches(Launch&& launch, int warmup, int reps, cudaStream_t stream = nullptr) {
  if (reps < 1) reps = 1;
  for (int i = 0; i < warmup; ++i)
    if (!launch()) throw std::runtime_error("warm-up launch failed");
  cuda_check(cudaStreamSynchronize(stream), "warm-up");
  EventSet events(size_t(2 * reps));
  for (int r = 0; r < reps; ++r) {
    cuda_check(cudaEventRecord(events[size_t(2 * r)], stream), "cudaEventRecord");
    if (!launch()) throw std::runtime_error("timed launch failed");
    cuda_check(cudaEventRecord(events[size_t(2 * r + 1)], stream), "cudaEventRecord");
  }
  cuda_check(cudaStreamSynchronize(stream), "timed runs");
  return summarise(events, reps, 0, 2);
}

struct PairTiming {
  Timing first, second;
};

// Times two launchers against each other: warm-up alternates them until both ran `warmup` times and at
// least `min_warmup_ms` of GPU time has passed (clocks settle before anything counts), then `reps` rounds
// each time one run of `first` and one of `second`, each between its own pair of events. Interleaving
// keeps a clock or thermal drift during the measurement from favouring whichever would run second.
template <class First, class Second>
PairTiming time_interleaved(First&& first, Second&& second, int warmup, int reps, cudaStream_t stream = nullptr,
                            double min_warmup_ms = 100.0) {
  if (reps < 1) reps = 1;
  EventSet ev(size_t(4 * reps + 2));
  cudaEvent_t w0 = ev[size_t(4 * reps)], w1 = ev[size_t(4 * reps + 1)];
  cuda_check(cudaEventRecord(w0, stream), "cudaEventRecord");
  for (int i = 0;; ++i) {
    if (!first() || !second()) throw std::runtime_error("warm-up launch failed");
    if (i + 1 < warmup) continue;
    cuda_check(cudaEventRecord(w1, stream), "cudaEventRecord");
    cuda_check(cudaEventSynchronize(w1), "warm-up");
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, w0, w1), "cudaEventElapsedTime");
    if (ms >= min_warmup_ms || i > 100000) break;
  }
  for (int r = 0; r < reps; ++r) {
    const size_t e = size_t(4 * r);
    cuda_check(cudaEventRecord(ev[e], stream), "cudaEventRecord");
    if (!first()) throw std::runtime_error("timed launch failed");
    cuda_check(cudaEventRecord(ev[e + 1], stream), "cudaEventRecord");
    cuda_check(cudaEventRecord(ev[e + 2], stream), "cudaEventRecord");
    if (!second()) throw std::runtime_error("timed launch failed");
    cuda_check(cudaEventRecord(ev[e + 3], stream), "cudaEventRecord");
  }
  cuda_check(cudaStreamSynchronize(stream), "timed runs");
  return PairTiming{summarise(ev, reps, 0, 4), summarise(ev, reps, 2, 4)};
}

inline double gemm_tflops(double m, double n, double k, double ms) { return 2.0 * m * n * k / (ms * 1e-3) / 1e12; }

}  // namespace tcgemm::bench
