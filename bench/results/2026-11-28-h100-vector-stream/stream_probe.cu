// How fast can one pass over a 134 MB operand (4096 x 4096 doubles, the large operand of a 1x4096x4096 DGEMM)
// go on this GPU? Pure streaming reads (sum of all elements) in three ways, and cuBLAS's gemv / dgemm on the
// same operand, each timed cold (L2 flushed by writing 128 MB first) and warm (back to back), median of 31.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include "tcgemm/tcgemm.h"
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)

constexpr int kThreads = 256;

__device__ __forceinline__ void block_sum_out(double acc, double* out) {
  __shared__ double part[kThreads / 32];
  for (int o = 16; o; o >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, o);
  if ((threadIdx.x & 31) == 0) part[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x == 0) { double t = 0; for (int w = 0; w < kThreads / 32; ++w) t += part[w]; atomicAdd(out, t); }
}
__global__ void flush_kernel(double* p, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) p[i] = double(i);
}

// (a) each block a contiguous equal share, double2 loads, kUnroll independent loads in flight per thread.
template <int kUnroll, bool kNoAlloc>
__global__ void __launch_bounds__(kThreads) stream_ld(const double2* __restrict__ g, size_t n2, double* out) {
  const size_t per_block = (n2 + gridDim.x - 1) / gridDim.x;
  const size_t b0 = blockIdx.x * per_block, b1 = min(n2, b0 + per_block);
  double acc = 0.0;
  size_t i = b0 + threadIdx.x;
  for (; i + (kUnroll - 1) * kThreads < b1; i += kUnroll * kThreads) {
    double2 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const double2* p = g + i + u * kThreads;
      if (kNoAlloc) asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v2.f64 {%0, %1}, [%2];" : "=d"(v[u].x), "=d"(v[u].y) : "l"(p));
      else v[u] = __ldcs(p);
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) acc += v[u].x + v[u].y;
  }
  for (; i < b1; i += kThreads) { const double2 v = g[i]; acc += v.x + v.y; }
  block_sum_out(acc, out);
}

// (c) bulk copies (cp.async.bulk, the TMA's non-tensor form) into a ring of shared-memory stages, one elected
// thread issuing, an mbarrier per stage; all threads sum each stage.
constexpr int kStageBytes = 32768, kStages = 4;
__device__ __forceinline__ unsigned smem_addr(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }
__global__ void __launch_bounds__(kThreads) stream_bulk(const double* __restrict__ g, size_t n, double* out) {
  extern __shared__ __align__(128) unsigned char smem[];
  __shared__ __align__(8) unsigned long long bar[kStages];
  const size_t chunk = kStageBytes / sizeof(double);
  const size_t chunks = n / chunk;  // n is a multiple here
  const size_t per_block = (chunks + gridDim.x - 1) / gridDim.x;
  const size_t c0 = blockIdx.x * per_block, c1 = min(chunks, c0 + per_block);
  if (threadIdx.x == 0)
    for (int s = 0; s < kStages; ++s) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(smem_addr(&bar[s])));
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  __syncthreads();
  auto issue = [&](size_t c, int s) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(smem_addr(&bar[s])), "r"(kStageBytes) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 :: "r"(smem_addr(smem + s * kStageBytes)), "l"(g + c * chunk), "r"(kStageBytes), "r"(smem_addr(&bar[s])) : "memory");
  };
  if (threadIdx.x == 0)
    for (int s = 0; s < kStages && c0 + s < c1; ++s) issue(c0 + s, s);
  double acc = 0.0;
  for (size_t c = c0; c < c1; ++c) {
    const int s = int((c - c0) % kStages);
    const unsigned parity = unsigned(((c - c0) / kStages) & 1);
    unsigned done = 0;
    while (!done)
      asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                   : "=r"(done) : "r"(smem_addr(&bar[s])), "r"(parity) : "memory");
    const double2* st = reinterpret_cast<const double2*>(smem + s * kStageBytes);
#pragma unroll 4
    for (int i = threadIdx.x; i < kStageBytes / 16; i += kThreads) { const double2 v = st[i]; acc += v.x + v.y; }
    __syncthreads();  // every thread is done with stage s before it is refilled
    if (threadIdx.x == 0 && c + kStages < c1) issue(c + kStages, s);
  }
  block_sum_out(acc, out);
}

