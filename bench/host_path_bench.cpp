// tcgemm-host-bench: DGEMM on host arrays. tcgemm_dgemm_host against NVBLAS (its dgemm_, loaded with dlopen,
// auto-pinning on, CPU fallback pointed at the system BLAS) and cublasXtDgemm, on the same random host arrays,
// pageable and then pinned, interleaved in one process; beside them the bound max(bytes up / pinned H2D rate,
// bytes down / pinned D2H rate, time of tcgemm_dgemm on device arrays) with the link rates measured here.
// Each library's first call (not timed) is checked against tcgemm's result (normwise difference). The calls
// are synchronous, so each is timed on the host clock: median of --reps runs; a library whose checked call
// took over --slow-seconds gets --slow-reps runs instead, marked "*" (cublasXt on pageable arrays takes about
// 10 s per call at n = 16384).
//   tcgemm-host-bench [--sizes 1024,2048,...] [--shapes MxNxK,...] [--reps 10] [--slow-reps 3]
//                     [--slow-seconds 4] [--beta 0.5] [--no-nvblas] [--no-xt]
//                     [--nvblas-lib libnvblas.so.13] [--cpu-blas /usr/lib/x86_64-linux-gnu/blas/libblas.so.3]
//   tcgemm-host-bench --strided   pinned 2D copy rates (cudaMemcpy2DAsync) by row length, each way: what a
//                                 row panel of a column-major matrix (rows of panel x 8 bytes) costs
//   tcgemm-host-bench --duplex    pinned copies both ways at once (as the pipeline runs them) against each
//                                 way alone: what the bound's "each way at its own rate" assumes
//   tcgemm-host-bench --devices 0 --devices 0,1 [--xt-gpus 1,2] [--quick] [--sizes ...] [--shapes ...]
//                     [--reps 10] [--slow-reps 3] [--slow-seconds 4] [--beta 0.5] [--xt-pageable-max-n 8192]
//                                 more than one GPU: tcgemm_dgemm_host on each device list (one --devices per
//                                 list, tcgemm_set_host_devices) and cublasXtDgemm on the first 1, 2, ... GPUs
//                                 (cublasXtDeviceSelect), pageable then pinned; default sizes 8192, 16384,
//                                 32768 and 32768x8192x16384 (--quick: 8192, 16384 and 16384x4096x8192).
//                                 Each configuration's first call is checked against the first list's result
//                                 (normwise difference), then one warm-up, then the median of --reps calls
//                                 (--slow-reps, marked "*", for one whose checked call took over --slow-seconds);
//                                 cublasXt on pageable arrays only up to n = --xt-pageable-max-n (it stages
//                                 through its own small pinned buffers: about 10 s a call at 16384 on one H100).
#include <cublasXt.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "tcgemm/tcgemm.h"
#include "timing.hpp"

