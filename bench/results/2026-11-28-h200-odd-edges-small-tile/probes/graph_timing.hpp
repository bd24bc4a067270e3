// Graph-timed GPU time of one call (the probes of this folder): 20 calls captured in a CUDA graph, the graph
// launched 5 times to warm up, then the median of 15 timed launches divided by 20. The host's launch cost of
// each call is then not part of the time. Returns a negative value when the calls cannot be captured.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <functional>
#include <vector>

inline double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

inline double graph_us(const std::function<void()>& call, cudaStream_t s) {
  constexpr int kCalls = 20, kWarm = 5, kTimed = 15;
  cudaGraph_t g;
  cudaGraphExec_t ge;
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) != cudaSuccess) return -1;
  for (int i = 0; i < kCalls; ++i) call();
  if (cudaStreamEndCapture(s, &g) != cudaSuccess) {
    (void)cudaGetLastError();
    return -2;
  }
  if (cudaGraphInstantiate(&ge, g, 0) != cudaSuccess) {
    (void)cudaGetLastError();
    cudaGraphDestroy(g);
    return -3;
  }
  for (int i = 0; i < kWarm; ++i) cudaGraphLaunch(ge, s);
  cudaStreamSynchronize(s);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::vector<double> us;
  for (int r = 0; r < kTimed; ++r) {
    cudaEventRecord(a, s);
    cudaGraphLaunch(ge, s);
    cudaEventRecord(b, s);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    us.push_back(ms * 1000.0 / kCalls);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  cudaGraphExecDestroy(ge);
  cudaGraphDestroy(g);
  return median_of(us);
}