int main() {
  const int n = 4096;
  const size_t elems = size_t(n) * n;
  double *G, *x, *y, *flush, *out;
  CK(cudaMalloc(&G, elems * 8)); CK(cudaMalloc(&x, n * 8)); CK(cudaMalloc(&y, n * 8)); CK(cudaMalloc(&out, 64));
  const size_t flush_n = 128ull << 20 >> 3; CK(cudaMalloc(&flush, flush_n * 8));
  std::vector<double> h(elems); for (size_t i = 0; i < elems; ++i) h[i] = (double(rand()) / RAND_MAX) - 0.5;
  CK(cudaMemcpy(G, h.data(), elems * 8, cudaMemcpyHostToDevice)); CK(cudaMemcpy(x, h.data(), n * 8, cudaMemcpyHostToDevice));
  cublasHandle_t hb; cublasCreate(&hb);
  int sms = 0; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CK(cudaFuncSetAttribute(stream_bulk, cudaFuncAttributeMaxDynamicSharedMemorySize, kStages * kStageBytes));
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  const double one = 1.0, zero = 0.0;
  struct Case { const char* name; int id; int blocks; };
  std::vector<Case> cases = {
    {"stream ld.cs x4, 2 blocks/SM", 0, 2 * sms}, {"stream ld.cs x4, 4 blocks/SM", 0, 4 * sms}, {"stream ld.cs x8, 4 blocks/SM", 1, 4 * sms},
    {"stream ld.cs x8, 8 blocks/SM", 1, 8 * sms},
    {"stream no_allocate+L2::256B x8, 4 blocks/SM", 2, 4 * sms}, {"stream no_allocate+L2::256B x8, 8 blocks/SM", 2, 8 * sms},
    {"stream bulk 4x32KB, 1 block/SM", 3, sms},
    {"cublasDgemv T 4096x4096", 4, 0}, {"cublasDgemm 1x4096x4096 NN", 5, 0}, {"tcgemm_dgemm 1x4096x4096 NN", 6, 0}};
  auto run = [&](const Case& c) {
    switch (c.id) {
      case 0: stream_ld<4, false><<<c.blocks, kThreads>>>(reinterpret_cast<const double2*>(G), elems / 2, out); break;
      case 1: stream_ld<8, false><<<c.blocks, kThreads>>>(reinterpret_cast<const double2*>(G), elems / 2, out); break;
      case 2: stream_ld<8, true><<<c.blocks, kThreads>>>(reinterpret_cast<const double2*>(G), elems / 2, out); break;
      case 3: stream_bulk<<<c.blocks, kThreads, kStages * kStageBytes>>>(G, elems, out); break;
      case 4: cublasDgemv(hb, CUBLAS_OP_T, n, n, &one, G, n, x, 1, &zero, y, 1); break;
      case 5: cublasDgemm(hb, CUBLAS_OP_N, CUBLAS_OP_N, 1, n, n, &one, x, 1, G, n, &zero, y, 1); break;
      case 6: tcgemm_dgemm('N', 'N', 1, n, n, 1.0, x, 1, G, n, 0.0, y, 1, nullptr); break;
    }
  };
  printf("%d SMs; operand %.1f MB; times in us (median of 31), GB/s of the operand\n", sms, elems * 8 / 1e6);
  for (const Case& c : cases) {
    for (int w = 0; w < 3; ++w) run(c);
    CK(cudaDeviceSynchronize());
    std::vector<float> cold, warm;
    for (int r = 0; r < 31; ++r) {
      flush_kernel<<<4 * sms, 256>>>(flush, flush_n);
      CK(cudaEventRecord(e0)); run(c); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
      float ms; cudaEventElapsedTime(&ms, e0, e1); cold.push_back(ms * 1000);
    }
    for (int r = 0; r < 31; ++r) {
      CK(cudaEventRecord(e0)); run(c); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
      float ms; cudaEventElapsedTime(&ms, e0, e1); warm.push_back(ms * 1000);
    }
    CK(cudaGetLastError());
    std::sort(cold.begin(), cold.end()); std::sort(warm.begin(), warm.end());
    printf("%-52s cold %7.2f us (%6.0f GB/s)  warm %7.2f us (%6.0f GB/s)\n", c.name, cold[15], elems * 8 / cold[15] / 1e3, warm[15], elems * 8 / warm[15] / 1e3);
  }
  // The stream kernels' sums (one run each) must agree: the bulk copies read the same bytes.
  for (int id = 0; id < 4; ++id) {
    CK(cudaMemset(out, 0, 8));
    run(Case{"", id, 4 * sms});
    double sum = 0; CK(cudaMemcpy(&sum, out, 8, cudaMemcpyDeviceToHost));
    printf("stream kernel %d: sum %.12e\n", id, sum);
  }
  double ref = 0; for (size_t i = 0; i < elems; ++i) ref += h[i];
  printf("host sum %.12e\n", ref);
  return 0;
}