namespace {

using tcgemm::bench::cuda_check;
using tcgemm::bench::median_of;

using Dgemm = void (*)(const char*, const char*, const int*, const int*, const int*, const double*, const double*,
                       const int*, const double*, const int*, const double*, double*, const int*, size_t, size_t);

double seconds_of(const std::function<void()>& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Pinned 512 MiB copies: H2D alone, D2H alone, then both at once on two streams (each timed by its own
// events); median of 10 each.
void duplex_link_rates() {
  const size_t bytes = size_t(512) << 20;
  void *hu = nullptr, *hd = nullptr, *du = nullptr, *dd = nullptr;
  cuda_check(cudaMallocHost(&hu, bytes), "cudaMallocHost");
  cuda_check(cudaMallocHost(&hd, bytes), "cudaMallocHost");
  cuda_check(cudaMalloc(&du, bytes), "cudaMalloc");
  cuda_check(cudaMalloc(&dd, bytes), "cudaMalloc");
  std::memset(hu, 1, bytes);
  cudaStream_t s[2];
  cudaEvent_t ev[4];
  for (auto& x : s) cuda_check(cudaStreamCreateWithFlags(&x, cudaStreamNonBlocking), "cudaStreamCreate");
  for (auto& e : ev) cuda_check(cudaEventCreate(&e), "cudaEventCreate");
  auto ms_between = [](cudaEvent_t a, cudaEvent_t b) {
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, a, b), "cudaEventElapsedTime");
    return double(ms);
  };
  std::vector<double> up_alone, down_alone, up_both, down_both;
  for (int i = 0; i < 11; ++i) {
    for (int mode = 0; mode < 3; ++mode) {  // 0: up alone, 1: down alone, 2: both
      if (mode != 1) {
        cuda_check(cudaEventRecord(ev[0], s[0]), "cudaEventRecord");
        cuda_check(cudaMemcpyAsync(du, hu, bytes, cudaMemcpyHostToDevice, s[0]), "H2D");
        cuda_check(cudaEventRecord(ev[1], s[0]), "cudaEventRecord");
      }
      if (mode != 0) {
        cuda_check(cudaEventRecord(ev[2], s[1]), "cudaEventRecord");
        cuda_check(cudaMemcpyAsync(hd, dd, bytes, cudaMemcpyDeviceToHost, s[1]), "D2H");
        cuda_check(cudaEventRecord(ev[3], s[1]), "cudaEventRecord");
      }
      cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
      if (i == 0) continue;
      const double gb = double(bytes) / 1e9;
      if (mode == 0) up_alone.push_back(gb / (ms_between(ev[0], ev[1]) * 1e-3));
      if (mode == 1) down_alone.push_back(gb / (ms_between(ev[2], ev[3]) * 1e-3));
      if (mode == 2) {
        up_both.push_back(gb / (ms_between(ev[0], ev[1]) * 1e-3));
        down_both.push_back(gb / (ms_between(ev[2], ev[3]) * 1e-3));
      }
    }
  }
  std::printf("# pinned 512 MiB copies, GB/s (median of 10): H2D alone, D2H alone, H2D and D2H at once\n");
  std::printf("alone    H2D %6.1f  D2H %6.1f\nduplex   H2D %6.1f  D2H %6.1f\n", median_of(up_alone),
              median_of(down_alone), median_of(up_both), median_of(down_both));
  for (auto& e : ev) cudaEventDestroy(e);
  for (auto& x : s) cudaStreamDestroy(x);
  cudaFreeHost(hu);
  cudaFreeHost(hd);
  cudaFree(du);
  cudaFree(dd);
}

// Pinned 2D copies, 512 MiB per copy, rows of `row` bytes taken from every fourth row slot (source pitch
// 4 x row, as a panel of a quarter of a column-major matrix's rows), packed on the other side; median of 10
// event-timed copies each way. Shows where the copy engines' per-row cost stops mattering.
void strided_link_rates() {
  const size_t bytes = size_t(512) << 20;
  void *h = nullptr, *d = nullptr;
  cuda_check(cudaMallocHost(&h, 4 * bytes), "cudaMallocHost");
  cuda_check(cudaMalloc(&d, bytes), "cudaMalloc");
  std::memset(h, 1, 4 * bytes);
  cudaEvent_t t0, t1;
  cuda_check(cudaEventCreate(&t0), "cudaEventCreate");
  cuda_check(cudaEventCreate(&t1), "cudaEventCreate");
  std::printf("# pinned 2D copies of 512 MiB: row bytes, rows, H2D GB/s, D2H GB/s (source pitch 4 x row)\n");
  for (size_t row : {size_t(4) << 10, size_t(8) << 10, size_t(16) << 10, size_t(32) << 10, size_t(64) << 10,
                     size_t(128) << 10, size_t(1) << 20, bytes}) {
    const size_t rows = bytes / row, pitch = row == bytes ? row : 4 * row;
    double rate[2];
    for (int dir = 0; dir < 2; ++dir) {
      std::vector<double> r;
      for (int i = 0; i < 11; ++i) {
        cuda_check(cudaEventRecord(t0), "cudaEventRecord");
        if (dir == 0)
          cuda_check(cudaMemcpy2DAsync(d, row, h, pitch, row, rows, cudaMemcpyHostToDevice), "2D H2D");
        else
          cuda_check(cudaMemcpy2DAsync(h, pitch, d, row, row, rows, cudaMemcpyDeviceToHost), "2D D2H");
        cuda_check(cudaEventRecord(t1), "cudaEventRecord");
        cuda_check(cudaEventSynchronize(t1), "cudaEventSynchronize");
        float ms = 0;
        cuda_check(cudaEventElapsedTime(&ms, t0, t1), "cudaEventElapsedTime");
        if (i) r.push_back(double(bytes) / (ms * 1e-3) / 1e9);
      }
      rate[dir] = median_of(r);
    }
    std::printf("%10zu %8zu %7.1f %7.1f\n", row, rows, rate[0], rate[1]);
  }
  cudaEventDestroy(t0);
  cudaEventDestroy(t1);
  cudaFreeHost(h);
  cudaFree(d);
}

// Pinned link rates (GB/s): H2D alone, D2H alone, 256 MiB copies, median of 10.
void link_rates(double* h2d, double* d2h) {
  const size_t bytes = size_t(256) << 20;
  void *h = nullptr, *d = nullptr;
  cuda_check(cudaMallocHost(&h, bytes), "cudaMallocHost");
  cuda_check(cudaMalloc(&d, bytes), "cudaMalloc");
  std::memset(h, 1, bytes);
  std::vector<double> up, down;
  for (int i = 0; i < 11; ++i) {
    const double tu = seconds_of([&] { cuda_check(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice), "H2D"); });
    const double td = seconds_of([&] { cuda_check(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost), "D2H"); });
    if (i) up.push_back(bytes / tu / 1e9), down.push_back(bytes / td / 1e9);
  }
  *h2d = median_of(up);
  *d2h = median_of(down);
  cudaFreeHost(h);
  cudaFree(d);
}

