// The pipelined host-array path (tcgemm_dgemm_host): every operand form through both schedules (op(A) or op(B)
// resident), several panels, resident operands cut into chunks, columns longer than a staging buffer, the default
// schedule in every form, pageable and pinned arrays in any mix, beta = 0 with a NaN-poisoned C, rows between m and
// ldc that must stay untouched, many threads at once, and no device allocation once warm. The schedule's sizes are
// forced small through the documented environment variables, set before the process's first host call (each test runs
// in its own process under ctest).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "gpu_test_util.hpp"
#include "reference_check.hpp"
#include "tcgemm/tcgemm.h"

namespace {

using tcgemm::test::random_matrix;

struct Case {
  char ta, tb;
  int64_t m, n, k;
  double alpha, beta;
  int64_t pad;  // rows between m and ldc (and between the stored rows and lda, ldb)
  bool pin_a = false, pin_b = false, pin_c = false;
};

std::string name(const Case& c) {
  return std::string(1, c.ta) + c.tb + " " + std::to_string(c.m) + "x" + std::to_string(c.n) + "x" +
         std::to_string(c.k) + " beta " + std::to_string(c.beta) + (c.pin_a ? " A pinned" : "") +
         (c.pin_b ? " B pinned" : "") + (c.pin_c ? " C pinned" : "");
}

// Pins a vector's memory for the lifetime of the object (tcgemm_host_register), or does nothing.
struct Pin {
  void* p = nullptr;
  Pin(std::vector<double>& v, bool on) {
    if (on && tcgemm_host_register(v.data(), int64_t(v.size() * sizeof(double))) == TCGEMM_SUCCESS) p = v.data();
  }
  ~Pin() {
    if (p) (void)tcgemm_host_unregister(p);
  }
  Pin(const Pin&) = delete;
  Pin& operator=(const Pin&) = delete;
};

::testing::AssertionResult run_case(const Case& c, uint64_t seed) {
  const bool na = c.ta == 'N', nb = c.tb == 'N';
  const int64_t a_rows = na ? c.m : c.k, a_cols = na ? c.k : c.m, b_rows = nb ? c.k : c.n, b_cols = nb ? c.n : c.k;
  const int64_t lda = a_rows + c.pad, ldb = b_rows + c.pad, ldc = c.m + c.pad;
  std::vector<double> a = random_matrix(a_rows, a_cols, lda, seed), b = random_matrix(b_rows, b_cols, ldb, seed + 1);
  // C: random when beta != 0, else poisoned (must not be read); padding rows are guards (must not be written).
  std::vector<double> c0 = random_matrix(c.m, c.n, ldc, seed + 2, 0, -1, tcgemm::test::guard_nan());
  if (c.beta == 0.0)
    for (int64_t j = 0; j < c.n; ++j)
      for (int64_t i = 0; i < c.m; ++i) c0[size_t(j * ldc + i)] = tcgemm::test::poison_nan();
  std::vector<double> got = c0;
  Pin pa(a, c.pin_a), pb(b, c.pin_b), pc(got, c.pin_c);
  if ((c.pin_a && !pa.p) || (c.pin_b && !pb.p) || (c.pin_c && !pc.p))
    return ::testing::AssertionFailure() << "tcgemm_host_register failed: " << tcgemm_last_error();
  const tcgemm_status st = tcgemm_dgemm_host(c.ta, c.tb, c.m, c.n, c.k, c.alpha, a.data(), lda, b.data(), ldb,
                                             c.beta, got.data(), ldc);
  if (st != TCGEMM_SUCCESS)
    return ::testing::AssertionFailure() << name(c) << ": " << tcgemm_status_string(st) << ": "
                                         << tcgemm_last_error();
  if (tcgemm_last_error_output_written() != 0)
    return ::testing::AssertionFailure() << "output_written set after a successful call";
  tcgemm::check::Gemm g;
  g.transa = c.ta;
  g.transb = c.tb;
  g.m = c.m;
  g.n = c.n;
  g.k = c.k;
  g.alpha = c.alpha;
  g.beta = c.beta;
  g.A = a.data();
  g.lda = lda;
  g.B = b.data();
  g.ldb = ldb;
  tcgemm::check::OutputLayout layout;
  layout.ld = ldc;
  const std::vector<double> ref = tcgemm::check::host_gemm(g, layout, c0.data());
  const tcgemm::check::Report r = tcgemm::check::check_result(g, layout, c0.data(), got.data(), ref.data());
  if (r.pass()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << name(c) << ": " << r.summary("host loop");
}

// Small staging buffers (1 MiB: columns of more than 131072 doubles go in pieces) and a small resident
// budget, so that moderate sizes take every branch of the schedule.
void small_pipeline() {
  setenv("TCGEMM_HOST_STAGING_BYTES", "1048576", 1);
  setenv("TCGEMM_HOST_RESIDENT_BYTES", "1048576", 1);
}

TEST(HostPipeline, EveryFormBothSchedulesAndChunks) {
  TCGEMM_REQUIRE_GPU();
  small_pipeline();
  uint64_t seed = 100;
  for (const char* forms : {"NN", "NT", "TN", "TT"})
    for (const bool a_resident : {true, false}) {
      // 1 MiB of resident budget: 131072 doubles, so k = 150 makes chunks of 873 rows (or columns); the
      // streamed dimension goes in panels of 256.
      const int64_t small = 1200, large = 1500, k = 150;
      Case c{forms[0], forms[1], a_resident ? small : large, a_resident ? large : small, k, -0.75, 0.5, 3};
      EXPECT_TRUE(run_case(c, seed += 10));
    }
}

// The default schedule (op(A) resident when m <= n, else op(B); panels of 320 here), every form, beta = 0
// and beta != 0, pageable and pinned.
TEST(HostPipeline, DefaultScheduleEveryForm) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 150;
  for (const char* forms : {"NN", "NT", "TN", "TT"})
    EXPECT_TRUE(run_case({forms[0], forms[1], 2100, 2300, 150, -0.75, 0.5, 3}, seed += 10));
  EXPECT_TRUE(run_case({'N', 'N', 2500, 1100, 100, 1.5, 0.0, 0}, seed += 10));
  Case pinned{'T', 'N', 1100, 2500, 100, 1.0, 1.0, 1};
  pinned.pin_a = pinned.pin_c = true;
  EXPECT_TRUE(run_case(pinned, seed += 10));
}

// A resident operand cut into three double-buffered chunks (TCGEMM_HOST_RESIDENT_CHUNKS): buffers 0, 1, 0,
// so the third chunk waits for the first one's products; every form, both schedules, pinned and pageable.
// Also with the small budget of 1 MiB and its single-buffered chunks.
TEST(HostPipeline, DoubleBufferedResidentChunks) {
  TCGEMM_REQUIRE_GPU();
  setenv("TCGEMM_HOST_RESIDENT_CHUNKS", "3", 1);
  uint64_t seed = 170;
  for (const char* budget : {"", "1048576"}) {
    setenv("TCGEMM_HOST_RESIDENT_BYTES", budget, 1);
    for (const char* forms : {"NN", "NT", "TN", "TT"})
      for (const bool a_resident : {true, false}) {
        Case c{forms[0], forms[1], a_resident ? 700 : 1300, a_resident ? 1300 : 700, 120, 0.5, -1.0, 2};
        EXPECT_TRUE(run_case(c, seed += 10)) << "TCGEMM_HOST_RESIDENT_BYTES=" << budget;
        c.pin_a = c.pin_b = c.pin_c = true;
        EXPECT_TRUE(run_case(c, seed += 10)) << "TCGEMM_HOST_RESIDENT_BYTES=" << budget;
      }
  }
}

TEST(HostPipeline, BetaZeroNeverReadsC) {
  TCGEMM_REQUIRE_GPU();
  small_pipeline();
  uint64_t seed = 200;
  for (const char* forms : {"NN", "TN", "NT", "TT"})
    EXPECT_TRUE(run_case({forms[0], forms[1], 700, 1100, 90, 1.25, 0.0, 5}, seed += 10));
}

TEST(HostPipeline, PinnedAndPageableInEveryMix) {
  TCGEMM_REQUIRE_GPU();
  small_pipeline();
  uint64_t seed = 300;
  for (int mask = 0; mask < 8; ++mask) {
    Case c{'N', mask % 2 ? 'T' : 'N', 900, 600, 130, 0.5, -1.5, 2};
    c.pin_a = mask & 1;
    c.pin_b = mask & 2;
    c.pin_c = mask & 4;
    EXPECT_TRUE(run_case(c, seed += 10));
  }
}

// All pinned, tall C (op(B) resident): the row panels of op(A) and the C tiles go by strided 2D DMA in
// panels of at least 4096 rows (TCGEMM_HOST_MIN_STRIDED_PANEL's default): 4096 + 4096 + 808 rows here; then
// with that minimum lowered to 64, seven panels of 1152 rows and the last 936 rows tapered (512, 256, 128, 40);
// every form.
TEST(HostPipeline, PinnedStridedRowPanels) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 350;
  for (const char* min_panel : {"", "64"}) {
    setenv("TCGEMM_HOST_MIN_STRIDED_PANEL", min_panel, 1);
    for (const char* forms : {"NN", "NT", "TN", "TT"}) {
      Case c{forms[0], forms[1], 9000, 700, 64, -0.5, 1.5, 3};
      c.pin_a = c.pin_b = c.pin_c = true;
      EXPECT_TRUE(run_case(c, seed += 10)) << "TCGEMM_HOST_MIN_STRIDED_PANEL=" << min_panel;
    }
  }
  unsetenv("TCGEMM_HOST_MIN_STRIDED_PANEL");
}

