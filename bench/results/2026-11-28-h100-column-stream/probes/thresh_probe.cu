// Column stream (library kernel, forced) vs the chunked skinny kernel (explicit chunk count = the automatic one)
// vs cuBLAS, over columns and depth. Interleaved medians of 31 and cold medians of 11.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <functional>
#include <cmath>
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include "tcgemm/tcgemm.h"
#include "families/skinny/column_stream.cu"
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)
__global__ void flush_kernel(double* p, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) p[i] = double(i);
}
using namespace tcgemm::detail;
int main() {
  int sms = 0; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cublasHandle_t hb; cublasCreate(&hb);
  const size_t flush_n = 128ull << 20 >> 3; double* flush; CK(cudaMalloc(&flush, flush_n * 8));
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  struct Sh { long m, n, k; };
  std::vector<Sh> shapes;
  for (long k : {512L, 1024L, 2048L, 4096L, 16384L}) for (long c : {264L, 528L, 1056L, 1583L, 4096L, 32768L}) shapes.push_back({1, c, k});
  for (long k : {1024L, 4096L, 8192L}) for (long c : {528L, 1583L, 4096L}) shapes.push_back({2, c, k});
  shapes.push_back({1, 5000, 2047}); shapes.push_back({1, 4096, 4095}); shapes.push_back({2, 4096, 4095});
  printf("%d SMs. NN m x n x k: stream / chunked / cuBLAS, us (interleaved; cold)\n", sms);
  for (const Sh& sh : shapes) {
    const long m = sh.m, n = sh.n, k = sh.k, lda = m, ldb = k, ldc = m;
    double *A, *B, *C, *R;
    CK(cudaMalloc(&A, m * k * 8)); CK(cudaMalloc(&B, k * n * 8)); CK(cudaMalloc(&C, m * n * 8)); CK(cudaMalloc(&R, m * n * 8));
    { std::vector<double> h(std::max(m * k, k * n)); for (auto& x : h) x = double(rand()) / RAND_MAX - 0.5;
      CK(cudaMemcpy(A, h.data(), m * k * 8, cudaMemcpyHostToDevice)); CK(cudaMemcpy(B, h.data(), k * n * 8, cudaMemcpyHostToDevice)); }
    const double one = 1, zero = 0;
    SkinnyParams q{}; q.rows = int(m); q.cols = n; q.k = k; q.S = A; q.s_row = 1; q.s_k = lda; q.G = B; q.g_k = 1; q.g_col = ldb;
    q.alpha = 1; q.beta = 0; q.C = C; q.c_row = 1; q.c_col = ldc;
    const bool pairs = (ldb % 2 == 0) && (m == 1);
    const SkinnyShape s = skinny_shape('N', 'N', m, n, k);
    const long chunks = skinny_chunks(s, skinny_chunk_k(s, 0, sms));
    tcgemm_config cfg{}; cfg.family = TCGEMM_FAMILY_SKINNY; cfg.k_splits = int(chunks);
    std::function<void()> f[3] = {
      [&]() { CK(launch_skinny_column_stream(q, pairs, nullptr)); },
      [&]() { if (tcgemm_dgemm_config(&cfg, 'N', 'N', m, n, k, 1.0, A, lda, B, ldb, 0.0, C, ldc, nullptr) != TCGEMM_SUCCESS) { printf("tcgemm error %s\n", tcgemm_last_error()); exit(1);} },
      [&]() { cublasDgemm(hb, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, A, lda, B, ldb, &zero, R, ldc); }};
    double err[2];
    f[2](); CK(cudaDeviceSynchronize()); std::vector<double> ref(m * n), got(m * n); CK(cudaMemcpy(ref.data(), R, m * n * 8, cudaMemcpyDeviceToHost));
    for (int v = 0; v < 2; ++v) { CK(cudaMemset(C, 0xff, m * n * 8)); f[v](); CK(cudaDeviceSynchronize()); CK(cudaMemcpy(got.data(), C, m * n * 8, cudaMemcpyDeviceToHost));
      err[v] = 0; for (long i = 0; i < m * n; ++i) err[v] = std::max(err[v], std::fabs(got[i] - ref[i])); if (!(err[v] < 1e-10)) err[v] = 1e300; }
    for (int w = 0; w < 5; ++w) for (auto& g : f) g();
    std::vector<float> t[3], c[3];
    for (int r = 0; r < 31; ++r) for (int v = 0; v < 3; ++v) {
      CK(cudaEventRecord(e0)); f[v](); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); float ms; cudaEventElapsedTime(&ms, e0, e1); t[v].push_back(ms * 1000); }
    for (int r = 0; r < 11; ++r) for (int v = 0; v < 3; ++v) {
      flush_kernel<<<4 * sms, 256>>>(flush, flush_n);
      CK(cudaEventRecord(e0)); f[v](); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); float ms; cudaEventElapsedTime(&ms, e0, e1); c[v].push_back(ms * 1000); }
    for (int v = 0; v < 3; ++v) { std::sort(t[v].begin(), t[v].end()); std::sort(c[v].begin(), c[v].end()); }
    printf("%ldx%ldx%ld chunks %ld: stream %7.2f chunked %7.2f cublas %7.2f | cold %7.2f %7.2f %7.2f | stream/chunked %.3f cublas/stream %.3f cublas/chunked %.3f | err %.1e %.1e\n",
           m, n, k, chunks, t[0][15], t[1][15], t[2][15], c[0][5], c[1][5], c[2][5], t[1][15] / t[0][15], t[2][15] / t[0][15], t[2][15] / t[1][15], err[0], err[1]);
    cudaFree(A); cudaFree(B); cudaFree(C); cudaFree(R);
  }
  return 0;
}