// tcgemm_dgemm on device arrays, the compute part of the bound: median of 10 event-timed runs.
double device_seconds(int64_t m, int64_t n, int64_t k, double beta) {
  double *a, *b, *c;
  cuda_check(cudaMalloc(&a, size_t(m * k) * 8), "cudaMalloc");
  cuda_check(cudaMalloc(&b, size_t(k * n) * 8), "cudaMalloc");
  cuda_check(cudaMalloc(&c, size_t(m * n) * 8), "cudaMalloc");
  std::vector<double> h(size_t(std::max({m * k, k * n, m * n})));
  std::mt19937_64 g(7);
  std::uniform_real_distribution<double> u(-1, 1);
  for (double& x : h) x = u(g);
  cuda_check(cudaMemcpy(a, h.data(), size_t(m * k) * 8, cudaMemcpyHostToDevice), "H2D");
  cuda_check(cudaMemcpy(b, h.data(), size_t(k * n) * 8, cudaMemcpyHostToDevice), "H2D");
  cuda_check(cudaMemcpy(c, h.data(), size_t(m * n) * 8, cudaMemcpyHostToDevice), "H2D");
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  std::vector<double> t;
  for (int i = 0; i < 12; ++i) {
    cudaEventRecord(e0);
    if (tcgemm_dgemm('N', 'N', m, n, k, 1.0, a, m, b, k, beta, c, m, nullptr) != TCGEMM_SUCCESS) {
      std::fprintf(stderr, "tcgemm_dgemm: %s\n", tcgemm_last_error());
      std::exit(1);
    }
    cudaEventRecord(e1);
    cuda_check(cudaEventSynchronize(e1), "event");
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    if (i >= 2) t.push_back(ms * 1e-3);
  }
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return median_of(t);
}

std::vector<int64_t> parse_list(const std::string& s) {
  std::vector<int64_t> v;
  size_t p = 0;
  while (p < s.size()) {
    const size_t q = s.find(',', p);
    v.push_back(std::stoll(s.substr(p, q - p)));
    if (q == std::string::npos) break;
    p = q + 1;
  }
  return v;
}

struct Shape {
  int64_t m, n, k;
};

double rel_diff(const std::vector<double>& x, const std::vector<double>& y) {
  double num = 0, den = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    num += (x[i] - y[i]) * (x[i] - y[i]);
    den += y[i] * y[i];
  }
  return std::sqrt(num / std::max(den, 1e-300));
}

// Fills v with values in [-1, 1) from a hash of each index (fast, on several threads, reproducible).
void fill_hashed(std::vector<double>& v, uint64_t salt) {
  const size_t n = v.size();
  const unsigned threads = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (size_t i = n * t / threads; i < n * (t + 1) / threads; ++i) {
        uint64_t x = (uint64_t(i) + 1) * 0x9e3779b97f4a7c15ull ^ salt;
        x ^= x >> 31;
        x *= 0xbf58476d1ce4e5b9ull;
        x ^= x >> 27;
        x *= 0x94d049bb133111ebull;
        x ^= x >> 31;
        v[i] = double(x >> 11) * (2.0 / 9007199254740992.0) - 1.0;
      }
    });
  for (auto& th : pool) th.join();
}

std::string list_text(const std::vector<int32_t>& l) {
  std::string t;
  for (size_t i = 0; i < l.size(); ++i) t += (i ? "," : "") + std::to_string(l[i]);
  return t;
}

