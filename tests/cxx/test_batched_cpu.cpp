// The argument checks of tcgemm_dgemm_strided_batched and tcgemm_dgemm_batched (host only: they run before
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

void expect_blamed(tcgemm_status st, int position, const char* text) {
  EXPECT_EQ(st, TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), position) << tcgemm_last_error();
  EXPECT_NE(std::string(tcgemm_last_error()).find(text), std::string::npos) << tcgemm_last_error();
  for (double x : host_c) ASSERT_EQ(x, 7.0);  // C untouched
}

}  // namespace

TEST(BatchedArgs, EachBadArgumentIsNamed) {
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
