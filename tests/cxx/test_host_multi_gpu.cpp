// tcgemm_dgemm_host over a device list (host/device_list.hpp, host/multi_device.hpp): C cut into column blocks
// (n >= m) or row blocks (m > n), each block through the single-device pipeline on its own thread. On one GPU
// the list {0, 0} runs two blocks on it at once (two engines), which checks the cut, the sub-problems' pointer
// offsets in every transa/transb form and the merging of the parts as two GPUs would; with two or more GPUs
// the default list (every device) runs them on different GPUs, and the profile line says where each ran.
// Every result is compared with the host reference (the shared check: per-element tolerance from
// 2 (k + 1) eps |alpha| ||row_i(op(A))|| ||col_j(op(B))||, NaN fails, padding rows must stay bit-identical).
// TCGEMM_HOST_SPLIT_MIN_FLOPS=0 makes the moderate sizes here split; each test runs in its own process.
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
  bool pinned = false;
};

std::string name(const Case& c) {
  return std::string(1, c.ta) + c.tb + " " + std::to_string(c.m) + "x" + std::to_string(c.n) + "x" +
         std::to_string(c.k) + " beta " + std::to_string(c.beta) + " pad " + std::to_string(c.pad) +
         (c.pinned ? " pinned" : " pageable");
}

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

::testing::AssertionResult run_case(const Case& c, uint64_t stream_id) {
  const bool na = c.ta == 'N', nb = c.tb == 'N';
  const int64_t a_rows = na ? c.m : c.k, a_cols = na ? c.k : c.m, b_rows = nb ? c.k : c.n, b_cols = nb ? c.n : c.k;
  const int64_t lda = a_rows + c.pad, ldb = b_rows + c.pad, ldc = c.m + c.pad;
  std::vector<double> a = random_matrix(a_rows, a_cols, lda, stream_id),
                      b = random_matrix(b_rows, b_cols, ldb, stream_id + 1);
  std::vector<double> c0 = random_matrix(c.m, c.n, ldc, stream_id + 2, 0, -1, tcgemm::test::guard_nan());
  if (c.beta == 0.0)
    for (int64_t j = 0; j < c.n; ++j)
      for (int64_t i = 0; i < c.m; ++i) c0[size_t(j * ldc + i)] = tcgemm::test::poison_nan();
  std::vector<double> got = c0;
  Pin pa(a, c.pinned), pb(b, c.pinned), pc(got, c.pinned);
  if (c.pinned && (!pa.p || !pb.p || !pc.p))
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

int device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
  (void)cudaGetLastError();
  return count;
}

// The calling thread's list (tcgemm_set_host_devices), set for the scope and removed after it.
struct HostDevices {
  explicit HostDevices(std::vector<int32_t> list) {
    status = tcgemm_set_host_devices(list.data(), int32_t(list.size()));
  }
  ~HostDevices() { (void)tcgemm_set_host_devices(nullptr, 0); }
  tcgemm_status status;
};

std::vector<int32_t> effective_list() {
  int32_t buffer[64], count = 0;
  if (tcgemm_get_host_devices(buffer, 64, &count) != TCGEMM_SUCCESS) return {};
  return std::vector<int32_t>(buffer, buffer + count);
}

// Runs `c` with TCGEMM_HOST_PROFILE=1 and returns the split line(s) it printed on stderr.
::testing::AssertionResult run_profiled(const Case& c, uint64_t stream_id, std::string* err) {
  setenv("TCGEMM_HOST_PROFILE", "1", 1);
  ::testing::internal::CaptureStderr();
  ::testing::AssertionResult ok = run_case(c, stream_id);
  *err = ::testing::internal::GetCapturedStderr();
  unsetenv("TCGEMM_HOST_PROFILE");
  return ok;
}