// --devices mode (see the top of the file).
int run_multi(std::vector<Shape> shapes, const std::vector<std::vector<int32_t>>& lists, std::vector<int64_t> xt_gpus,
              bool quick, int reps, int slow_reps, double slow_seconds, double beta, int64_t xt_pageable_max_n) {
  int visible = 0;
  cuda_check(cudaGetDeviceCount(&visible), "cudaGetDeviceCount");
  if (shapes.empty()) {
    if (quick) shapes = {{8192, 8192, 8192}, {16384, 16384, 16384}, {16384, 4096, 8192}};
    else shapes = {{8192, 8192, 8192}, {16384, 16384, 16384}, {32768, 32768, 32768}, {32768, 8192, 16384}};
  }
  // One cublasXt handle per GPU count, on devices 0 .. count-1.
  struct Xt {
    int gpus;
    cublasXtHandle_t h;
  };
  std::vector<Xt> xts;
  for (int64_t g : xt_gpus) {
    if (g < 1 || g > visible) {
      std::printf("# cublasXt on %ld GPUs: skipped (%d visible)\n", long(g), visible);
      continue;
    }
    std::vector<int> ids(static_cast<size_t>(g));
    for (int i = 0; i < int(g); ++i) ids[size_t(i)] = i;
    cublasXtHandle_t h = nullptr;
    if (cublasXtCreate(&h) != CUBLAS_STATUS_SUCCESS || cublasXtDeviceSelect(h, int(g), ids.data()) != CUBLAS_STATUS_SUCCESS) {
      std::printf("# cublasXt on %ld GPUs: not available\n", long(g));
      continue;
    }
    xts.push_back({int(g), h});
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  std::printf("# %d x %s visible; beta %.2f; TFLOP/s = 2mnk / median host-clock time of %d calls after a checked "
              "call and a warm-up (\"*\": %d calls, the checked call took over %.1f s); x1 = time of the "
              "configuration's 1-GPU counterpart / its time; diff = normwise difference from tcgemm on devices %s\n",
              visible, prop.name, beta, reps, slow_reps, slow_seconds, list_text(lists.front()).c_str());
  std::printf("%-20s %-8s %-22s %9s %5s %7s %9s\n", "shape", "memory", "library", "TFLOP/s", "reps", "x1", "diff");

  for (const Shape& s : shapes) {
    const int64_t m = s.m, n = s.n, k = s.k;
    std::vector<double> A(size_t(m * k)), B(size_t(k * n)), C0(size_t(m * n));
    fill_hashed(A, 1);
    fill_hashed(B, 2);
    fill_hashed(C0, 3);
    std::vector<double> C(C0), ref;
    const double flops = 2.0 * double(m) * double(n) * double(k);
    char shape[64];
    std::snprintf(shape, sizeof shape, "%ldx%ldx%ld", long(m), long(n), long(k));

    struct Config {
      std::string label;
      std::function<void()> call;
      int gpus;  // for the x1 ratio: the 1-GPU configuration of the same library
      bool tcgemm;
    };
    std::vector<Config> configs;
    for (const auto& l : lists)
      configs.push_back({"tcgemm devices " + list_text(l),
                         [&, l] {
                           if (tcgemm_set_host_devices(l.data(), int32_t(l.size())) != TCGEMM_SUCCESS ||
                               tcgemm_dgemm_host('N', 'N', m, n, k, 1.0, A.data(), m, B.data(), k, beta, C.data(),
                                                 m) != TCGEMM_SUCCESS) {
                             std::fprintf(stderr, "tcgemm_dgemm_host: %s\n", tcgemm_last_error());
                             std::exit(1);
                           }
                         },
                         int(l.size()), true});
    for (const Xt& x : xts)
      configs.push_back({"cublasXt " + std::to_string(x.gpus) + " GPU" + (x.gpus > 1 ? "s" : ""),
                         [&, x] {
                           const double one = 1.0;
                           if (cublasXtDgemm(x.h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, A.data(), m, B.data(), k,
                                             &beta, C.data(), m) != CUBLAS_STATUS_SUCCESS) {
                             std::fprintf(stderr, "cublasXtDgemm failed\n");
                             std::exit(1);
                           }
                         },
                         x.gpus, false});

    for (const bool pinned : {false, true}) {
      if (pinned)
        for (auto* v : {&A, &B, &C})
          if (tcgemm_host_register(v->data(), int64_t(v->size() * 8)) != TCGEMM_SUCCESS) {
            std::fprintf(stderr, "tcgemm_host_register: %s\n", tcgemm_last_error());
            return 1;
          }
      std::vector<double> seconds(configs.size(), NAN);
      for (size_t ci = 0; ci < configs.size(); ++ci) {
        const Config& c = configs[ci];
        if (!c.tcgemm && !pinned && std::max({m, n, k}) > xt_pageable_max_n) {
          std::printf("%-20s %-8s %-22s %9s   (skipped: n > --xt-pageable-max-n %ld)\n", shape, "pageable",
                      c.label.c_str(), "-", long(xt_pageable_max_n));
          continue;
        }
        C = C0;
        const double first = seconds_of(c.call);
        double diff = 0.0;
        if (ci == 0) ref = C;
        else diff = rel_diff(C, ref);
        const int r = first > slow_seconds ? slow_reps : reps;
        c.call();  // warm-up
        std::vector<double> t;
        for (int i = 0; i < r; ++i) t.push_back(seconds_of(c.call));
        seconds[ci] = median_of(t);
        // x1: against the same library's first 1-GPU configuration.
        double x1 = NAN;
        for (size_t j = 0; j < ci; ++j)
          if (configs[j].tcgemm == c.tcgemm && configs[j].gpus == 1 && !std::isnan(seconds[j])) {
            x1 = seconds[j] / seconds[ci];
            break;
          }
        std::printf("%-20s %-8s %-22s %8.2f%s %5d %7.2f %9.1e\n", shape, pinned ? "pinned" : "pageable",
                    c.label.c_str(), flops / seconds[ci] / 1e12, r < reps ? "*" : " ", r, x1, diff);
        std::fflush(stdout);
      }
      // tcgemm against cublasXt on the same number of GPUs.
      for (size_t i = 0; i < configs.size(); ++i)
        for (size_t j = 0; j < configs.size(); ++j)
          if (configs[i].tcgemm && !configs[j].tcgemm && configs[i].gpus == configs[j].gpus &&
              !std::isnan(seconds[i]) && !std::isnan(seconds[j]))
            std::printf("%-20s %-8s ratio %s / %s = %.2f\n", shape, pinned ? "pinned" : "pageable",
                        configs[i].label.c_str(), configs[j].label.c_str(), seconds[j] / seconds[i]);
      std::fflush(stdout);
      if (pinned)
        for (auto* v : {&A, &B, &C}) tcgemm_host_unregister(v->data());
    }
  }
  (void)tcgemm_set_host_devices(nullptr, 0);
  for (const Xt& x : xts) cublasXtDestroy(x.h);
  return 0;
}

int run(int argc, char** argv) {
  std::vector<Shape> shapes;
  int reps = 10, slow_reps = 3;
  double slow_seconds = 4.0;
  double beta = 0.5;
  bool use_nvblas = true, use_xt = true, quick = false;
  std::vector<std::vector<int32_t>> device_lists;
  std::vector<int64_t> xt_gpus = {1, 2};
  int64_t xt_pageable_max_n = 8192;
  std::string nvblas_lib = "libnvblas.so.13", cpu_blas = "/usr/lib/x86_64-linux-gnu/blas/libblas.so.3";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--sizes") {
      for (int64_t n : parse_list(next())) shapes.push_back({n, n, n});
    } else if (a == "--shapes") {
      const std::string s = next();
      size_t p = 0;
      while (p < s.size()) {
        const size_t q = s.find(',', p);
        Shape sh{};
        if (std::sscanf(s.substr(p, q - p).c_str(), "%ldx%ldx%ld", &sh.m, &sh.n, &sh.k) != 3) {
          std::fprintf(stderr, "bad shape in %s\n", s.c_str());
          return 2;
        }
        shapes.push_back(sh);
        if (q == std::string::npos) break;
        p = q + 1;
      }
    } else if (a == "--reps") {
      reps = std::stoi(next());
    } else if (a == "--slow-reps") {
      slow_reps = std::stoi(next());
    } else if (a == "--slow-seconds") {
      slow_seconds = std::stod(next());
    } else if (a == "--beta") {
      beta = std::stod(next());
    } else if (a == "--duplex") {
      duplex_link_rates();
      return 0;
    } else if (a == "--strided") {
      strided_link_rates();
      return 0;
    } else if (a == "--devices") {
      std::vector<int32_t> l;
      for (int64_t d : parse_list(next())) l.push_back(int32_t(d));
      device_lists.push_back(l);
    } else if (a == "--xt-gpus") {
      xt_gpus = parse_list(next());
    } else if (a == "--xt-pageable-max-n") {
      xt_pageable_max_n = std::stoll(next());
    } else if (a == "--quick") {
      quick = true;
    } else if (a == "--no-nvblas") {
      use_nvblas = false;
    } else if (a == "--no-xt") {
      use_xt = false;
    } else if (a == "--nvblas-lib") {
      nvblas_lib = next();
    } else if (a == "--cpu-blas") {
      cpu_blas = next();
    } else {
      std::fprintf(stderr, "unknown argument %s\n", a.c_str());
      return 2;
    }
  }
  if (!device_lists.empty())
    return run_multi(shapes, device_lists, use_xt ? xt_gpus : std::vector<int64_t>{}, quick, reps, slow_reps,
                     slow_seconds, beta, xt_pageable_max_n);
  if (shapes.empty())
    for (int64_t n : {1024, 2048, 4096, 8192, 16384}) shapes.push_back({n, n, n});

  Dgemm nvblas_dgemm = nullptr;
  if (use_nvblas) {
    // NVBLAS reads its configuration when loaded: a file naming the CPU BLAS, all GPUs, auto-pinning on.
    if (!std::getenv("NVBLAS_CONFIG_FILE")) {
      const std::string path = "/tmp/tcgemm-host-bench-nvblas.conf";
      FILE* f = std::fopen(path.c_str(), "w");
      if (!f) return 1;
      std::fprintf(f, "NVBLAS_LOGFILE /tmp/tcgemm-host-bench-nvblas.log\nNVBLAS_CPU_BLAS_LIB %s\n"
                      "NVBLAS_GPU_LIST ALL\nNVBLAS_AUTOPIN_MEM_ENABLED\n", cpu_blas.c_str());
      std::fclose(f);
      setenv("NVBLAS_CONFIG_FILE", path.c_str(), 1);
    }
    void* lib = dlopen(nvblas_lib.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib) nvblas_dgemm = reinterpret_cast<Dgemm>(dlsym(lib, "dgemm_"));
    if (!nvblas_dgemm) std::printf("# NVBLAS not available (%s): its columns are empty\n", dlerror());
  }
  cublasXtHandle_t xt = nullptr;
  if (use_xt) {
    int dev = 0;
    if (cublasXtCreate(&xt) != CUBLAS_STATUS_SUCCESS || cublasXtDeviceSelect(xt, 1, &dev) != CUBLAS_STATUS_SUCCESS) {
      std::printf("# cublasXt not available\n");
      xt = nullptr;
    }
  }

  double h2d = 0, d2h = 0;
  link_rates(&h2d, &d2h);
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  std::printf("# device %s; pinned link H2D %.1f GB/s, D2H %.1f GB/s; beta %.2f; median of %d calls after one "
              "warm-up, host clock\n", prop.name, h2d, d2h, beta, reps);
  std::printf("# TFLOP/s per library; bound = max(up bytes / H2D, down bytes / D2H, tcgemm_dgemm on device "
              "arrays); frac = tcgemm / bound; x = tcgemm / NVBLAS\n");
  std::printf("%-20s %-8s %8s %8s %8s %8s %8s %6s %6s %9s %9s\n", "shape", "memory", "tcgemm", "nvblas",
              "cublasXt", "bound", "device", "frac", "x", "diff_nvb", "diff_xt");

  for (const Shape& s : shapes) {
    const int64_t m = s.m, n = s.n, k = s.k;
    std::vector<double> A(size_t(m * k)), B(size_t(k * n)), C0(size_t(m * n));
    std::mt19937_64 g(uint64_t(m * 31 + n * 7 + k));
    std::uniform_real_distribution<double> u(-1, 1);
    for (auto* v : {&A, &B, &C0})
      for (double& x : *v) x = u(g);
    std::vector<double> C = C0, Ct, Cn, Cx;
    const double flops = 2.0 * double(m) * double(n) * double(k);
    const double up = 8.0 * double(m * k + k * n + (beta != 0 ? m * n : 0)), down = 8.0 * double(m * n);
    const double dev_s = device_seconds(m, n, k, beta);
    const double bound_s = std::max({up / (h2d * 1e9), down / (d2h * 1e9), dev_s});
    const int mi = int(m), ni = int(n), ki = int(k);

    auto run_tcgemm = [&] {
      if (tcgemm_dgemm_host('N', 'N', m, n, k, 1.0, A.data(), m, B.data(), k, beta, C.data(), m) != TCGEMM_SUCCESS) {
        std::fprintf(stderr, "tcgemm_dgemm_host: %s\n", tcgemm_last_error());
        std::exit(1);
      }
    };
    auto run_nvblas = [&] {
      const double one = 1.0;
      nvblas_dgemm("N", "N", &mi, &ni, &ki, &one, A.data(), &mi, B.data(), &ki, &beta, C.data(), &mi, 1, 1);
    };
    auto run_xt = [&] {
      const double one = 1.0;
      if (cublasXtDgemm(xt, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, A.data(), m, B.data(), k, &beta, C.data(), m) !=
          CUBLAS_STATUS_SUCCESS) {
        std::fprintf(stderr, "cublasXtDgemm failed\n");
        std::exit(1);
      }
    };
    auto is_pinned = [](const void* p) {
      cudaPointerAttributes a{};
      const bool pinned = cudaPointerGetAttributes(&a, p) == cudaSuccess && a.type == cudaMemoryTypeHost;
      cudaGetLastError();
      return pinned;
    };

    for (const bool pinned : {false, true}) {
      if (pinned) {
        for (auto* v : {&A, &B, &C})
          if (tcgemm_host_register(v->data(), int64_t(v->size() * 8)) != TCGEMM_SUCCESS) {
            std::fprintf(stderr, "tcgemm_host_register: %s\n", tcgemm_last_error());
            return 1;
          }
      }
      // Checked calls from the same C0, then warm-ups, then interleaved timed rounds.
      C = C0;
      const double first_t = seconds_of(run_tcgemm);
      Ct = C;
      double diff_n = NAN, diff_x = NAN, first_n = 0, first_x = 0;
      if (nvblas_dgemm) {
        C = C0;
        first_n = seconds_of(run_nvblas);
        Cn = C;
        diff_n = rel_diff(Cn, Ct);
      }
      if (xt) {
        C = C0;
        first_x = seconds_of(run_xt);
        Cx = C;
        diff_x = rel_diff(Cx, Ct);
      }
      const int reps_t = first_t > slow_seconds ? slow_reps : reps, reps_n = first_n > slow_seconds ? slow_reps : reps,
                reps_x = first_x > slow_seconds ? slow_reps : reps;
      std::vector<double> tt, tn, tx;
      bool memory_changed = false;
      for (int r = 0; r < std::max({reps_t, reps_n, reps_x}); ++r) {
        if (is_pinned(A.data()) != pinned || is_pinned(C.data()) != pinned) memory_changed = true;
        if (r < reps_t) tt.push_back(seconds_of(run_tcgemm));
        if (nvblas_dgemm && r < reps_n) tn.push_back(seconds_of(run_nvblas));
        if (xt && r < reps_x) tx.push_back(seconds_of(run_xt));
      }
      const double t_t = median_of(tt), t_n = tn.empty() ? NAN : median_of(tn), t_x = tx.empty() ? NAN : median_of(tx);
      char shape[64];
      std::snprintf(shape, sizeof shape, "%ldx%ldx%ld", long(m), long(n), long(k));
      std::printf("%-20s %-8s %7.2f%s %7.2f%s %7.2f%s %8.2f %8.2f %6.2f %6.2f %9.1e %9.1e%s\n", shape,
                  pinned ? "pinned" : "pageable", flops / t_t / 1e12, reps_t < reps ? "*" : " ", flops / t_n / 1e12,
                  reps_n < reps ? "*" : " ", flops / t_x / 1e12, reps_x < reps ? "*" : " ",
                  flops / bound_s / 1e12, flops / dev_s / 1e12, bound_s / t_t, t_n / t_t, diff_n, diff_x,
                  memory_changed ? "  (the arrays' pinning changed during the run: another library pinned them)"
                                 : "");
      std::fflush(stdout);
      if (pinned)
        for (auto* v : {&A, &B, &C}) tcgemm_host_unregister(v->data());
    }
  }
  if (xt) cublasXtDestroy(xt);
  return 0;
}
}  // namespace

int main(int argc, char** argv) { return tcgemm::bench::guarded_main(run, argc, argv); }
