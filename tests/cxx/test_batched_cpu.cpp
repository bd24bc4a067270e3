// The argument checks of tcgemm_dgemm_strided_batched, tcgemm_dgemm_strided_batched_host and
// tcgemm_dgemm_batched (host only: they run before
// any device is looked for): each bad argument gets TCGEMM_ERROR_INVALID_ARGUMENT, a message naming it by
// its position in the prototype, and C untouched; batch = 0 and the other quick returns succeed without a
// device.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tcgemm/tcgemm.h"

namespace {

struct Strided {
  char ta = 'N', tb = 'N';
  int64_t m = 4, n = 4, k = 4;
  double alpha = 1.0;
  int64_t lda = 4, sa = 16, ldb = 4, sb = 16;
  double beta = 0.0;
  int64_t ldc = 4, sc = 16, batch = 3;
};

std::vector<double> host_a(64, 1.0), host_b(64, 1.0), host_c(64, 7.0);

tcgemm_status call(const Strided& s, const double* A = host_a.data(), const double* B = host_b.data(),
                   double* C = host_c.data()) {
  return tcgemm_dgemm_strided_batched(s.ta, s.tb, s.m, s.n, s.k, s.alpha, A, s.lda, s.sa, B, s.ldb, s.sb, s.beta, C,
                                      s.ldc, s.sc, s.batch, nullptr);
}

// The host-array form: the same checks, in the same place (validate_strided_batch), with the same numbering.
tcgemm_status call_host(const Strided& s, const double* A = host_a.data(), const double* B = host_b.data(),
                        double* C = host_c.data()) {
  return tcgemm_dgemm_strided_batched_host(s.ta, s.tb, s.m, s.n, s.k, s.alpha, A, s.lda, s.sa, B, s.ldb, s.sb,
                                           s.beta, C, s.ldc, s.sc, s.batch);
}

void expect_blamed(tcgemm_status st, int position, const char* text) {
  EXPECT_EQ(st, TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), position) << tcgemm_last_error();
  EXPECT_NE(std::string(tcgemm_last_error()).find(text), std::string::npos) << tcgemm_last_error();
  for (double x : host_c) ASSERT_EQ(x, 7.0);  // C untouched
}

}  // namespace

// Every bad argument of the strided prototype, for the device call and for the host-array call.
void check_each_bad_argument(bool host) {
  auto call = [host](const Strided& s, const double* A = host_a.data(), const double* B = host_b.data(),
                     double* C = host_c.data()) { return host ? call_host(s, A, B, C) : ::call(s, A, B, C); };
  Strided s;
  s.ta = 'X';
  expect_blamed(call(s), 1, "transa");
  s = {};
  s.m = -1;
  expect_blamed(call(s), 3, "m");
  s = {};
  s.lda = 3;
  expect_blamed(call(s), 8, "lda");
  s = {};
  s.sa = -1;
  expect_blamed(call(s), 9, "strideA");
  s = {};
  s.ldb = 2;
  expect_blamed(call(s), 11, "ldb");
  s = {};
  s.sb = -16;
  expect_blamed(call(s), 12, "strideB");
  s = {};
  s.ldc = 1;
  expect_blamed(call(s), 15, "ldc");
  s = {};
  s.sc = 15;  // C matrices of 16 elements would overlap
  expect_blamed(call(s), 16, "overlap");
  s = {};
  s.batch = -2;
  expect_blamed(call(s), 17, "batch");
  s = {};
  s.sc = int64_t{1} << 49;  // the batch spans more than 2^52 bytes
  s.batch = 4;
  expect_blamed(call(s), 16, "2^52");
  s = {};
  expect_blamed(call(s, nullptr), 7, "A");
  s = {};
  expect_blamed(call(s, host_a.data(), host_b.data(), nullptr), 14, "C");
}

TEST(BatchedArgs, EachBadArgumentIsNamed) { check_each_bad_argument(false); }

TEST(BatchedHostArgs, EachBadArgumentIsNamedAsForTheDeviceCall) { check_each_bad_argument(true); }

TEST(BatchedHostArgs, SameMessageAsTheDeviceCall) {
  Strided s;
  s.sc = 15;
  ASSERT_EQ(call(s), TCGEMM_ERROR_INVALID_ARGUMENT);
  const std::string device_message = tcgemm_last_error();
  ASSERT_EQ(call_host(s), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tcgemm_last_error()), device_message);
  EXPECT_EQ(tcgemm_last_error_argument(), 16);
}

TEST(BatchedHostArgs, QuickReturnsNeedNoDevice) {
  Strided s;
  s.batch = 0;
  EXPECT_EQ(call_host(s), TCGEMM_SUCCESS);
  s = {};
  s.m = 0;
  EXPECT_EQ(call_host(s), TCGEMM_SUCCESS);
  s = {};
  s.n = 0;
  EXPECT_EQ(call_host(s), TCGEMM_SUCCESS);
  s = {};
  s.alpha = 0.0;
  s.beta = 1.0;
  EXPECT_EQ(call_host(s), TCGEMM_SUCCESS);
  s = {};
  s.k = 0;
  s.beta = 1.0;
  EXPECT_EQ(call_host(s), TCGEMM_SUCCESS);
  // Quick returns read no operand: null arrays are accepted where nothing is touched.
  s = {};
  s.batch = 0;
  EXPECT_EQ(call_host(s, host_a.data(), host_b.data(), host_c.data()), TCGEMM_SUCCESS);
  EXPECT_STREQ(tcgemm_last_error(), "");
  for (double x : host_c) EXPECT_EQ(x, 7.0);
}

