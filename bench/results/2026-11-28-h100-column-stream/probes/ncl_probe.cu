// cols-contiguous G (gemv 'N'): the library's chunked kernel vs a variant with U rows in flight, and the
// same with its k-chunks added in a thread-block cluster (DSMEM) instead of workspace + a second kernel.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <functional>
#include <cmath>
#include <string>
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include "tcgemm/tcgemm.h"
#include "arch/cluster_sm90.cuh"
#include "families/skinny/params.hpp"
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)
using tcgemm::detail::SkinnyParams;
namespace arch = tcgemm::detail::arch;
__global__ void flush_kernel(double* p, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) p[i] = double(i);
}
template <int R, int U, bool kCluster, int MinB>
__global__ void __launch_bounds__(256, MinB) ncols(const SkinnyParams p) {
  __shared__ double red[8][R][64];
  __shared__ double part[R * 64];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const long base = long(blockIdx.x) * 64, c0 = base + 2 * lane;
  const bool has0 = c0 < p.cols, has1 = c0 + 1 < p.cols;
  const long k0 = long(blockIdx.y) * p.chunk_k;
  const int len = int(min(p.chunk_k, p.k - k0));
  const double* g = p.G + k0 * p.g_k + c0;
  const double* s = p.S + k0 * p.s_k;
  double a0[R], a1[R];
#pragma unroll
  for (int i = 0; i < R; ++i) a0[i] = a1[i] = 0.0;
  if (has0) {
    for (int kk0 = warp; kk0 < len; kk0 += 8 * U) {
      double2 v[U];
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const int kk = kk0 + 8 * u;
        v[u] = make_double2(0.0, 0.0);
        if (kk < len) {
          if (has1) v[u] = __ldcs(reinterpret_cast<const double2*>(g + kk * p.g_k));
          else v[u].x = __ldcs(g + kk * p.g_k);
        }
      }
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const int kk = kk0 + 8 * u;
        if (kk >= len) break;
#pragma unroll
        for (int i = 0; i < R; ++i) {
          const double sv = __ldg(s + i * p.s_row + kk * p.s_k);
          a0[i] = fma(sv, v[u].x, a0[i]);
          a1[i] = fma(sv, v[u].y, a1[i]);
        }
      }
    }
  }
