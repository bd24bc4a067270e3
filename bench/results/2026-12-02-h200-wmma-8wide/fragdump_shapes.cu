// Dumps, for every 16-bit WMMA fragment kind of the 8-wide shapes (32x8x16, 8x32x16; F16 and BF16; matrix_a
// and matrix_b; row- and col-major), which (o, k) each fragment element holds after load_matrix_sync, for all
// 32 lanes: the layout an ldmatrix fill must reproduce. Element (o, k) of the tile is stored as the 16-bit
// pattern 0x4000 | (o * 64 + k + 1) (o < 32, k < 16), which both F16 and BF16 carry through a load unchanged.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

template <class T, class Use, int M, int N, int K, class Layout, int kO, int kLd>
__global__ void dump(uint16_t* out, int* count) {
  constexpr bool kA = std::is_same<Use, wmma::matrix_a>::value;
  constexpr bool kKContig = kA == std::is_same<Layout, wmma::row_major>::value;
  constexpr int kLines = kKContig ? kO : K, kLen = kKContig ? K : kO;
  static_assert(kLd >= kLen, "ld");
  __shared__ __align__(128) uint16_t tile[kLines * kLd];
  for (int e = threadIdx.x; e < kLines * kLd; e += 32) {
    const int line = e / kLd, at = e % kLd;
    const int o = kKContig ? line : at, k = kKContig ? at : line;
    tile[e] = at < kLen ? uint16_t(0x4000u | (o * 64 + k + 1)) : 0;
  }
  __syncthreads();
  wmma::fragment<Use, M, N, K, T, Layout> f;
  wmma::load_matrix_sync(f, reinterpret_cast<const T*>(tile), kLd);
  constexpr int kElems = sizeof(f.x) / 2;
  if (threadIdx.x == 0) *count = kElems;
  uint16_t v[kElems];
  memcpy(v, &f.x[0], sizeof(v));
  for (int e = 0; e < kElems; ++e) out[threadIdx.x * 32 + e] = v[e];
}

template <class T, class Use, int M, int N, int K, class Layout>
void run(const char* name) {
  constexpr bool kA = std::is_same<Use, wmma::matrix_a>::value;
  constexpr int kO = kA ? M : N;
  uint16_t* d;
  int* c;
  cudaMalloc(&d, 32 * 32 * 2);
  cudaMalloc(&c, 4);
  cudaMemset(d, 0, 32 * 32 * 2);
  dump<T, Use, M, N, K, Layout, kO, 40><<<1, 32>>>(d, c);
  uint16_t h[32 * 32];
  int n = 0;
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  cudaMemcpy(&n, c, 4, cudaMemcpyDeviceToHost);
  printf("== %s: %d elements per lane (%s)\n", name, n, cudaGetErrorString(cudaGetLastError()));
  for (int lane = 0; lane < 32; ++lane) {
    printf("lane %2d:", lane);
    for (int e = 0; e < n; ++e) {
      const int v = (h[lane * 32 + e] & 0x3FFF) - 1;
      printf(" %d,%d", v / 64, v % 64);
    }
    printf("\n");
  }
  cudaFree(d);
  cudaFree(c);
}

#define RUN4(T, TN, M, N, K)                                                            \
  run<T, wmma::matrix_a, M, N, K, wmma::row_major>(TN " " #M "x" #N "x" #K " A row_major (k-contig)"); \
  run<T, wmma::matrix_a, M, N, K, wmma::col_major>(TN " " #M "x" #N "x" #K " A col_major (m-contig)"); \
  run<T, wmma::matrix_b, M, N, K, wmma::col_major>(TN " " #M "x" #N "x" #K " B col_major (k-contig)"); \
  run<T, wmma::matrix_b, M, N, K, wmma::row_major>(TN " " #M "x" #N "x" #K " B row_major (n-contig)");

int main() {
  RUN4(half, "f16", 32, 8, 16)
  RUN4(half, "f16", 8, 32, 16)
  RUN4(__nv_bfloat16, "bf16", 32, 8, 16)
  RUN4(__nv_bfloat16, "bf16", 8, 32, 16)
  RUN4(half, "f16", 16, 16, 16)
}
