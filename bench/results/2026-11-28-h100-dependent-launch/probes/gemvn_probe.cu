// y = A x (A m x k column-major, the cols-contiguous skinny case): block layouts W rows x chunk k, bare
// launches (kernel + fixed-order reduction) against cuBLAS DGEMM (m x 1 x k, NN), interleaved in one process.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <functional>
#include <string>
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include "tcgemm/tcgemm.h"
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)

template <int W, int kBatch>
__global__ void __launch_bounds__(256) gemvn(const double* __restrict__ A, long lda, const double* __restrict__ x,
                                             long m, long k, long chunk, double* ws) {
  constexpr int kLanesPerRow = W / 2;
  constexpr int kPar = 256 / kLanesPerRow;  // k rows in flight side by side
  __shared__ double red[kPar][W];
  const int seg = threadIdx.x % kLanesPerRow, kp = threadIdx.x / kLanesPerRow;
  const long r0 = long(blockIdx.x) * W + 2 * seg;
  const long k0 = long(blockIdx.y) * chunk, k1 = min(k, k0 + chunk);
  const double* a = A + r0;
  double acc0 = 0, acc1 = 0;
  long kk = k0 + kp;
  for (; kk + (kBatch - 1) * kPar < k1; kk += kBatch * kPar) {
    double2 v[kBatch];
#pragma unroll
    for (int b = 0; b < kBatch; ++b) v[b] = __ldcs(reinterpret_cast<const double2*>(a + (kk + b * kPar) * lda));
#pragma unroll
    for (int b = 0; b < kBatch; ++b) {
      const double s = __ldg(x + kk + b * kPar);
      acc0 = fma(s, v[b].x, acc0);
      acc1 = fma(s, v[b].y, acc1);
    }
  }
  for (; kk < k1; kk += kPar) {
    const double2 v = __ldcs(reinterpret_cast<const double2*>(a + kk * lda));
    const double s = __ldg(x + kk);
    acc0 = fma(s, v.x, acc0);
    acc1 = fma(s, v.y, acc1);
  }
  red[kp][2 * seg] = acc0;
  red[kp][2 * seg + 1] = acc1;
  __syncthreads();
  for (int i = threadIdx.x; i < W; i += 256) {
    double s = 0;
#pragma unroll
    for (int q = 0; q < kPar; ++q) s += red[q][i];
    ws[blockIdx.y * m + long(blockIdx.x) * W + i] = s;
  }
}
__global__ void reduce(const double* ws, long m, int chunks, double* y) {
  const long i = long(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= m) return;
  double s = 0;
  for (int c = 0; c < chunks; ++c) s += ws[c * m + i];
  y[i] = s;
}

int main() {
  cublasHandle_t hb; cublasCreate(&hb);
  cudaEvent_t e0, e1, e2; cudaEventCreate(&e0); cudaEventCreate(&e1); cudaEventCreate(&e2);
  for (long n : {4096L, 8192L, 2048L, 1024L}) {
    const long m = n, k = n;
    double *A, *x, *y, *yr, *ws;
    CK(cudaMalloc(&A, m * k * 8)); CK(cudaMalloc(&x, k * 8)); CK(cudaMalloc(&y, m * 8)); CK(cudaMalloc(&yr, m * 8));
    CK(cudaMalloc(&ws, 256L * m * 8));
    std::vector<double> h(m * k);
    srand(7); for (auto& v : h) v = rand() / double(RAND_MAX) - 0.5;
    CK(cudaMemcpy(A, h.data(), m * k * 8, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(x, h.data() + 5, k * 8, cudaMemcpyHostToDevice));
    const double one = 1, zero = 0;
    auto cub = [&]() { cublasDgemm(hb, CUBLAS_OP_N, CUBLAS_OP_N, m, 1, k, &one, A, m, x, k, &zero, yr, m); };
    struct V { std::string name; std::function<void()> f; };
    std::vector<V> vs;
    vs.push_back({"tcgemm_dgemm", [&]() { tcgemm_dgemm('N', 'N', m, 1, k, 1.0, A, m, x, k, 0.0, y, m, nullptr); }});
#define ADD(W, CH, B) { const long ch = CH; const int chunks = int((k + ch - 1) / ch); \
      if (m % W == 0) vs.push_back({"W" #W " chunk " #CH " batch " #B, [=]() { \
        gemvn<W, B><<<dim3(unsigned(m / W), unsigned(chunks)), 256>>>(A, m, x, m, k, ch, ws); \
        reduce<<<unsigned((m + 255) / 256), 256>>>(ws, m, chunks, y); }}); }
    ADD(64, 512, 4) ADD(64, 256, 4) ADD(64, 512, 8) ADD(128, 256, 4) ADD(128, 512, 4) ADD(128, 128, 4)
    ADD(256, 128, 4) ADD(256, 256, 4) ADD(256, 64, 4) ADD(256, 128, 8) ADD(512, 64, 4) ADD(512, 128, 4)
    ADD(512, 32, 4) ADD(512, 256, 4)
    printf("\nNN %ldx1x%ld (A %.1f MB)\n", m, k, m * k * 8e-6);
    for (auto& v : vs) {
      v.f(); CK(cudaDeviceSynchronize());
      cub(); CK(cudaDeviceSynchronize());
      std::vector<double> a(m), b(m);
      CK(cudaMemcpy(a.data(), y, m * 8, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(b.data(), yr, m * 8, cudaMemcpyDeviceToHost));
      double err = 0; for (long i = 0; i < m; ++i) err = std::max(err, std::abs(a[i] - b[i]));
      for (int w = 0; w < 5; ++w) { cub(); v.f(); }
      std::vector<float> tv, tc;
      for (int r = 0; r < 31; ++r) {
        cudaEventRecord(e0); cub(); cudaEventRecord(e1); v.f(); cudaEventRecord(e2); CK(cudaEventSynchronize(e2));
        float a1, a2; cudaEventElapsedTime(&a1, e0, e1); cudaEventElapsedTime(&a2, e1, e2); tc.push_back(a1); tv.push_back(a2);
      }
      std::sort(tv.begin(), tv.end()); std::sort(tc.begin(), tc.end());
      printf("  %-26s %7.2f us  cublas %7.2f us  ratio %.3f  err %.1e\n", v.name.c_str(), tv[15] * 1e3, tc[15] * 1e3, tc[15] / tv[15], err);
    }
    cudaFree(A); cudaFree(x); cudaFree(y); cudaFree(yr); cudaFree(ws);
  }
}
