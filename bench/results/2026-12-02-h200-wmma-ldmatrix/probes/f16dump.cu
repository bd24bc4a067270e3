// Dumps which (o,k) each F16 WMMA fragment register half holds after load_matrix_sync, for the 4 layouts and
// accumulators; compared with the ldmatrix (mma.sync) layout.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;
template <bool kA, bool kKContig, int kLd>
__global__ void dump(uint16_t* out, uint32_t* ldm) {
  constexpr int kLines = 16;
  __shared__ __align__(128) uint16_t tile[kLines * kLd];
  for (int e = threadIdx.x; e < kLines * kLd; e += 32) {
    const int line = e / kLd, at = e % kLd;
    const int o = kKContig ? line : at, k = kKContig ? at : line;
    tile[e] = uint16_t(0x4000u | (o * 32 + k + 1));
  }
  __syncthreads();
  using Layout = typename std::conditional<kA == kKContig, wmma::row_major, wmma::col_major>::type;
  wmma::fragment<typename std::conditional<kA, wmma::matrix_a, wmma::matrix_b>::type, 16, 16, 16, half, Layout> f;
  wmma::load_matrix_sync(f, reinterpret_cast<const half*>(tile), kLd);
  uint16_t v[16];
  memcpy(v, &f.x[0], 32);
  for (int e = 0; e < 16; ++e) out[threadIdx.x * 16 + e] = v[e];
  // ldmatrix registers in the mma.sync layout
  const int lane = threadIdx.x, q = lane >> 3, r = lane & 7;
  const int o = (kA ? (q & 1) : (q >> 1)) * 8, half_ = kA ? (q >> 1) : (q & 1);
  uint32_t off = kKContig ? ((o + r) * kLd) * 2 + half_ * 16 : ((half_ * 8 + r) * kLd + o) * 2;
  uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(tile)) + off;
  uint32_t x[4];
  if (kKContig) asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(x[0]), "=r"(x[1]), "=r"(x[2]), "=r"(x[3]) : "r"(addr));
  else asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(x[0]), "=r"(x[1]), "=r"(x[2]), "=r"(x[3]) : "r"(addr));
  for (int i = 0; i < 4; ++i) ldm[lane * 4 + i] = x[i];
}
template <bool kA, bool kKContig>
void run(const char* name) {
  uint16_t* d; uint32_t* l;
  cudaMalloc(&d, 32 * 16 * 2); cudaMalloc(&l, 32 * 4 * 4);
  dump<kA, kKContig, 24><<<1, 32>>>(d, l);
  uint16_t h[512]; uint32_t hl[128];
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  cudaMemcpy(hl, l, sizeof(hl), cudaMemcpyDeviceToHost);
  printf("== %s (err %s)\n", name, cudaGetErrorString(cudaGetLastError()));
  int same = 0, dup = 0;
  for (int lane = 0; lane < 32; ++lane) {
    if (lane < 4 || lane == 9 || lane == 31) {
      printf("lane %2d wmma:", lane);
      for (int e = 0; e < 16; ++e) { int c = (h[lane * 16 + e] & 0x3FFF) - 1; printf(" (%d,%d)", c / 32, c % 32); }
      printf("\n        ldm :");
      for (int i = 0; i < 4; ++i) for (int s = 0; s < 2; ++s) { int c = ((hl[lane * 4 + i] >> (16 * s)) & 0x3FFF) - 1; printf(" (%d,%d)", c / 32, c % 32); }
      printf("\n");
    }
    uint32_t w[8]; memcpy(w, &h[lane * 16], 32);
    bool s1 = true, s2 = true;
    for (int i = 0; i < 4; ++i) { s1 &= w[i] == hl[lane * 4 + i]; s2 &= w[4 + i] == hl[lane * 4 + i]; }
    same += s1; dup += s2;
  }
  printf("lanes with regs 0-3 == ldmatrix: %d; regs 4-7 == ldmatrix: %d\n", same, dup);
}
int main() {
  run<true, true>("A row_major (k-contig)");
  run<true, false>("A col_major (m-contig)");
  run<false, true>("B col_major (k-contig)");
  run<false, false>("B row_major (n-contig)");
}
