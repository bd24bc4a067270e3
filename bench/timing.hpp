// CUDA-event timing shared by the benchmark programs: warm-up launches, then each timed launch between
// its own pair of events; the median (and min/max) of those times is reported.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
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

// `launch` enqueues one run on `stream` and returns true on success (false aborts the timing).
template <class Launch>
Timing time_launches(Launch&& launch, int warmup, int reps, cudaStream_t stream = nullptr) {
  if (reps < 1) reps = 1;
  for (int i = 0; i < warmup; ++i)
    if (!launch()) throw std::runtime_error("warm-up launch failed");
  cuda_check(cudaStreamSynchronize(stream), "warm-up");
  // Owns the events so that a launch that throws still releases them.
  struct Events {
    std::vector<cudaEvent_t> list;
    ~Events() {
      for (cudaEvent_t e : list) cudaEventDestroy(e);
    }
  } owned;
  std::vector<cudaEvent_t>& events = owned.list;
  events.assign(size_t(2 * reps), nullptr);
  for (auto& e : events) cuda_check(cudaEventCreate(&e), "cudaEventCreate");
  for (int r = 0; r < reps; ++r) {
    cuda_check(cudaEventRecord(events[size_t(2 * r)], stream), "cudaEventRecord");
    if (!launch()) throw std::runtime_error("timed launch failed");
    cuda_check(cudaEventRecord(events[size_t(2 * r + 1)], stream), "cudaEventRecord");
  }
  cuda_check(cudaStreamSynchronize(stream), "timed runs");
  std::vector<double> ms(static_cast<size_t>(reps));
  for (int r = 0; r < reps; ++r) {
    float t = 0;
    cuda_check(cudaEventElapsedTime(&t, events[size_t(2 * r)], events[size_t(2 * r + 1)]), "cudaEventElapsedTime");
    ms[size_t(r)] = t;
  }
  std::sort(ms.begin(), ms.end());
  Timing t;
  t.reps = reps;
  t.min_ms = ms.front();
  t.max_ms = ms.back();
  t.median_ms = reps % 2 ? ms[size_t(reps / 2)] : 0.5 * (ms[size_t(reps / 2 - 1)] + ms[size_t(reps / 2)]);
  return t;
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
  struct Events {
    std::vector<cudaEvent_t> list;
    ~Events() {
      for (cudaEvent_t e : list) cudaEventDestroy(e);
    }
  } owned;
  std::vector<cudaEvent_t>& ev = owned.list;
  ev.assign(size_t(4 * reps + 2), nullptr);
  for (auto& e : ev) cuda_check(cudaEventCreate(&e), "cudaEventCreate");
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
    cudaEvent_t* e = &ev[size_t(4 * r)];
    cuda_check(cudaEventRecord(e[0], stream), "cudaEventRecord");
    if (!first()) throw std::runtime_error("timed launch failed");
    cuda_check(cudaEventRecord(e[1], stream), "cudaEventRecord");
    cuda_check(cudaEventRecord(e[2], stream), "cudaEventRecord");
    if (!second()) throw std::runtime_error("timed launch failed");
    cuda_check(cudaEventRecord(e[3], stream), "cudaEventRecord");
  }
  cuda_check(cudaStreamSynchronize(stream), "timed runs");
  auto summarise = [&](int offset) {
    std::vector<double> ms(static_cast<size_t>(reps));
    for (int r = 0; r < reps; ++r) {
      float t = 0;
      cuda_check(cudaEventElapsedTime(&t, ev[size_t(4 * r + offset)], ev[size_t(4 * r + offset + 1)]),
                 "cudaEventElapsedTime");
      ms[size_t(r)] = t;
    }
    std::sort(ms.begin(), ms.end());
    Timing t;
    t.reps = reps;
    t.min_ms = ms.front();
    t.max_ms = ms.back();
    t.median_ms = reps % 2 ? ms[size_t(reps / 2)] : 0.5 * (ms[size_t(reps / 2 - 1)] + ms[size_t(reps / 2)]);
    return t;
  };
  return PairTiming{summarise(0), summarise(2)};
}

inline double gemm_tflops(double m, double n, double k, double ms) { return 2.0 * m * n * k / (ms * 1e-3) / 1e12; }

}  // namespace tcgemm::bench
