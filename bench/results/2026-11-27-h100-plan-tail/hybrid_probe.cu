// Experiment: C rows [0, M1) as one sm90_mma call and rows [M1, M) split in k (a second call), against
// tcgemm auto and cuBLAS. Not part of the library.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <vector>
#include "tcgemm/tcgemm.h"

static double median_ms(const std::function<void()>& f, int reps = 21) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  for (int i = 0; i < 3; ++i) f();
  std::vector<float> t;
  for (int r = 0; r < reps; ++r) { cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms); }
  std::sort(t.begin(), t.end()); return t[t.size() / 2];
}
struct Tile { int tm, tn, tk, st, per_sm; };
int main(int argc, char** argv) {
  cublasHandle_t h; cublasCreate(&h);
  const Tile tiles[] = {{128, 64, 16, 3, 2}, {64, 64, 16, 4, 3}, {128, 128, 16, 3, 1}};
  std::vector<std::array<long, 3>> shapes = {{1536,1536,1536},{1000,1000,1000},{2000,2000,2000},{3000,3000,3000},{4000,3000,2000},{5000,5000,5000},{1280,1280,1280},{1792,1792,1792},{2560,2560,2560},{1200,1200,1200}};
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> U(-1, 1);
  for (auto sh : shapes) {
    const long m = sh[0], n = sh[1], k = sh[2];
    std::vector<double> ha(m * k), hb(k * n);
    for (auto& x : ha) x = U(rng);
    for (auto& x : hb) x = U(rng);
    double *A, *B, *C, *C2;
    cudaMalloc(&A, m * k * 8); cudaMalloc(&B, k * n * 8); cudaMalloc(&C, m * n * 8); cudaMalloc(&C2, m * n * 8);
    cudaMemcpy(A, ha.data(), m * k * 8, cudaMemcpyHostToDevice);
    cudaMemcpy(B, hb.data(), k * n * 8, cudaMemcpyHostToDevice);
    const double one = 1, zero = 0;
    const double t_cub = median_ms([&] { cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, A, m, B, k, &zero, C2, m); });
    const double t_auto = median_ms([&] { tcgemm_dgemm('N', 'N', m, n, k, 1.0, A, m, B, k, 0.0, C, m, nullptr); });
    std::printf("%ldx%ldx%ld cublas %.4f auto %.4f (%.3f)\n", m, n, k, t_cub, t_auto, t_cub / t_auto);
    for (const Tile& t : tiles) {
      const long mt = (m + t.tm - 1) / t.tm, nt = (n + t.tn - 1) / t.tn, total = mt * nt, slots = 132L * t.per_sm;
      const long waves = total / slots;
      if (waves < 1) continue;
      const long r = std::min(mt - 1, waves * slots / nt);
      if (r < 1) continue;
      const long tail_tiles = (mt - r) * nt;
      const long m1 = r * t.tm;
      for (long s : {1L, 2L, std::max(1L, slots / tail_tiles), std::max(1L, (2 * slots) / tail_tiles)}) {
        tcgemm_config c1{}; c1.family = TCGEMM_FAMILY_SM90_MMA; c1.tile_m = t.tm; c1.tile_n = t.tn; c1.tile_k = t.tk; c1.stages = t.st; c1.k_splits = 1;
        tcgemm_config c2 = c1; c2.k_splits = int(s);
        auto run = [&] {
          tcgemm_dgemm_config(&c1, 'N', 'N', m1, n, k, 1.0, A, m, B, k, 0.0, C, m, nullptr);
          tcgemm_dgemm_config(&c2, 'N', 'N', m - m1, n, k, 1.0, A + m1, m, B, k, 0.0, C + m1, m, nullptr);
        };
        const double th = median_ms(run);
        std::printf("  %dx%d dp rows %ld (%ld tiles, %.2f waves) + tail %ld tiles x %ld slices: %.4f ms  vs cublas %.3f  vs auto %.3f\n",
                    t.tm, t.tn, m1, r * nt, double(r * nt) / slots, tail_tiles, s, th, t_cub / th, t_auto / th);
      }
      // plain whole-problem with this tile
      tcgemm_config c{}; c.family = TCGEMM_FAMILY_SM90_MMA; c.tile_m = t.tm; c.tile_n = t.tn; c.tile_k = t.tk; c.stages = t.st; c.k_splits = 1;
      const double tp = median_ms([&] { tcgemm_dgemm_config(&c, 'N', 'N', m, n, k, 1.0, A, m, B, k, 0.0, C, m, nullptr); });
      std::printf("  %dx%d whole: %.4f ms (%.2f waves) vs cublas %.3f\n", t.tm, t.tn, tp, double(total) / slots, t_cub / tp);
    }
    cudaFree(A); cudaFree(B); cudaFree(C); cudaFree(C2);
  }
  return 0;
}
