// tcgemm-host-cost: what one DGEMM call costs the calling thread (host microseconds, the GPU idle), and what
// a single product costs between CUDA events when nothing else is queued (the time a user who calls one
// small product at a time sees). tcgemm_dgemm against cublasDgemm in the same process, plus the CUDA runtime
// calls tcgemm's call path makes, each alone, so that a regression in the host path can be located.
//   tcgemm-host-cost [m n k]...    (default: 8 8 8, 64 64 64, 256 256 256, 512 512 512)
#include <cublas_v2.h>
#include <cuda.h>
#include <cuda_runtime.h>

#include <tcgemm/tcgemm.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "timing.hpp"

namespace {

using tcgemm::bench::cuda_check;
using tcgemm::bench::median_of;

// Host microseconds of f() with the stream drained before each call (so no launch waits for queue room).
template <class F>
double host_us(F&& f, int reps = 2000) {
  for (int i = 0; i < 50; ++i) f();
  cuda_check(cudaDeviceSynchronize(), "warm-up");
  std::vector<double> t;
  t.reserve(size_t(reps));
  for (int i = 0; i < reps; ++i) {
    cuda_check(cudaDeviceSynchronize(), "drain");
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const auto t1 = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  return median_of(t);
}

// Microseconds between CUDA events around one call on an idle stream (median).
template <class F>
double event_us(F&& f, cudaStream_t s, int reps = 200) {
  cudaEvent_t a, b;
  cuda_check(cudaEventCreate(&a), "event");
  cuda_check(cudaEventCreate(&b), "event");
  for (int i = 0; i < 20; ++i) f();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    cuda_check(cudaStreamSynchronize(s), "drain");
    cuda_check(cudaEventRecord(a, s), "record");
    f();
    cuda_check(cudaEventRecord(b, s), "record");
    cuda_check(cudaEventSynchronize(b), "sync");
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, a, b), "elapsed");
    t.push_back(1e3 * ms);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return median_of(t);
}

struct BigParams {
  double values[32];  // 256 bytes of kernel parameters, about the size of sm90_mma's
};
__global__ void empty_kernel(BigParams) {}

int run(int argc, char** argv) {
  std::vector<int> shapes;
  for (int i = 1; i < argc; ++i) shapes.push_back(std::atoi(argv[i]));
  if (shapes.empty()) shapes = {8, 8, 8, 64, 64, 64, 256, 256, 256, 512, 512, 512};
  if (shapes.size() % 3 != 0) {
    std::fprintf(stderr, "usage: tcgemm-host-cost [m n k]...\n");
    return 2;
  }
  cudaStream_t s;
  cuda_check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return 1;
  cublasSetStream(h, s);

  std::printf("CUDA runtime calls on tcgemm's call path, host us each (median of 2000):\n");
  int count = 0, dev = 0;
  std::printf("  cudaGetDeviceCount       %.3f\n", host_us([&] { cudaGetDeviceCount(&count); }));
  std::printf("  cudaGetDevice            %.3f\n", host_us([&] { cudaGetDevice(&dev); }));
  std::printf("  cudaGetLastError         %.3f\n", host_us([&] { (void)cudaGetLastError(); }));
  void* fn_current = nullptr;
  void* fn_id = nullptr;
  cudaDriverEntryPointQueryResult found;
  cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn_current, 12000, cudaEnableDefault, &found);
  cudaGetDriverEntryPointByVersion("cuCtxGetId", &fn_id, 12000, cudaEnableDefault, &found);
  if (fn_current && fn_id) {
    auto get_current = reinterpret_cast<CUresult (*)(CUcontext*)>(fn_current);
    auto get_id = reinterpret_cast<CUresult (*)(CUcontext, unsigned long long*)>(fn_id);
    std::printf("  cuCtxGetCurrent+GetId    %.3f\n", host_us([&] {
                  CUcontext c;
                  unsigned long long id;
                  get_current(&c);
                  get_id(c, &id);
                }));
  }
  BigParams bp{};
  std::printf("  empty kernel launch      %.3f (256-byte parameters)\n",
              host_us([&] { empty_kernel<<<132, 128, 0, s>>>(bp); }));
  std::printf("  empty kernel, events     %.3f us between events\n",
              event_us([&] { empty_kernel<<<132, 128, 0, s>>>(bp); }, s));

  std::printf("\nshape             tcgemm host  cuBLAS host   tcgemm event  cuBLAS event  (us)\n");
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  for (size_t i = 0; i < shapes.size(); i += 3) {
    const int m = shapes[i], n = shapes[i + 1], k = shapes[i + 2];
    std::vector<double> ha(size_t(m) * k), hb(size_t(k) * n);
    for (auto& x : ha) x = u(rng);
    for (auto& x : hb) x = u(rng);
    double *A, *B, *C;
    cuda_check(cudaMalloc(&A, ha.size() * 8), "malloc");
    cuda_check(cudaMalloc(&B, hb.size() * 8), "malloc");
    cuda_check(cudaMalloc(&C, size_t(m) * n * 8), "malloc");
    cuda_check(cudaMemcpy(A, ha.data(), ha.size() * 8, cudaMemcpyHostToDevice), "copy");
    cuda_check(cudaMemcpy(B, hb.data(), hb.size() * 8, cudaMemcpyHostToDevice), "copy");
    const double one = 1, zero = 0;
    auto ours = [&] {
      if (tcgemm_dgemm('N', 'N', m, n, k, 1.0, A, m, B, k, 0.0, C, m, s) != TCGEMM_SUCCESS) {
        std::fprintf(stderr, "tcgemm_dgemm: %s\n", tcgemm_last_error());
        std::exit(1);
      }
    };
    auto theirs = [&] { cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, A, m, B, k, &zero, C, m); };
    const double th = host_us(ours), ch = host_us(theirs);
    const double te = event_us(ours, s), ce = event_us(theirs, s);
    std::printf("%5dx%5dx%5d   %8.2f     %8.2f      %8.2f      %8.2f\n", m, n, k, th, ch, te, ce);
    cudaFree(A);
    cudaFree(B);
    cudaFree(C);
  }
  cublasDestroy(h);
  cudaStreamDestroy(s);
  return 0;
}
}  // namespace

int main(int argc, char** argv) { return tcgemm::bench::guarded_main(run, argc, argv); }