const std::vector<Case> kForms = [] {
  std::vector<Case> cases;
  for (const char* forms : {"NN", "NT", "TN", "TT"}) {
    cases.push_back({forms[0], forms[1], 700, 1500, 130, -0.75, 0.5, 3});   // n > m: column blocks
    cases.push_back({forms[0], forms[1], 1500, 700, 130, 1.25, 0.0, 1});    // m > n: row blocks, beta 0
    cases.push_back({forms[0], forms[1], 1300, 1300, 97, 0.5, -1.0, 0});    // a tie: column blocks
  }
  return cases;
}();

TEST(HostMultiGpu, TwoPartsOnOneGpuEveryForm) {
  TCGEMM_REQUIRE_GPU();
  setenv("TCGEMM_HOST_SPLIT_MIN_FLOPS", "0", 1);
  HostDevices list({0, 0});
  ASSERT_EQ(list.status, TCGEMM_SUCCESS) << tcgemm_last_error();
  EXPECT_EQ(effective_list(), (std::vector<int32_t>{0, 0}));
  uint64_t id = 100;
  for (Case c : kForms)
    for (const bool pinned : {false, true}) {
      c.pinned = pinned;
      std::string err;
      EXPECT_TRUE(run_profiled(c, id += 10, &err));
      const std::string expected = std::string("in 2 parts by ") + (c.n >= c.m ? "columns" : "rows");
      EXPECT_NE(err.find("tcgemm host split: "), std::string::npos) << name(c) << ": " << err;
      EXPECT_NE(err.find(expected), std::string::npos) << name(c) << ": " << err;
    }
}

// Three parts of an odd length (256 + 256 + 488 columns) and odd sizes everywhere.
TEST(HostMultiGpu, ThreeUnevenPartsOnOneGpu) {
  TCGEMM_REQUIRE_GPU();
  setenv("TCGEMM_HOST_SPLIT_MIN_FLOPS", "0", 1);
  HostDevices list({0, 0, 0});
  ASSERT_EQ(list.status, TCGEMM_SUCCESS) << tcgemm_last_error();
  uint64_t id = 300;
  for (const char* forms : {"NN", "NT", "TN", "TT"}) {
    std::string err;
    EXPECT_TRUE(run_profiled({forms[0], forms[1], 301, 1000, 77, 1.0, 1.0, 5}, id += 10, &err));
    EXPECT_NE(err.find("in 3 parts by columns: device 0 columns 0..255"), std::string::npos) << err;
    EXPECT_NE(err.find("columns 512..999"), std::string::npos) << err;
    EXPECT_TRUE(run_profiled({forms[0], forms[1], 1000, 301, 77, 1.0, 0.0, 2}, id += 10, &err));
    EXPECT_NE(err.find("in 3 parts by rows"), std::string::npos) << err;
  }
}

// The default list (every device): on one GPU one part, on several a split; every form, both cuts.
TEST(HostMultiGpu, AllDevicesEveryForm) {
  TCGEMM_REQUIRE_GPU();
  setenv("TCGEMM_HOST_SPLIT_MIN_FLOPS", "0", 1);
  unsetenv("TCGEMM_DEVICES");
  unsetenv("TCGEMM_DEVICE");
  const std::vector<int32_t> list = effective_list();
  EXPECT_EQ(int(list.size()), device_count());
  uint64_t id = 500;
  for (Case c : kForms)
    for (const bool pinned : {false, true}) {
      c.pinned = pinned;
      EXPECT_TRUE(run_case(c, id += 10));
    }
}

// With two or more GPUs the parts really run on different devices: the split line names each part's device
// as the one current on its thread while it ran.
TEST(HostMultiGpu, RunsOnEveryDevice) {
  TCGEMM_REQUIRE_GPU();
  const int count = device_count();
  if (count < 2) GTEST_SKIP() << "needs two CUDA devices; this machine has " << count;
  setenv("TCGEMM_HOST_SPLIT_MIN_FLOPS", "0", 1);
  unsetenv("TCGEMM_DEVICES");
  std::string err;
  EXPECT_TRUE(run_profiled({'N', 'T', 900, 256 * count * 3 + 17, 200, 1.0, 0.5, 1}, 700, &err));
  for (int d = 0; d < count; ++d)
    EXPECT_NE(err.find("device " + std::to_string(d) + " columns"), std::string::npos) << "device " << d << ": " << err;
  // TCGEMM_DEVICES picks the order: the first block goes to the last device.
  const std::string order = std::to_string(count - 1) + ",0";
  setenv("TCGEMM_DEVICES", order.c_str(), 1);
  EXPECT_TRUE(run_profiled({'T', 'N', 2000, 600, 150, -1.0, 0.0, 0}, 710, &err));
  EXPECT_NE(err.find("by rows: device " + std::to_string(count - 1) + " rows 0.."), std::string::npos) << err;
  unsetenv("TCGEMM_DEVICES");
}