#pragma unroll
  for (int i = 0; i < R; ++i) { red[warp][i][2 * lane] = a0[i]; red[warp][i][2 * lane + 1] = a1[i]; }
  __syncthreads();
  for (int idx = threadIdx.x; idx < R * 64; idx += 256) {
    const int i = idx / 64, c = idx % 64;
    double sum = 0.0;
#pragma unroll
    for (int w = 0; w < 8; ++w) sum += red[w][i][c];
    if (kCluster) { part[idx] = sum; continue; }
    if (i >= p.rows || base + c >= p.cols) continue;
    double* o = p.C + long(blockIdx.y) * p.c_slice_step + i * p.c_row + (base + c) * p.c_col;
    *o = p.beta == 0.0 ? p.alpha * sum : fma(p.beta, *o, p.alpha * sum);
  }
  if constexpr (kCluster) {
    arch::cluster_sync();
    const int chunks = int(gridDim.y), rank = int(blockIdx.y);
    for (int idx = rank * 256 + int(threadIdx.x); idx < R * 64; idx += chunks * 256) {
      const int i = idx / 64, c = idx % 64;
      if (i >= p.rows || base + c >= p.cols) continue;
      double sum = 0.0;
      for (int q = 0; q < chunks; ++q) sum += arch::cluster_load_double(part + idx, q);
      double* o = p.C + i * p.c_row + (base + c) * p.c_col;
      *o = p.beta == 0.0 ? p.alpha * sum : fma(p.beta, *o, p.alpha * sum);
    }
    arch::cluster_sync();
  }
}
__global__ void reduce_slices(const double* W, long rows, long cols, long slices, double alpha, double beta,
                              double* C, long c_row, long c_col) {
  const long idx = long(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= rows * cols) return;
  double s = 0.0;
#pragma unroll 8
  for (long q = 0; q < slices; ++q) s += __ldcg(W + q * rows * cols + idx);
  const long i = idx % rows, j = idx / rows;
  double* c = C + i * c_row + j * c_col;
  *c = beta == 0.0 ? alpha * s : fma(beta, *c, alpha * s);
}
int main() {
  int sms = 0; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cublasHandle_t hb; cublasCreate(&hb);
  const size_t flush_n = 128ull << 20 >> 3; double* flush; CK(cudaMalloc(&flush, flush_n * 8));
  double* work; CK(cudaMalloc(&work, 64ull << 20));
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  struct Sh { long m, n, k; };
  std::vector<Sh> shapes = {{4096, 1, 4096}, {8192, 1, 8192}, {2048, 1, 2048}, {1000, 1, 1000}, {20000, 1, 5000}, {4096, 2, 4096}, {16384, 1, 1024}, {1024, 1, 16384}};
  printf("%d SMs. NN m x n x k (n small: G = A^T, cols-contiguous); us, interleaved with cuBLAS (median of 31) | cold (median of 11)\n", sms);
  for (const Sh& sh : shapes) {
    const long m = sh.m, n = sh.n, k = sh.k, lda = m, ldb = k, ldc = m;
    double *A, *B, *C, *R;
    CK(cudaMalloc(&A, m * k * 8)); CK(cudaMalloc(&B, k * n * 8)); CK(cudaMalloc(&C, m * n * 8)); CK(cudaMalloc(&R, m * n * 8));
    { std::vector<double> h(std::max(m * k, k * n)); for (auto& x : h) x = double(rand()) / RAND_MAX - 0.5;
      CK(cudaMemcpy(A, h.data(), m * k * 8, cudaMemcpyHostToDevice)); CK(cudaMemcpy(B, h.data(), k * n * 8, cudaMemcpyHostToDevice)); }
    const double one = 1, zero = 0;
    SkinnyParams q{}; q.rows = int(n); q.cols = m; q.k = k; q.S = B; q.s_row = ldb; q.s_k = 1; q.G = A; q.g_k = lda; q.g_col = 1;
    q.alpha = 1; q.beta = 0; q.C = C; q.c_row = ldc; q.c_col = 1;
    struct V { std::string name; std::function<void()> f; };
    std::vector<V> vs;
    vs.push_back({"cublas", [&]() { cublasDgemm(hb, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, A, lda, B, ldb, &zero, R, ldc); }});
    vs.push_back({"tcgemm", [&]() { tcgemm_dgemm('N', 'N', m, n, k, 1.0, A, lda, B, ldb, 0.0, C, ldc, nullptr); }});
    const long bx = (m + 63) / 64;
    auto add = [&](const char* tag, auto kern, long chunks, bool cluster) {
      char nm[80]; snprintf(nm, 80, "%s c%ld%s", tag, chunks, cluster ? " cluster" : " ws");
      vs.push_back({nm, [=]() {
        SkinnyParams r = q; r.chunk_k = (k + chunks - 1) / chunks;
        const long ch = (k + r.chunk_k - 1) / r.chunk_k;
        if (cluster) { CK(arch::launch_in_column_clusters(kern, dim3(bx, ch), dim3(256), 0, nullptr, r)); return; }
        if (ch > 1) { r.C = work; r.c_row = 1; r.c_col = r.rows; r.c_slice_step = r.rows * r.cols; }
        kern<<<dim3(bx, ch), 256>>>(r);
        if (ch > 1) reduce_slices<<<(r.rows * r.cols + 255) / 256, 256>>>(work, r.rows, r.cols, ch, 1.0, 0.0, C, ldc, 1);
      }});
    };
    // chunks so that blocks ~ 4 per SM (the library's aim), and cluster sizes 2, 4, 8
    const long auto_chunks = std::max(1L, (4L * sms + bx - 1) / bx);
    if (n == 1) {
      add("U4", ncols<1, 4, false, 4>, auto_chunks, false);
      add("U8", ncols<1, 8, false, 4>, auto_chunks, false);
      for (long c : {2L, 4L, 8L}) { if (c > auto_chunks * 2) continue;
        add("U4", ncols<1, 4, true, 4>, c, true); add("U8", ncols<1, 8, true, 4>, c, true); add("U16", ncols<1, 16, true, 2>, c, true); }
    } else {
      add("U4", ncols<2, 4, false, 4>, auto_chunks, false);
      add("U8", ncols<2, 8, false, 4>, auto_chunks, false);
      for (long c : {2L, 4L, 8L}) { add("U4", ncols<2, 4, true, 4>, c, true); add("U8", ncols<2, 8, true, 4>, c, true); }
    }
    vs[0].f(); CK(cudaDeviceSynchronize());
    std::vector<double> ref(m * n), got(m * n); CK(cudaMemcpy(ref.data(), R, m * n * 8, cudaMemcpyDeviceToHost));
    printf("\n%ldx%ldx%ld (col blocks %ld)\n", m, n, k, bx);
    for (auto& v : vs) {
      CK(cudaMemset(C, 0xff, m * n * 8)); v.f(); CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(got.data(), C, m * n * 8, cudaMemcpyDeviceToHost));
      double err = 0; for (long i = 0; i < m * n; ++i) { const double d = std::fabs(got[i] - ref[i]); err = (d > err || d != d) ? d : err; }
      if (v.name == "cublas") err = 0;
      for (int w = 0; w < 5; ++w) { v.f(); vs[0].f(); }
      std::vector<float> t, tc, c;
      for (int r = 0; r < 31; ++r) {
        float ms;
        CK(cudaEventRecord(e0)); v.f(); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); cudaEventElapsedTime(&ms, e0, e1); t.push_back(ms * 1000);
        CK(cudaEventRecord(e0)); vs[0].f(); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); cudaEventElapsedTime(&ms, e0, e1); tc.push_back(ms * 1000);
      }
      for (int r = 0; r < 11; ++r) {
        flush_kernel<<<4 * sms, 256>>>(flush, flush_n);
        float ms; CK(cudaEventRecord(e0)); v.f(); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); cudaEventElapsedTime(&ms, e0, e1); c.push_back(ms * 1000);
      }
      CK(cudaGetLastError());
      std::sort(t.begin(), t.end()); std::sort(tc.begin(), tc.end()); std::sort(c.begin(), c.end());
      printf("  %-18s %8.2f us (cublas %8.2f, ratio %.3f)  cold %8.2f  err %.1e\n", v.name.c_str(), t[15], tc[15], tc[15] / t[15], c[5], err);
    }
    cudaFree(A); cudaFree(B); cudaFree(C); cudaFree(R);
  }
  return 0;
}
