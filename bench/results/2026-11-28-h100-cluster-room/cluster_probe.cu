// How many thread-block clusters of size C with B resident blocks per SM the device runs at once:
// cudaOccupancyMaxActiveClusters, and a timing check (a fixed-time spin kernel over N clusters).
#include <cstdio>
#include <cuda_runtime.h>
__global__ void spin(long long cycles, int* sink) {
  long long t0 = clock64();
  while (clock64() - t0 < cycles) {}
  if (threadIdx.x == 0 && cycles < 0) sink[blockIdx.x] = 1;
}
int main() {
  cudaDeviceProp prop; cudaGetDeviceProperties(&prop, 0);
  printf("%s, %d SMs, smem/SM %zu, optin %zu\n", prop.name, prop.multiProcessorCount, prop.sharedMemPerMultiprocessor, prop.sharedMemPerBlockOptin);
  cudaFuncSetAttribute(spin, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)prop.sharedMemPerBlockOptin);
  cudaFuncSetAttribute(spin, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  int* sink; cudaMalloc(&sink, 1 << 20);
  const int threads_list[] = {128, 256};
  for (int threads : threads_list)
  for (int B = 1; B <= 8; ++B) {
    size_t smem = prop.sharedMemPerMultiprocessor / B - 1024 - 64;
    if (smem > prop.sharedMemPerBlockOptin) smem = prop.sharedMemPerBlockOptin;
    int per_sm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, spin, threads, smem);
    for (int C : {2, 3, 4, 8}) {
      cudaLaunchConfig_t cfg = {};
      cfg.gridDim = dim3(1, C); cfg.blockDim = dim3(threads); cfg.dynamicSmemBytes = smem;
      cudaLaunchAttribute a; a.id = cudaLaunchAttributeClusterDimension;
      a.val.clusterDim.x = 1; a.val.clusterDim.y = C; a.val.clusterDim.z = 1;
      cfg.attrs = &a; cfg.numAttrs = 1;
      int clusters = -1;
      cudaError_t e = cudaOccupancyMaxActiveClusters(&clusters, spin, &cfg);
      // timing: N clusters of a 20 us spin; report the largest N that still runs in one round
      int one_round = 0;
      float t1 = 0;
      cudaEvent_t s0, s1; cudaEventCreate(&s0); cudaEventCreate(&s1);
      int khz = 0; cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0); long long cycles = (long long)khz * 20 / 1000;
      for (int N = 1; N <= 400 && threads == 128; ++N) {
        cfg.gridDim = dim3(N, C);
        if (N * C > prop.multiProcessorCount * per_sm + C) break;
        cudaEventRecord(s0);
        for (int r = 0; r < 3; ++r) cudaLaunchKernelEx(&cfg, spin, cycles, sink);
        cudaEventRecord(s1); cudaEventSynchronize(s1);
        float ms; cudaEventElapsedTime(&ms, s0, s1);
        if (N == 1) t1 = ms;
        if (ms < 1.5f * t1) one_round = N;
      }
      printf("threads %d B=%d (occupancy says %d/SM, slots %d) cluster %d: max active clusters %d (%s), slots/C %d, one round up to N=%d\n",
             threads, B, per_sm, per_sm * prop.multiProcessorCount, C, clusters, cudaGetErrorString(e),
             per_sm * prop.multiProcessorCount / C, one_round);
      cudaGetLastError();
    }
  }
  return 0;
}