// The caller's current device is the same after the call, whatever devices ran it; a one-entry list that is
// not the current device runs there.
TEST(HostMultiGpu, CurrentDeviceUnchanged) {
  TCGEMM_REQUIRE_GPU();
  setenv("TCGEMM_HOST_SPLIT_MIN_FLOPS", "0", 1);
  const int count = device_count();
  const int current = count - 1;
  ASSERT_EQ(cudaSetDevice(current), cudaSuccess);
  {
    HostDevices list({0, 0});
    EXPECT_TRUE(run_case({'N', 'N', 600, 900, 64, 1.0, 0.0, 0}, 800));
    int now = -1;
    ASSERT_EQ(cudaGetDevice(&now), cudaSuccess);
    EXPECT_EQ(now, current);
  }
  {
    HostDevices list({0});
    EXPECT_TRUE(run_case({'T', 'T', 600, 900, 64, 1.0, 2.0, 1}, 810));
    int now = -1;
    ASSERT_EQ(cudaGetDevice(&now), cudaSuccess);
    EXPECT_EQ(now, current);
  }
}

// Below the default threshold (2 x 2048^3 operations) a product stays on one device: no split line.
TEST(HostMultiGpu, SmallProductsStayOnOneDevice) {
  TCGEMM_REQUIRE_GPU();
  unsetenv("TCGEMM_HOST_SPLIT_MIN_FLOPS");
  HostDevices list({0, 0});
  std::string err;
  EXPECT_TRUE(run_profiled({'N', 'N', 1000, 1200, 300, 1.0, 0.5, 0}, 900, &err));
  EXPECT_EQ(err.find("tcgemm host split"), std::string::npos) << err;
  EXPECT_NE(err.find("tcgemm host profile: 1000x1200x300"), std::string::npos) << err;
}

// The list is the calling thread's: another thread sees the environment's rule.
TEST(HostMultiGpu, ListIsPerThread) {
  TCGEMM_REQUIRE_GPU();
  unsetenv("TCGEMM_DEVICES");
  unsetenv("TCGEMM_DEVICE");
  const std::vector<int32_t> all = effective_list();
  ASSERT_FALSE(all.empty());
  HostDevices list({0, 0, 0});
  EXPECT_EQ(effective_list(), (std::vector<int32_t>{0, 0, 0}));
  std::vector<int32_t> other;
  std::thread([&] { other = effective_list(); }).join();
  EXPECT_EQ(other, all);
  ASSERT_EQ(tcgemm_set_host_devices(nullptr, 0), TCGEMM_SUCCESS);
  EXPECT_EQ(effective_list(), all);
  // Asking for the length only.
  int32_t count = -1;
  ASSERT_EQ(tcgemm_get_host_devices(nullptr, 0, &count), TCGEMM_SUCCESS);
  EXPECT_EQ(count, int32_t(all.size()));
}