// TCGEMM_HOST_PROFILE=1: one report line on stderr per call (its schedule and each stream's busy time), the
// result unchanged; pinned and pageable.
TEST(HostPipeline, ProfileReportsEachCall) {
  TCGEMM_REQUIRE_GPU();
  setenv("TCGEMM_HOST_PROFILE", "1", 1);
  for (const bool pinned : {false, true}) {
    Case c{'N', 'T', 1500, 900, 200, 1.0, 0.5, 1};
    c.pin_a = c.pin_b = c.pin_c = pinned;
    ::testing::internal::CaptureStderr();
    const ::testing::AssertionResult ok = run_case(c, pinned ? 610 : 600);
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_TRUE(ok);
    EXPECT_NE(err.find(std::string("tcgemm host profile: 1500x900x200 ") + (pinned ? "pinned" : "pageable")),
              std::string::npos)
        << err;
    EXPECT_NE(err.find("first product at"), std::string::npos) << err;
    EXPECT_NE(err.find("compute busy"), std::string::npos) << err;
  }
  unsetenv("TCGEMM_HOST_PROFILE");
}

TEST(HostPipeline, ColumnsLongerThanAStagingBuffer) {
  TCGEMM_REQUIRE_GPU();
  small_pipeline();
  // 'T','N' with k = 150000: both stored operands have 150000-row columns, over the 131072 doubles of a
  // staging buffer. Then a tall C: m = 1100000 > n makes op(B) resident and cuts m into panels of 137536
  // rows, so the A panels and the C tiles (uploaded for beta != 0, downloaded) go in pieces of a column.
  EXPECT_TRUE(run_case({'T', 'N', 5, 7, 150000, 1.0, 0.5, 1}, 400));
  EXPECT_TRUE(run_case({'N', 'N', 1100000, 1, 3, -1.0, 2.0, 3}, 410));
}

