// tcgemm-bench batched (also built as tcgemm-batched-bench): batches of small DGEMMs,
// tcgemm_dgemm_strided_batched (and tcgemm_dgemm_batched) against cublasDgemmStridedBatched and
// cublasDgemmBatched in the same process on the same data, with the memory roofline of each shape beside them.
//   tcgemm-bench batched [--bytes 2e9] [--beta 0|1] [--reps 10] [--shapes m,n,k;m,n,k...]
// Each shape's batch fills about --bytes of operands (A, B and C). Times: CUDA events, median of --reps
// after a warm-up. Roofline: the bytes a product must move (A, B, C written, C read when beta != 0) at the
// HBM bandwidth measured here (a device-to-device copy of the same size), as TFLOP/s; frac = tcgemm / it.
// Every tcgemm result is compared with cuBLAS's (max |diff| / max |C|).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "batched_bench.hpp"
#include "tcgemm/tcgemm.h"

namespace {

#define CHECK_CUDA(x)                                                                                    \
  do {                                                                                                   \
    cudaError_t e_ = (x);                                                                                \
    if (e_ != cudaSuccess) {                                                                             \
      std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));                                      \
      std::exit(1);                                                                                      \
    }                                                                                                    \
  } while (0)

__global__ void fill_random(double* x, int64_t n, uint64_t seed) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
    uint64_t h = (uint64_t(i) + seed) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 31;
    h *= 0xD6E8FEB86659FD93ull;
    h ^= h >> 32;
    x[i] = double(h >> 11) / double(1ull << 52) - 1.0;
  }
}