// Several threads, each with its own two-part list on GPU 0: eight blocks want engines, four exist per
// context; parts wait for one and finish.
TEST(HostMultiGpu, ThreadsWithTheirOwnLists) {
  TCGEMM_REQUIRE_GPU();
  setenv("TCGEMM_HOST_SPLIT_MIN_FLOPS", "0", 1);
  constexpr int kThreads = 4;
  std::atomic<int> failures{0};
  std::vector<std::string> messages(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([t, &failures, &messages] {
      HostDevices list({0, 0});
      if (list.status != TCGEMM_SUCCESS) {
        ++failures;
        messages[size_t(t)] = tcgemm_last_error();
        return;
      }
      for (int i = 0; i < 2; ++i) {
        const Case c{t % 2 ? 'T' : 'N', i ? 'T' : 'N', 500 + 37 * t, 800 + 11 * i, 90 + t, 1.0, 0.5, t % 3};
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

// A malformed TCGEMM_DEVICES / TCGEMM_DEVICE fails the call before any work: C untouched (even for the
// alpha = 0 path that scales C on the host), argument 0, a message naming the variable and the entry. A
// thread's own list is not affected by them.
TEST(HostMultiGpu, BadEnvironmentFailsBeforeAnyWork) {
  TCGEMM_REQUIRE_GPU();
  const int count = device_count();
  const int64_t m = 40, n = 30, k = 20;
  std::vector<double> a = random_matrix(m, k, m, 1), b = random_matrix(k, n, k, 2);
  const std::vector<double> c0 = random_matrix(m, n, m, 3);
  struct Bad {
    const char* variable;
    std::string value, expect;
  };
  unsetenv("TCGEMM_DEVICES");
  unsetenv("TCGEMM_DEVICE");
  for (const Bad& bad : {Bad{"TCGEMM_DEVICES", "0,x", "\"x\""}, Bad{"TCGEMM_DEVICES", "", "empty"},
                         Bad{"TCGEMM_DEVICES", "0," + std::to_string(count), "entry 2 (" + std::to_string(count)},
                         Bad{"TCGEMM_DEVICES", "0,,0", "entry 2"}, Bad{"TCGEMM_DEVICE", "abc", "\"abc\""},
                         Bad{"TCGEMM_DEVICE", std::to_string(count), "number of CUDA devices"}}) {
    setenv(bad.variable, bad.value.c_str(), 1);
    for (const double alpha : {1.0, 0.0}) {
      std::vector<double> c = c0;
      const tcgemm_status st =
          tcgemm_dgemm_host('N', 'N', m, n, k, alpha, a.data(), m, b.data(), k, 0.5, c.data(), m);
      EXPECT_EQ(st, TCGEMM_ERROR_INVALID_ARGUMENT) << bad.variable << "=" << bad.value;
      const std::string msg = tcgemm_last_error();
      EXPECT_NE(msg.find(bad.variable), std::string::npos) << msg;
      EXPECT_NE(msg.find(bad.expect), std::string::npos) << msg;
      EXPECT_EQ(tcgemm_last_error_argument(), 0);
      EXPECT_EQ(tcgemm_last_error_output_written(), 0);
      for (size_t i = 0; i < c.size(); ++i) ASSERT_TRUE(tcgemm::test::same_bits(c[i], c0[i])) << "C written at " << i;
      int32_t listed = -1;
      EXPECT_EQ(tcgemm_get_host_devices(nullptr, 0, &listed), TCGEMM_ERROR_INVALID_ARGUMENT);
    }
    // The thread's own list wins over the environment.
    {
      HostDevices list({0});
      ASSERT_EQ(list.status, TCGEMM_SUCCESS);
      std::vector<double> c = c0;
      EXPECT_EQ(tcgemm_dgemm_host('N', 'N', m, n, k, 1.0, a.data(), m, b.data(), k, 0.5, c.data(), m),
                TCGEMM_SUCCESS)
          << tcgemm_last_error();
    }
    unsetenv(bad.variable);
  }
}

TEST(HostMultiGpu, SetRejectsOrdinalsPastTheLastDevice) {
  TCGEMM_REQUIRE_GPU();
  const int count = device_count();
  const int32_t past[] = {0, int32_t(count)};
  EXPECT_EQ(tcgemm_set_host_devices(past, 2), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 1);
  EXPECT_NE(std::string(tcgemm_last_error()).find("devices[1] = " + std::to_string(count)), std::string::npos)
      << tcgemm_last_error();
  // The list is unchanged (the default).
  EXPECT_EQ(int(effective_list().size()), count);
}

}  // namespace
