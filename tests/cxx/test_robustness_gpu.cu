// GPU tests of the library's promises at its edges (the robustness issue): a CUDA error left pending by the
// caller is not reported as tcgemm's (the kernel runs and the status says so); a sticky error gives
// TCGEMM_ERROR_CONTEXT_LOST and launches nothing; cudaDeviceReset leaves no dangling pointer, pool or kernel
// attribute behind; host calls from many threads are correct and do not wait for the legacy stream;
// alpha = 0 reads neither A nor B (NaN there stays out of C); device queries answer for the device asked.
// Tests that break the process's CUDA context run in a child process (threadsafe death-test style, which
// re-executes this binary rather than forking a process that has CUDA state).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "gpu_test_util.hpp"
#include "reference_check.hpp"
#include "tcgemm/tcgemm.h"

namespace {

using tcgemm::test::GemmCall;
using tcgemm::test::GemmSpec;
using tcgemm::test::dgemm_config_call;
using tcgemm::test::run_and_check;
using tcgemm::test::spec;

// ---- helpers -----------------------------------------------------------------------------------------

// Leaves a non-sticky error pending in the runtime's per-thread slot, as an unchecked failing call in user
// code would (a bad cudaFree, an invalid device number).
void leave_pending_error() {
  (void)cudaFree(reinterpret_cast<void*>(0x10));  // not an allocation: cudaErrorInvalidValue
  ASSERT_NE(cudaPeekAtLastError(), cudaSuccess) << "the test could not leave an error pending";
}

// Whether `got` is C = alpha A B + beta C0 (column-major, NN, packed), judged by the project's one reference
// check against a host loop (bench/check/reference_check.hpp).
::testing::AssertionResult matches_host_gemm(int64_t m, int64_t n, int64_t k, double alpha,
                                             const std::vector<double>& a, const std::vector<double>& b, double beta,
                                             const std::vector<double>& c0, const std::vector<double>& got) {
  tcgemm::check::Gemm g;
  g.m = m;
  g.n = n;
  g.k = k;
  g.alpha = alpha;
  g.beta = beta;
  g.A = a.data();
  g.lda = m;
  g.B = b.data();
  g.ldb = k;
  tcgemm::check::OutputLayout layout;
  layout.ld = m;
  const std::vector<double> reference = tcgemm::check::host_gemm(g, layout, c0.data());
  const tcgemm::check::Report r = tcgemm::check::check_result(g, layout, c0.data(), got.data(), reference.data());
  if (r.pass()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << r.summary("host");
}

std::vector<double> random_vector(size_t count, uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> v(count);
  for (double& x : v) x = u(gen);
  return v;
}

// One NN product on the device through `call`, checked on the host. Returns a message on failure.
::testing::AssertionResult device_gemm_round_trip(
    int64_t m, int64_t n, int64_t k, uint64_t seed, cudaStream_t stream,
    const std::function<tcgemm_status(const double*, const double*, double*, cudaStream_t)>& call) {
  const std::vector<double> a = random_vector(size_t(m * k), seed), b = random_vector(size_t(n * k), seed + 1),
                            c0 = random_vector(size_t(m * n), seed + 2);
  tcgemm::test::DeviceBuffer<double> dA(a.size()), dB(b.size()), dC(c0.size());
  if (!dA.ok() || !dB.ok() || !dC.ok()) return ::testing::AssertionFailure() << "cudaMalloc failed";
  if (dA.upload(a, stream) != cudaSuccess || dB.upload(b, stream) != cudaSuccess ||
      dC.upload(c0, stream) != cudaSuccess)
    return ::testing::AssertionFailure() << "upload failed";
  const tcgemm_status st = call(dA.get(), dB.get(), dC.get(), stream);
  if (st != TCGEMM_SUCCESS)
    return ::testing::AssertionFailure() << tcgemm_status_string(st) << ": " << tcgemm_last_error();
  if (cudaStreamSynchronize(stream) != cudaSuccess) return ::testing::AssertionFailure() << "sync failed";
  std::vector<double> got;
  if (dC.download(&got) != cudaSuccess) return ::testing::AssertionFailure() << "download failed";
  return matches_host_gemm(m, n, k, -0.5, a, b, 0.25, c0, got);
}

// ---- a CUDA error left pending by the caller --------------------------------------------------------

// Every launch route: the call succeeds, its kernel ran (C is right), and the pending error is consumed.
TEST(PendingError, NotAttributedToTcgemm) {
  TCGEMM_REQUIRE_GPU();
  struct Route {
    const char* name;
    GemmCall call;
    GemmSpec s;
  };
  auto with_pending = [](GemmCall inner) {
    return GemmCall([inner](const GemmSpec& s, const double* A, int64_t lda, const double* B, int64_t ldb, double* C,
                            int64_t ldc, cudaStream_t stream) {
      leave_pending_error();
      return inner(s, A, lda, B, ldb, C, ldc, stream);
    });
  };
  auto dgemm = [](const GemmSpec& s, const double* A, int64_t lda, const double* B, int64_t ldb, double* C,
                  int64_t ldc, cudaStream_t stream) {
    return tcgemm_dgemm(s.transa, s.transb, s.m, s.n, s.k, s.alpha, A, lda, B, ldb, s.beta, C, ldc, stream);
  };
  tcgemm_config shared_a{}, shared_ab{};
  shared_a.family = TCGEMM_FAMILY_SHARED_A;
  shared_ab.family = TCGEMM_FAMILY_SHARED_AB;
  GemmSpec blas = spec(70, 45, 33, 71);
  blas.alpha = -0.5;
  blas.beta = 0.25;
  GemmSpec scale = blas;  // alpha = 0: the scaling kernel
  scale.alpha = 0.0;
  const GemmSpec fixed8 = spec(8, 8, 4, 72), row = spec(8, 8, 21, 73), grid = spec(40, 24, 12, 74);
  std::vector<Route> routes = {
      {"tcgemm_dgemm", dgemm, blas},
      {"tcgemm_dgemm alpha=0", dgemm, scale},
      {"shared_a", dgemm_config_call(shared_a), blas},
      {"shared_ab", dgemm_config_call(shared_ab), blas},
      {"single",
       [](const GemmSpec&, const double* A, int64_t lda, const double* B, int64_t ldb, double* C, int64_t ldc,
          cudaStream_t st) { return tcgemm_dmma_single(A, lda, B, ldb, C, ldc, st); },
       fixed8},
      {"row",
       [](const GemmSpec& s, const double* A, int64_t lda, const double* B, int64_t ldb, double* C, int64_t ldc,
          cudaStream_t st) { return tcgemm_dmma_row(s.k, A, lda, B, ldb, C, ldc, st); },
       row},
      {"warp_per_block",
       [](const GemmSpec& s, const double* A, int64_t lda, const double* B, int64_t ldb, double* C, int64_t ldc,
          cudaStream_t st) { return tcgemm_dmma_warp_per_block(s.m, s.n, s.k, A, lda, B, ldb, C, ldc, st); },
       grid},
      {"block_tile",
       [](const GemmSpec& s, const double* A, int64_t lda, const double* B, int64_t ldb, double* C, int64_t ldc,
          cudaStream_t st) { return tcgemm_dmma_block_tile(s.m, s.n, s.k, 16, 8, A, lda, B, ldb, C, ldc, st); },
       grid},
  };
  if (tcgemm::test::hopper_path_expected()) {
    tcgemm_config sm90{};
    sm90.family = TCGEMM_FAMILY_SM90_MMA;
    routes.push_back({"sm90_mma", dgemm_config_call(sm90), blas});
  }
  for (const Route& r : routes) {
    EXPECT_TRUE(run_and_check(r.s, with_pending(r.call))) << r.name;
    EXPECT_EQ(cudaPeekAtLastError(), cudaSuccess) << r.name << ": the pending error should be consumed";
  }
}

TEST(PendingError, PeakAndHostPath) {
  TCGEMM_REQUIRE_GPU();
  tcgemm::test::DeviceBuffer<double> dA(32), dB(32), dC(64 * 16);
  const std::vector<double> a(32, 1.0), b(32, 0.5);
  ASSERT_EQ(dA.upload(a), cudaSuccess);
  ASSERT_EQ(dB.upload(b), cudaSuccess);
  leave_pending_error();
  ASSERT_EQ(tcgemm_dmma_peak(64, 16, 3, dA.get(), 8, dB.get(), 4, dC.get(), 64, nullptr), TCGEMM_SUCCESS)
      << tcgemm_last_error();
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<double> c;
  ASSERT_EQ(dC.download(&c), cudaSuccess);
  for (double v : c) ASSERT_EQ(v, 3 * 4 * 0.5);  // niter * (row of ones) . (column of halves)

  const int64_t m = 33, n = 20, k = 17;
  const std::vector<double> ha = random_vector(m * k, 5), hb = random_vector(k * n, 6), hc0 = random_vector(m * n, 7);
  std::vector<double> hc = hc0;
  leave_pending_error();
  ASSERT_EQ(tcgemm_dgemm_host('N', 'N', m, n, k, -0.5, ha.data(), m, hb.data(), k, 0.25, hc.data(), m),
            TCGEMM_SUCCESS)
      << tcgemm_last_error();
  EXPECT_TRUE(matches_host_gemm(m, n, k, -0.5, ha, hb, 0.25, hc0, hc));
}

// ---- a sticky error: the context is lost ----------------------------------------------------------------

__global__ void write_to_null_page(double* p) { p[threadIdx.x] = 1.0; }

// Child process: a kernel faults, the caller sees the fault; every tcgemm entry point that would launch or
// allocate then reports TCGEMM_ERROR_CONTEXT_LOST (never success, never a plain CUDA error).
void sticky_error_child() {
  double *a = nullptr, *b = nullptr, *c = nullptr;
  if (cudaMalloc(&a, 64 * 64 * 8) || cudaMalloc(&b, 64 * 64 * 8) || cudaMalloc(&c, 64 * 64 * 8)) std::exit(2);
  write_to_null_page<<<1, 32>>>(reinterpret_cast<double*>(0x100));
  if (cudaDeviceSynchronize() != cudaErrorIllegalAddress) std::exit(3);
  tcgemm_status st = tcgemm_dgemm('N', 'N', 64, 64, 64, 1.0, a, 64, b, 64, 0.0, c, 64, nullptr);
  if (st != TCGEMM_ERROR_CONTEXT_LOST) {
    std::fprintf(stderr, "dgemm: %s: %s\n", tcgemm_status_string(st), tcgemm_last_error());
    std::exit(4);
  }
  if (std::string(tcgemm_last_error()).find("cudaErrorIllegalAddress") == std::string::npos) std::exit(5);
  std::vector<double> h(64 * 64, 1.0);
  st = tcgemm_dgemm_host('N', 'N', 64, 64, 64, 1.0, h.data(), 64, h.data(), 64, 0.0, h.data(), 64);
  if (st != TCGEMM_ERROR_CONTEXT_LOST) {
    std::fprintf(stderr, "dgemm_host: %s: %s\n", tcgemm_status_string(st), tcgemm_last_error());
    std::exit(6);
  }
  std::fprintf(stderr, "child done\n");
  std::exit(0);
}

TEST(StickyError, ReportedAsContextLost) {
  TCGEMM_REQUIRE_GPU();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(sticky_error_child(), ::testing::ExitedWithCode(0), "child done");
}

// ---- cudaDeviceReset ------------------------------------------------------------------------------------

// Child process (the reset would destroy the other tests' cuBLAS handle): host and device calls before and
// after a reset, through the families whose kernels need the opt-in shared-memory attribute.
void device_reset_child() {
  auto host_call = [](uint64_t seed) {
    const int64_t m = 70, n = 50, k = 40;
    const std::vector<double> a = random_vector(m * k, seed), b = random_vector(k * n, seed + 1),
                              c0 = random_vector(m * n, seed + 2);
    std::vector<double> c = c0;
    const tcgemm_status st = tcgemm_dgemm_host('N', 'N', m, n, k, -0.5, a.data(), m, b.data(), k, 0.25, c.data(), m);
    if (st != TCGEMM_SUCCESS) {
      std::fprintf(stderr, "host call: %s: %s\n", tcgemm_status_string(st), tcgemm_last_error());
      return false;
    }
    const auto ok = matches_host_gemm(m, n, k, -0.5, a, b, 0.25, c0, c);
    if (!ok) std::fprintf(stderr, "host call: %s\n", ok.message());
    return bool(ok);
  };
  auto device_call = [](const tcgemm_config& cfg, uint64_t seed) {
    const auto ok = device_gemm_round_trip(150, 140, 70, seed, nullptr,
                                           [&](const double* A, const double* B, double* C, cudaStream_t s) {
                                             return tcgemm_dgemm_config(&cfg, 'N', 'N', 150, 140, 70, -0.5, A, 150,
                                                                        B, 70, 0.25, C, 150, s);
                                           });
    if (!ok) std::fprintf(stderr, "device call (family %d): %s\n", cfg.family, ok.message());
    return bool(ok);
  };
  tcgemm_config shared_ab{};  // default tile 128: 141 KB of shared memory, above the 48 KB default
  shared_ab.family = TCGEMM_FAMILY_SHARED_AB;
  tcgemm_config automatic{};  // sm90_mma on an H100 (73 KB and more)
  int failures = 0;
  for (int round = 0; round < 3; ++round) {
    failures += !host_call(100 + round);
    failures += !device_call(shared_ab, 200 + round);
    failures += !device_call(automatic, 300 + round);
    if (cudaDeviceReset() != cudaSuccess) std::exit(2);
  }
  // After the reset the pool of the destroyed context is not touched; releasing works on the new one.
  if (tcgemm_release_workspace() != TCGEMM_SUCCESS) ++failures;
  failures += !host_call(400);
  if (failures) std::exit(3);
  std::fprintf(stderr, "child done\n");
  std::exit(0);
}

TEST(DeviceReset, HostAndDeviceCallsAfterReset) {
  TCGEMM_REQUIRE_GPU();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(device_reset_child(), ::testing::ExitedWithCode(0), "child done");
}

// ---- threads and streams --------------------------------------------------------------------------------

TEST(Concurrency, HostCallsFromManyThreads) {
  TCGEMM_REQUIRE_GPU();
  constexpr int kThreads = 8, kCalls = 4;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([t, &failures] {
      for (int i = 0; i < kCalls; ++i) {
        const int64_t m = 40 + 7 * t, n = 30 + 5 * i, k = 20 + t + i;
        const std::vector<double> a = random_vector(m * k, 1000 * t + i), b = random_vector(k * n, 1000 * t + i + 500),
                                  c0 = random_vector(m * n, 1000 * t + i + 900);
        std::vector<double> c = c0;
        if (tcgemm_dgemm_host('N', 'N', m, n, k, -0.5, a.data(), m, b.data(), k, 0.25, c.data(), m) !=
                TCGEMM_SUCCESS ||
            !matches_host_gemm(m, n, k, -0.5, a, b, 0.25, c0, c))
          ++failures;
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST(Concurrency, DeviceCallsOnManyStreamsFromManyThreads) {
  TCGEMM_REQUIRE_GPU();
  constexpr int kThreads = 6;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([t, &failures] {
      cudaStream_t stream = nullptr;
      if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess) {
        ++failures;
        return;
      }
      const int64_t m = 90 + 13 * t, n = 70 + 3 * t, k = 50;
      const auto ok = device_gemm_round_trip(m, n, k, 77 + t, stream,
                                             [&](const double* A, const double* B, double* C, cudaStream_t s) {
                                               return tcgemm_dgemm('N', 'N', m, n, k, -0.5, A, m, B, k, 0.25, C, m, s);
                                             });
      if (!ok) ++failures;
      (void)cudaStreamDestroy(stream);
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
}

// Spins for about `ns` nanoseconds of GPU time.
__global__ void spin_kernel(long long ns) {
  const long long start = clock64();
  // clock64 counts SM cycles; 2 GHz is above every current part's boost clock, so this spins at least `ns`.
  while (clock64() - start < ns * 2) {
  }
}

// A host call runs on a stream of its own: it neither waits for work on the legacy default stream nor makes
// later legacy-stream work wait for it.
TEST(Concurrency, HostCallDoesNotWaitForTheLegacyStream) {
  TCGEMM_REQUIRE_GPU();
  const int64_t m = 64, n = 64, k = 64;
  const std::vector<double> a = random_vector(m * k, 11), b = random_vector(k * n, 12);
  std::vector<double> c(m * n, 0.0);
  ASSERT_EQ(tcgemm_dgemm_host('N', 'N', m, n, k, 1.0, a.data(), m, b.data(), k, 0.0, c.data(), m), TCGEMM_SUCCESS);
  spin_kernel<<<1, 1>>>(1000LL * 1000 * 1000);  // about a second on the legacy stream
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_EQ(tcgemm_dgemm_host('N', 'N', m, n, k, 1.0, a.data(), m, b.data(), k, 0.0, c.data(), m), TCGEMM_SUCCESS)
      << tcgemm_last_error();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(cudaStreamQuery(nullptr), cudaErrorNotReady) << "the host call waited for the legacy stream ("
                                                        << seconds << " s)";
  EXPECT_LT(seconds, 0.5);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  (void)cudaGetLastError();
  EXPECT_TRUE(matches_host_gemm(m, n, k, 1.0, a, b, 0.0, c, c));
}

// ---- alpha = 0: A and B are not read ----------------------------------------------------------------------

// NaN everywhere in A and B: with alpha = 0, C must be exactly beta * C0 (or exactly 0 for beta = 0).
TEST(AlphaZero, NaNOperandsAreNotRead) {
  TCGEMM_REQUIRE_GPU();
  const int64_t m = 77, n = 45, k = 30;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> a(m * k, nan), b(k * n, nan), c0 = random_vector(m * n, 21);
  tcgemm::test::DeviceBuffer<double> dA(a.size()), dB(b.size()), dC(c0.size());
  ASSERT_EQ(dA.upload(a), cudaSuccess);
  ASSERT_EQ(dB.upload(b), cudaSuccess);
  std::vector<tcgemm_config> configs(1);  // auto
  for (int32_t f : {TCGEMM_FAMILY_SHARED_A, TCGEMM_FAMILY_SHARED_AB}) {
    tcgemm_config c{};
    c.family = f;
    configs.push_back(c);
  }
  if (tcgemm::test::hopper_path_expected()) {
    tcgemm_config c{};
    c.family = TCGEMM_FAMILY_SM90_MMA;
    configs.push_back(c);
  }
  for (const tcgemm_config& cfg : configs)
    for (double beta : {0.0, 0.5, -2.0}) {
      SCOPED_TRACE(::testing::Message() << "family " << cfg.family << " beta " << beta);
      ASSERT_EQ(dC.upload(c0), cudaSuccess);
      ASSERT_EQ(tcgemm_dgemm_config(&cfg, 'N', 'N', m, n, k, 0.0, dA.get(), m, dB.get(), k, beta, dC.get(), m,
                                    nullptr),
                TCGEMM_SUCCESS)
          << tcgemm_last_error();
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      std::vector<double> got;
      ASSERT_EQ(dC.download(&got), cudaSuccess);
      for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], beta * c0[i]) << "element " << i;
      // The host path: the same, and A, B are not even copied.
      std::vector<double> hc = c0;
      ASSERT_EQ(tcgemm_dgemm_host('T', 'N', m, n, k, 0.0, a.data(), k, b.data(), k, beta, hc.data(), m),
                TCGEMM_SUCCESS)
          << tcgemm_last_error();
      for (size_t i = 0; i < hc.size(); ++i) ASSERT_EQ(hc[i], beta * c0[i]) << "element " << i;
    }
}

// ---- device queries answer for the device asked about ------------------------------------------------------

// tcgemm_dgemm_select_config(d) must describe device d whatever the current device is, and leave the
// current device as it was (on a node of mixed GPUs a cache entry made from the wrong device would pick the
// wrong family for d).
TEST(DeviceCache, SelectConfigAnswersForTheDeviceAsked) {
  TCGEMM_REQUIRE_GPU();
  int count = 0;
  ASSERT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
  for (int asked = 0; asked < count; ++asked) {
    ASSERT_EQ(cudaSetDevice(asked), cudaSuccess);
    tcgemm_config own{};
    ASSERT_EQ(tcgemm_dgemm_select_config(-1, &own), TCGEMM_SUCCESS) << tcgemm_last_error();
    int cc = 0;
    ASSERT_EQ(cudaDeviceGetAttribute(&cc, cudaDevAttrComputeCapabilityMajor, asked), cudaSuccess);
    if (cc != 9) EXPECT_EQ(own.family, TCGEMM_FAMILY_SHARED_AB);
    for (int current = 0; current < count; ++current) {
      ASSERT_EQ(cudaSetDevice(current), cudaSuccess);
      tcgemm_config cfg{};
      ASSERT_EQ(tcgemm_dgemm_select_config(asked, &cfg), TCGEMM_SUCCESS) << tcgemm_last_error();
      EXPECT_EQ(cfg.family, own.family) << "device " << asked << " asked from device " << current;
      int after = -1;
      ASSERT_EQ(cudaGetDevice(&after), cudaSuccess);
      EXPECT_EQ(after, current);
    }
  }
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
}

}  // namespace