TEST(BatchedArgs, PointerArrayPositions) {
  double* const* none = nullptr;
  const double* const* a_none = nullptr;
  const double* arr[1] = {host_a.data()};
  expect_blamed(tcgemm_dgemm_batched('N', 'N', 4, 4, 4, 1.0, a_none, 4, arr, 4, 0.0, none, 4, 1, nullptr), 7, "A");
  double* c_arr[1] = {host_c.data()};
  expect_blamed(tcgemm_dgemm_batched('N', 'N', 4, 4, 4, 1.0, arr, 4, arr, 3, 0.0, c_arr, 4, 1, nullptr), 10, "ldb");
  expect_blamed(tcgemm_dgemm_batched('N', 'N', 4, 4, 4, 1.0, arr, 4, arr, 4, 0.0, c_arr, 4, -1, nullptr), 14,
                "batch");
}

TEST(BatchedArgs, QuickReturnsNeedNoDevice) {
  Strided s;
  s.batch = 0;
  EXPECT_EQ(call(s), TCGEMM_SUCCESS);
  s = {};
  s.m = 0;
  EXPECT_EQ(call(s), TCGEMM_SUCCESS);
  s = {};
  s.alpha = 0.0;
  s.beta = 1.0;
  EXPECT_EQ(call(s), TCGEMM_SUCCESS);
  for (double x : host_c) EXPECT_EQ(x, 7.0);
}

// tcgemm_dgemm_grouped_batched: the per-group host arrays, each group's arguments checked as tcgemm_dgemm_batched
// checks a batch's, every group before anything runs, with the group named in the message.
namespace {

struct Groups {
  char ta[3] = {'N', 'T', 'N'}, tb[3] = {'N', 'N', 'T'};
  int64_t m[3] = {4, 5, 20}, n[3] = {4, 3, 20}, k[3] = {4, 7, 9};
  double alpha[3] = {1.0, -1.0, 0.5}, beta[3] = {0.0, 1.0, 2.0};
  int64_t lda[3] = {4, 7, 20}, ldb[3] = {4, 7, 20}, ldc[3] = {4, 5, 20};
  int64_t size[3] = {2, 0, 1};
  int64_t count = 3;
  // Host stand-ins for the device pointer arrays (never dereferenced: every call here fails or returns first).
  const double* a[3] = {host_a.data(), host_a.data(), host_a.data()};
  const double* b[3] = {host_b.data(), host_b.data(), host_b.data()};
  double* c[3] = {host_c.data(), host_c.data(), host_c.data()};
  tcgemm_status call() {
    return tcgemm_dgemm_grouped_batched(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, count, size, nullptr);
  }
};

}  // namespace

TEST(GroupedBatchedArgs, EachBadGroupArgumentIsNamedWithItsGroup) {
  {
    Groups g;
    g.lda[2] = 19;  // < m = 20
    expect_blamed(g.call(), 8, "lda");
    EXPECT_NE(std::string(tcgemm_last_error()).find("group 2: "), std::string::npos) << tcgemm_last_error();
  }
  {
    Groups g;
    g.ta[0] = 'X';
    expect_blamed(g.call(), 1, "transa");
    EXPECT_NE(std::string(tcgemm_last_error()).find("group 0: "), std::string::npos) << tcgemm_last_error();
  }
  {
    Groups g;
    g.k[1] = -1;  // an empty group is checked too, as tcgemm_dgemm_batched checks a batch of 0
    expect_blamed(g.call(), 5, "k");
    EXPECT_NE(std::string(tcgemm_last_error()).find("group 1: "), std::string::npos) << tcgemm_last_error();
  }
  {
    Groups g;
    g.size[1] = -3;
    expect_blamed(g.call(), 15, "group_size");
    EXPECT_NE(std::string(tcgemm_last_error()).find("group 1: "), std::string::npos) << tcgemm_last_error();
  }
  {
    Groups g;
    g.count = -1;
    expect_blamed(g.call(), 14, "group_count");
  }
  {
    Groups g;
    expect_blamed(tcgemm_dgemm_grouped_batched(g.ta, g.tb, g.m, g.n, g.k, g.alpha, g.a, nullptr, g.b, g.ldb, g.beta,
                                               g.c, g.ldc, g.count, g.size, nullptr),
                  8, "lda");
    expect_blamed(tcgemm_dgemm_grouped_batched(g.ta, g.tb, g.m, g.n, g.k, g.alpha, g.a, g.lda, g.b, g.ldb, g.beta,
                                               g.c, g.ldc, g.count, nullptr, nullptr),
                  15, "group_size");
    // A null pointer array where a group reads it.
    expect_blamed(tcgemm_dgemm_grouped_batched(g.ta, g.tb, g.m, g.n, g.k, g.alpha, nullptr, g.lda, g.b, g.ldb,
                                               g.beta, g.c, g.ldc, g.count, g.size, nullptr),
                  7, "A");
  }
  for (double x : host_c) EXPECT_EQ(x, 7.0);  // nothing ran
}

TEST(GroupedBatchedArgs, QuickReturnsNeedNoDevice) {
  EXPECT_EQ(tcgemm_dgemm_grouped_batched(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                         nullptr, nullptr, nullptr, nullptr, nullptr, 0, nullptr, nullptr),
            TCGEMM_SUCCESS);
  Groups g;
  g.size[0] = g.size[2] = 0;  // every group empty
  EXPECT_EQ(g.call(), TCGEMM_SUCCESS) << tcgemm_last_error();
  for (double x : host_c) EXPECT_EQ(x, 7.0);
}