TEST(HostPipeline, DefaultScheduleOddSizes) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 500;
  for (const Case& c : {Case{'N', 'N', 1, 1, 1, 2.0, 0.5, 0}, Case{'N', 'N', 1, 3000, 700, 1.0, 0.0, 1},
                        Case{'T', 'N', 3000, 1, 700, 1.0, 1.0, 0}, Case{'N', 'T', 2049, 1023, 517, -1.0, 0.25, 7},
                        Case{'T', 'T', 513, 2500, 65, 0.5, 1.0, 0}})
    EXPECT_TRUE(run_case(c, seed += 10));
}

TEST(HostPipeline, AlphaZeroScalesCOnTheHost) {
  TCGEMM_REQUIRE_GPU();
  const int64_t m = 5, n = 4, ldc = 7;
  std::vector<double> c = random_matrix(m, n, ldc, 600, 0, -1, tcgemm::test::guard_nan());
  const std::vector<double> c0 = c;
  double dummy = tcgemm::test::poison_nan();
  ASSERT_EQ(tcgemm_dgemm_host('N', 'N', m, n, 3, 0.0, &dummy, m, &dummy, 3, -2.0, c.data(), ldc), TCGEMM_SUCCESS);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < ldc; ++i) {
      const size_t x = size_t(j * ldc + i);
      if (i < m) EXPECT_EQ(c[x], -2.0 * c0[x]);
      else EXPECT_TRUE(tcgemm::test::same_bits(c[x], c0[x])) << "padding row " << i << " written";
    }
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) c[size_t(j * ldc + i)] = tcgemm::test::poison_nan();
  ASSERT_EQ(tcgemm_dgemm_host('N', 'N', m, n, 0, 1.0, nullptr, m, nullptr, 1, 0.0, c.data(), ldc), TCGEMM_SUCCESS);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) EXPECT_EQ(c[size_t(j * ldc + i)], 0.0);
}

TEST(HostPipeline, ManyThreadsMoreThanEngines) {
  TCGEMM_REQUIRE_GPU();
  small_pipeline();
  constexpr int kThreads = 9;  // more than the four engines of a context: some wait for one
  std::atomic<int> failures{0};
  std::vector<std::string> messages(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([t, &failures, &messages] {
      for (int i = 0; i < 3; ++i) {
        const Case c{t % 2 ? 'T' : 'N', 'N', 300 + 37 * t, 500 + 11 * i, 120 + t, 1.0, 0.5, t % 3};
        const auto ok = run_case(c, 1000 * uint64_t(t) + uint64_t(i));
        if (!ok) {
          ++failures;
          messages[size_t(t)] = ok.message();
        }
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  for (const std::string& m : messages)
    if (!m.empty()) ADD_FAILURE() << m;
}

TEST(HostPipeline, NoDeviceAllocationOnceWarm) {
  TCGEMM_REQUIRE_GPU();
  const Case c{'N', 'N', 2000, 3000, 1000, 1.0, 1.0, 0};
  ASSERT_TRUE(run_case(c, 700));  // warm: engine, pool, kernels
  size_t free_before = 0, free_after = 0, total = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_before, &total), cudaSuccess);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(run_case(c, 710 + uint64_t(i)));
  ASSERT_EQ(cudaMemGetInfo(&free_after, &total), cudaSuccess);
  EXPECT_EQ(free_before, free_after) << "repeated host calls changed the device's free memory";
}

}  // namespace
