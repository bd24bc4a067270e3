// Experiment: every sm90 tile (whole problem, one slice) against tcgemm auto and cuBLAS, interleaved rounds.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>
#include "tcgemm/tcgemm.h"

int main(int argc, char** argv) {
  cublasHandle_t h; cublasCreate(&h);
  struct V { std::string name; int tm, tn, tk, st; };
  const V vs[] = {{"cublas",0,0,0,0},{"auto",0,0,0,0},{"128x64",128,64,16,3},{"64x64",64,64,16,4},{"128x128",128,128,16,3},{"32x64",32,64,32,3},{"64x128",64,128,32,3}};
  std::vector<std::array<long,3>> shapes;
  for (long s : {1100L,1152L,1280L,1408L,1536L,1664L,1792L,1920L,2176L,2304L,2432L,2560L,2688L,2816L,2944L,3200L,3584L}) shapes.push_back({s,s,s});
  shapes.push_back({1792,1024,1792}); shapes.push_back({2048,1536,1024}); shapes.push_back({1536,3072,1536});
  shapes.push_back({2500,1500,2000}); shapes.push_back({1800,1800,900}); shapes.push_back({3000,1200,2400});
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> U(-1, 1);
  cudaEvent_t ev[64]; for (auto& e : ev) cudaEventCreate(&e);
  for (auto sh : shapes) {
    const long m = sh[0], n = sh[1], k = sh[2];
    std::vector<double> ha(m * k), hb(k * n);
    for (auto& x : ha) x = U(rng);
    for (auto& x : hb) x = U(rng);
    double *A, *B, *C;
    cudaMalloc(&A, m * k * 8); cudaMalloc(&B, k * n * 8); cudaMalloc(&C, m * n * 8);
    cudaMemcpy(A, ha.data(), m * k * 8, cudaMemcpyHostToDevice);
    cudaMemcpy(B, hb.data(), k * n * 8, cudaMemcpyHostToDevice);
    const double one = 1, zero = 0;
    const int nv = sizeof(vs) / sizeof(vs[0]);
    auto run = [&](int v) {
      if (v == 0) { cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, A, m, B, k, &zero, C, m); return; }
      if (v == 1) { tcgemm_dgemm('N', 'N', m, n, k, 1.0, A, m, B, k, 0.0, C, m, nullptr); return; }
      tcgemm_config c{}; c.family = TCGEMM_FAMILY_SM90_MMA; c.tile_m = vs[v].tm; c.tile_n = vs[v].tn; c.tile_k = vs[v].tk; c.stages = vs[v].st;
      tcgemm_dgemm_config(&c, 'N', 'N', m, n, k, 1.0, A, m, B, k, 0.0, C, m, nullptr);
    };
    for (int w = 0; w < 3; ++w) for (int v = 0; v < nv; ++v) run(v);
    cudaDeviceSynchronize();
    std::vector<std::vector<float>> t(nv);
    for (int r = 0; r < 15; ++r) {
      for (int v = 0; v < nv; ++v) { cudaEventRecord(ev[2 * v]); run(v); cudaEventRecord(ev[2 * v + 1]); }
      cudaDeviceSynchronize();
      for (int v = 0; v < nv; ++v) { float ms; cudaEventElapsedTime(&ms, ev[2 * v], ev[2 * v + 1]); t[v].push_back(ms); }
    }
    std::printf("%ldx%ldx%ld", m, n, k);
    double cub = 0;
    for (int v = 0; v < nv; ++v) {
      std::sort(t[v].begin(), t[v].end());
      const double med = t[v][t[v].size() / 2];
      if (v == 0) cub = med;
      std::printf("  %s %.4f (%.3f)", vs[v].name.c_str(), med, cub / med);
    }
    tcgemm_plan p; tcgemm_dgemm_plan('N', 'N', m, n, k, &p);
    std::printf("\n    plan: %.110s\n", p.summary);
    cudaFree(A); cudaFree(B); cudaFree(C);
  }
  return 0;
}