double median_ms(int reps, const std::function<void()>& f) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  f();  // warm-up
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int r = 0; r < reps; ++r) {
    cudaEventRecord(a);
    f();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace

int tcgemm::bench::run_batched_bench(int argc, char** argv) {
  double bytes_target = 2e9, beta = 0.0;
  int reps = 10;
  std::vector<std::array<int, 3>> shapes;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
    if (a == "--bytes") bytes_target = std::atof(next().c_str());
    else if (a == "--beta") beta = std::atof(next().c_str());
    else if (a == "--reps") reps = std::max(1, std::atoi(next().c_str()));
    else if (a == "--shapes") {
      std::string s = next();
      for (size_t p = 0; p < s.size();) {
        size_t q = s.find(';', p);
        int m = 0, n = 0, k = 0;
        if (std::sscanf(s.substr(p, q - p).c_str(), "%d,%d,%d", &m, &n, &k) == 3) shapes.push_back({m, n, k});
        p = q == std::string::npos ? s.size() : q + 1;
      }
    } else if (a == "--help" || a == "-h") {
      std::printf("%s [--bytes 2e9] [--beta 0|1] [--reps 10] [--shapes m,n,k;m,n,k...]\n"
                  "Batches of small DGEMMs (each shape's batch fills about --bytes of A, B and C): "
                  "tcgemm_dgemm_strided_batched and tcgemm_dgemm_batched against cublasDgemmStridedBatched and "
                  "cublasDgemmBatched on the same data, CUDA events, median of --reps after a warm-up, with the "
                  "shape's memory roofline at the HBM bandwidth measured in the same run.\n",
                  argv[0]);
      return 0;
    } else {
      std::fprintf(stderr, "unknown option %s (see --help)\n", a.c_str());
      return 2;
    }
  }
  if (shapes.empty()) {
    for (int s : {2, 3, 4, 5, 6, 7, 8, 10, 12, 16, 20, 24, 32, 40, 48, 64, 80, 96, 128}) shapes.push_back({s, s, s});
    for (auto s : std::vector<std::array<int, 3>>{{4, 8, 16}, {16, 8, 4}, {32, 16, 64}, {64, 32, 16}, {8, 32, 128},
                                                  {100, 20, 7}})
      shapes.push_back(s);
  }
  cublasHandle_t h;
  cublasCreate(&h);
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));

  // HBM bandwidth: a device-to-device copy of bytes_target / 2 each way.
  const size_t half = size_t(bytes_target / 2) & ~size_t(255);
  double* bw_a = nullptr;
  double* bw_b = nullptr;
  CHECK_CUDA(cudaMalloc(&bw_a, half));
  CHECK_CUDA(cudaMalloc(&bw_b, half));
  const double copy_ms = median_ms(reps, [&] { cudaMemcpyAsync(bw_b, bw_a, half, cudaMemcpyDeviceToDevice); });
  const double bw = 2.0 * half / (copy_ms * 1e-3);
  cudaFree(bw_a);
  cudaFree(bw_b);
  std::printf("# %s, CUDA events, median of %d after a warm-up; beta = %g; HBM bandwidth (device-to-device copy of "
              "%.2f GB): %.0f GB/s; TFLOP/s; roof = the shape's memory roofline at that bandwidth; frac = tcgemm / "
              "roof; x = tcgemm / cuBLAS strided; diff = max|C_tcgemm - C_cublas| / max|C|\n",
              prop.name, reps, beta, half / 1e9, bw / 1e9);
  std::printf("%5s %5s %5s %10s %9s %9s %9s %9s %9s %6s %6s %9s\n", "m", "n", "k", "batch", "tcgemm", "tc-ptrs",
              "cublas-s", "cublas-p", "roof", "frac", "x", "diff");
  double min_frac = 1e9, min_x = 1e9;
  for (const auto& shape : shapes) {
    const int m = shape[0], n = shape[1], k = shape[2];
    const double per = 8.0 * (double(m) * k + double(k) * n + double(m) * n * (beta != 0.0 ? 2 : 1));
    const int64_t batch = std::max<int64_t>(1, int64_t(bytes_target / (8.0 * (double(m) * k + double(k) * n + double(m) * n))));
    const int64_t sa = int64_t(m) * k, sb = int64_t(k) * n, sc = int64_t(m) * n;
    double *A, *B, *C, *R;
    CHECK_CUDA(cudaMalloc(&A, sa * batch * 8));
    CHECK_CUDA(cudaMalloc(&B, sb * batch * 8));
    CHECK_CUDA(cudaMalloc(&C, sc * batch * 8));
    CHECK_CUDA(cudaMalloc(&R, sc * batch * 8));
    fill_random<<<1024, 256>>>(A, sa * batch, 1);
    fill_random<<<1024, 256>>>(B, sb * batch, 2);
    fill_random<<<1024, 256>>>(C, sc * batch, 3);
    CHECK_CUDA(cudaMemcpy(R, C, sc * batch * 8, cudaMemcpyDeviceToDevice));
    std::vector<const double*> pa(batch), pb(batch);
    std::vector<double*> pc(batch);
    for (int64_t g = 0; g < batch; ++g) {
      pa[g] = A + g * sa;
      pb[g] = B + g * sb;
      pc[g] = C + g * sc;
    }
    const double** dpa;
    const double** dpb;
    double** dpc;
    CHECK_CUDA(cudaMalloc(&dpa, batch * sizeof(double*)));
    CHECK_CUDA(cudaMalloc(&dpb, batch * sizeof(double*)));
    CHECK_CUDA(cudaMalloc(&dpc, batch * sizeof(double*)));
    CHECK_CUDA(cudaMemcpy(dpa, pa.data(), batch * sizeof(double*), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dpb, pb.data(), batch * sizeof(double*), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dpc, pc.data(), batch * sizeof(double*), cudaMemcpyHostToDevice));
    const double alpha = 1.0;
    // Correctness first (beta != 0 would compound over the timed repetitions: compare one call each).
    cublasDgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, A, m, sa, B, k, sb, &beta, R, m, sc,
                              int(batch));
    tcgemm_status st = tcgemm_dgemm_strided_batched('N', 'N', m, n, k, alpha, A, m, sa, B, k, sb, beta, C, m, sc,
                                                    batch, nullptr);
    if (st != TCGEMM_SUCCESS) std::fprintf(stderr, "tcgemm: %s\n", tcgemm_last_error());
    CHECK_CUDA(cudaDeviceSynchronize());
    const int64_t sample = std::min<int64_t>(sc * batch, int64_t(1) << 22);
    std::vector<double> hc(sample), hr(sample);
    CHECK_CUDA(cudaMemcpy(hc.data(), C + (sc * batch - sample), sample * 8, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(hr.data(), R + (sc * batch - sample), sample * 8, cudaMemcpyDeviceToHost));
    double dmax = 0, cmax = 0;
    for (int64_t i = 0; i < sample; ++i) {
      dmax = std::max(dmax, std::fabs(hc[i] - hr[i]));
      cmax = std::max(cmax, std::fabs(hr[i]));
    }
    const double t_tc = median_ms(reps, [&] {
      tcgemm_dgemm_strided_batched('N', 'N', m, n, k, alpha, A, m, sa, B, k, sb, beta, C, m, sc, batch, nullptr);
    });
    const double t_tp = median_ms(reps, [&] {
      tcgemm_dgemm_batched('N', 'N', m, n, k, alpha, dpa, m, dpb, k, beta, dpc, m, batch, nullptr);
    });
    const double t_cs = median_ms(reps, [&] {
      cublasDgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, A, m, sa, B, k, sb, &beta, R, m, sc,
                                int(batch));
    });
    const double t_cp = median_ms(reps, [&] {
      cublasDgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, dpa, m, dpb, k, &beta, dpc, m, int(batch));
    });
    const double flops = 2.0 * m * n * double(k) * batch;
    auto tf = [&](double ms) { return flops / (ms * 1e-3) * 1e-12; };
    const double roof = flops / (per * batch / bw) * 1e-12;
    const double frac = tf(t_tc) / roof, x = t_cs / t_tc;
    min_frac = std::min(min_frac, frac);
    min_x = std::min(min_x, x);
    std::printf("%5d %5d %5d %10lld %9.3f %9.3f %9.3f %9.3f %9.3f %6.2f %6.2f %9.1e\n", m, n, k, (long long)batch,
                tf(t_tc), tf(t_tp), tf(t_cs), tf(t_cp), roof, frac, x, cmax > 0 ? dmax / cmax : dmax);
    std::fflush(stdout);
    cudaFree(A);
    cudaFree(B);
    cudaFree(C);
    cudaFree(R);
    cudaFree(dpa);
    cudaFree(dpb);
    cudaFree(dpc);
  }
  std::printf("# minimum frac %.2f, minimum x (tcgemm / cuBLAS strided) %.2f\n", min_frac, min_x);
  cublasDestroy(h);
  return 0;
}
