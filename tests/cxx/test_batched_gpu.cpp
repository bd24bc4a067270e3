// tcgemm_dgemm_strided_batched, tcgemm_dgemm_batched, tcgemm_dgemm_grouped_batched and
// tcgemm_dgemm_strided_batched_host on the GPU: every product against a host FP64 reference (per-element bound
// 2 (k + 2) eps (|alpha| sum |a||b| + |beta| |c|)), C poisoned with NaN where beta = 0, A and B NaN wherever
// BLAS does not read them (ld padding, stride gaps), every element between and around the C matrices checked
// unchanged bit for bit; every shape of family batched_direct, every size class of family batched_small and the
// one-by-one route past it, every form, odd leading dimensions and strides, stride 0, misaligned pointers, pointer
// arrays in any order, alpha = 0 over NaN operands, k = 0, batch = 0 and 1, and a batch of more than 2^31 C
// elements.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gpu_test_util.hpp"

using namespace tcgemm::test;

namespace {

struct BatchCase {
  char ta, tb;
  int64_t m, n, k, batch;
  double alpha, beta;
  int64_t ld_pad = 0;     // lda, ldb, ldc = rows + ld_pad
  int64_t gap = 0;        // stride = one matrix's extent + gap
  bool share_a = false;   // strideA = 0
  int64_t offset = 0;     // A, B and C start this many doubles into their buffers (1: 8-byte aligned only)
  bool arrays = false;    // tcgemm_dgemm_batched with the products in reverse order in the arrays
  bool host = false;      // tcgemm_dgemm_strided_batched_host on host arrays (same layout, same checks)
};

BatchCase on_host(BatchCase c) {
  c.host = true;
  return c;
}

std::string describe(const BatchCase& c) {
  char b[256];
  std::snprintf(b, sizeof b, "%c%c m=%lld n=%lld k=%lld batch=%lld alpha=%g beta=%g ld+%lld gap %lld%s off %lld%s%s",
                c.ta, c.tb, (long long)c.m, (long long)c.n, (long long)c.k, (long long)c.batch, c.alpha, c.beta,
                (long long)c.ld_pad, (long long)c.gap, c.share_a ? " strideA=0" : "", (long long)c.offset,
                c.arrays ? " arrays" : "", c.host ? " host arrays" : "");
  return b;
}

// One product's C (m x n from element c_at of `out`, leading dimension ldc) against the host reference from a, b
// and C before the call (`before`): the number of elements beyond the bound 2 (k + 2) eps (|alpha| sum |a b| +
// |beta c|); each element is marked in `inside` and its error raises `worst`.
int64_t count_beyond_bound(char ta, char tb, int64_t m, int64_t n, int64_t k, double alpha, const double* a,
                           int64_t lda, const double* b, int64_t ldb, double beta, const std::vector<double>& before,
                           const std::vector<double>& out, int64_t c_at, int64_t ldc, std::vector<char>* inside,
                           double* worst) {
  const double eps = std::numeric_limits<double>::epsilon();
  int64_t bad = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      const int64_t at = c_at + i + j * ldc;
      (*inside)[at] = 1;
      double sum = 0.0, mag = 0.0;
      if (alpha != 0.0)
        for (int64_t l = 0; l < k; ++l) {
          const double x = ta == 'N' ? a[i + l * lda] : a[l + i * lda];
          const double y = tb == 'N' ? b[l + j * ldb] : b[j + l * ldb];
          sum += x * y;
          mag += std::fabs(x * y);
        }
      const double c0 = before[at];
      const double ref = (alpha == 0.0 ? 0.0 : alpha * sum) + (beta == 0.0 ? 0.0 : beta * c0);
      const double tol = 2.0 * (k + 2) * eps * (std::fabs(alpha) * mag + (beta == 0.0 ? 0.0 : std::fabs(beta * c0)));
      const double diff = std::fabs(out[at] - ref);
      if (!(diff <= tol)) ++bad;
      *worst = std::max(*worst, diff);
    }
  return bad;
}

// Elements outside every C matrix (not marked in `inside`) whose bits changed.
int64_t count_touched(const std::vector<double>& before, const std::vector<double>& out,
                      const std::vector<char>& inside) {
  int64_t touched = 0;
  for (size_t e = 0; e < out.size(); ++e)
    if (!inside[e] && !same_bits(out[e], before[e])) ++touched;
  return touched;
}

::testing::AssertionResult run_batch(const BatchCase& c, uint64_t seed) {
  const int64_t ar = c.ta == 'N' ? c.m : c.k, ac = c.ta == 'N' ? c.k : c.m;
  const int64_t br = c.tb == 'N' ? c.k : c.n, bc = c.tb == 'N' ? c.n : c.k;
  const int64_t lda = std::max<int64_t>(1, ar) + c.ld_pad, ldb = std::max<int64_t>(1, br) + c.ld_pad,
                ldc = std::max<int64_t>(1, c.m) + c.ld_pad;
  const int64_t sa = c.share_a ? 0 : lda * std::max<int64_t>(1, ac) + c.gap, sb = ldb * std::max<int64_t>(1, bc) + c.gap,
                sc = ldc * std::max<int64_t>(1, c.n) + c.gap;
  const int64_t na = c.offset + sa * std::max<int64_t>(0, c.batch - 1) + lda * std::max<int64_t>(1, ac) + 3;
  const int64_t nb = c.offset + sb * std::max<int64_t>(0, c.batch - 1) + ldb * std::max<int64_t>(1, bc) + 3;
  const int64_t nc = c.offset + sc * std::max<int64_t>(0, c.batch - 1) + ldc * std::max<int64_t>(1, c.n) + 3;
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  // A and B: random inside the matrices, NaN everywhere else (rows between the matrix and ld, gaps between the
  // matrices, before and after them: BLAS does not read them, and a read would spread NaN into C); with alpha = 0
  // all NaN.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> ha(na, nan), hb(nb, nan), hc(nc);
  if (c.alpha != 0.0)
    for (int64_t g = 0; g < std::max<int64_t>(1, c.batch); ++g) {
      for (int64_t j = 0; j < ac; ++j)
        for (int64_t i = 0; i < ar; ++i) ha[c.offset + g * sa + i + j * lda] = u(gen);
      for (int64_t j = 0; j < bc; ++j)
        for (int64_t i = 0; i < br; ++i) hb[c.offset + g * sb + i + j * ldb] = u(gen);
    }
  // C: random inside the matrices (NaN when beta = 0), guards everywhere else.
  for (auto& x : hc) x = guard_nan();
  for (int64_t g = 0; g < c.batch; ++g)
    for (int64_t j = 0; j < c.n; ++j)
      for (int64_t i = 0; i < c.m; ++i) hc[c.offset + g * sc + i + j * ldc] = c.beta == 0.0 ? poison_nan() : u(gen);
  DeviceBuffer<double> da(na), db(nb), dc(nc);
  if (!da.ok() || !db.ok() || !dc.ok()) return ::testing::AssertionFailure() << "cudaMalloc failed";
  if (da.upload(ha) != cudaSuccess || db.upload(hb) != cudaSuccess || dc.upload(hc) != cudaSuccess)
    return ::testing::AssertionFailure() << "upload failed";
  const double* A = da.get() + c.offset;
  const double* B = db.get() + c.offset;
  double* C = dc.get() + c.offset;
  tcgemm_status st;
  std::vector<double> out;
  if (c.host) {
    out = hc;
    st = tcgemm_dgemm_strided_batched_host(c.ta, c.tb, c.m, c.n, c.k, c.alpha, ha.data() + c.offset, lda, sa,
                                           hb.data() + c.offset, ldb, sb, c.beta, out.data() + c.offset, ldc, sc,
                                           c.batch);
  } else if (!c.arrays) {
    st = tcgemm_dgemm_strided_batched(c.ta, c.tb, c.m, c.n, c.k, c.alpha, A, lda, sa, B, ldb, sb, c.beta, C, ldc, sc,
                                      c.batch, nullptr);
  } else {
    // Product g's matrices are the strided ones of product batch - 1 - g: the arrays need not be in order.
    std::vector<const double*> pa(c.batch), pb(c.batch);
    std::vector<double*> pc(c.batch);
    for (int64_t g = 0; g < c.batch; ++g) {
      const int64_t r = c.batch - 1 - g;
      pa[g] = A + r * sa;
      pb[g] = B + r * sb;
      pc[g] = C + r * sc;
    }
    DeviceBuffer<const double*> dpa(c.batch), dpb(c.batch);
    DeviceBuffer<double*> dpc(c.batch);
    if (c.batch > 0) {
      cudaMemcpy(dpa.get(), pa.data(), c.batch * sizeof(double*), cudaMemcpyHostToDevice);
      cudaMemcpy(dpb.get(), pb.data(), c.batch * sizeof(double*), cudaMemcpyHostToDevice);
      cudaMemcpy(dpc.get(), pc.data(), c.batch * sizeof(double*), cudaMemcpyHostToDevice);
    }
    st = tcgemm_dgemm_batched(c.ta, c.tb, c.m, c.n, c.k, c.alpha, dpa.get(), lda, dpb.get(), ldb, c.beta, dpc.get(),
                              ldc, c.batch, nullptr);
    if (cudaDeviceSynchronize() != cudaSuccess) return ::testing::AssertionFailure() << describe(c) << ": sync";
  }
  if (st != TCGEMM_SUCCESS)
    return ::testing::AssertionFailure() << describe(c) << ": " << tcgemm_status_string(st) << ": "
                                         << tcgemm_last_error();
  if (!c.host && (cudaDeviceSynchronize() != cudaSuccess || dc.download(&out) != cudaSuccess))
    return ::testing::AssertionFailure() << describe(c) << ": CUDA error after the call";
  std::vector<char> inside(nc, 0);
  int64_t bad = 0;
  double worst = 0.0;
  for (int64_t g = 0; g < c.batch; ++g)
    bad += count_beyond_bound(c.ta, c.tb, c.m, c.n, c.k, c.alpha, ha.data() + c.offset + g * sa, lda,
                              hb.data() + c.offset + g * sb, ldb, c.beta, hc, out, c.offset + g * sc, ldc, &inside,
                              &worst);
  const int64_t touched = count_touched(hc, out, inside);
  if (bad || touched)
    return ::testing::AssertionFailure() << describe(c) << ": " << bad << " elements beyond the bound (worst "
                                         << worst << "), " << touched << " elements outside the C matrices written";
  return ::testing::AssertionSuccess();
}

}  // namespace

TEST(Batched, EverySizeClassSquare) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 1;
  for (int64_t s : {1, 2, 3, 4, 5, 7, 8, 9, 12, 16, 17, 24, 31, 32, 33, 48, 63, 64, 65, 100, 127, 128})
    EXPECT_TRUE(run_batch({'N', 'N', s, s, s, 37, 1.5, 0.0}, seed++));
}

TEST(Batched, EveryFormAlphaBetaLdAndStride) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 100;
  const char* forms[] = {"NN", "NT", "TN", "TT"};
  for (const char* f : forms)
    for (int64_t s : {4, 8, 13, 32, 64, 96}) {
      EXPECT_TRUE(run_batch({f[0], f[1], s, s, s, 19, -0.5, 2.0, 3, 5}, seed++));
      EXPECT_TRUE(run_batch({f[0], f[1], s, s + 3, s / 2 + 1, 5, 1.0, 0.0, 0, 0, false, 1}, seed++));
    }
}

TEST(Batched, RectangularAndDeepK) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 200;
  const int64_t shapes[][3] = {{5, 12, 3}, {33, 8, 70}, {100, 20, 7}, {128, 1, 128}, {1, 128, 3}, {8, 8, 1000},
                               {2, 3, 4}, {16, 64, 1}, {64, 16, 33}, {120, 128, 129}, {16, 8, 20}, {7, 13, 6},
                               {13, 3, 5}, {1, 16, 17}, {3, 2, 30}, {12, 12, 40}, {13, 10, 50}, {9, 15, 17},
                               {20, 8, 20}, {8, 24, 16}, {24, 16, 30}, {11, 23, 9}, {23, 21, 19}};
  for (const auto& s : shapes) {
    EXPECT_TRUE(run_batch({'N', 'N', s[0], s[1], s[2], 9, 0.75, 0.25, 1, 2}, seed++));
    EXPECT_TRUE(run_batch({'T', 'N', s[0], s[1], s[2], 4, 1.0, 0.0}, seed++));
  }
}

// The cp.async ring of batched_small: enough products that every block of the persistent grid streams several
// groups through its buffers (and a last group that is not full), with k past one chunk (the ring then also
// turns within a product) and k below one; products sharing a tile (sizes 2 and 4 on one 8x8 tile's diagonal)
// with m != n, every form, ld padding, stride gaps, beta != 0 (its own kernel instance), pointer arrays and
// pointers aligned to 8 bytes only. Sizes past 40 run their strided batches on sm90_mma on a Hopper, but
// pointer arrays always take batched_small's classes 48, 64 and 128. Any buffer reused too early, or a
// diagonal slot mixed up with its neighbour, shows as elements beyond the bound.
TEST(Batched, RingStreamsManyGroupsPerBlock) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 5000;
  const int64_t shapes[][3] = {{2, 2, 2},   {1, 2, 9},    {2, 1, 3},    {3, 4, 4},    {4, 3, 11},   {4, 4, 1},
                               {6, 5, 8},   {8, 8, 8},    {8, 7, 17},   {12, 12, 12}, {16, 16, 40}, {20, 20, 20},
                               {24, 19, 50}, {32, 32, 32}, {30, 32, 70}, {48, 40, 30}, {64, 64, 40}, {100, 90, 20},
                               {128, 128, 20}};
  const char* forms[] = {"NN", "TN", "NT", "TT"};
  int f = 0;
  for (const auto& s : shapes) {
    const char* form = forms[f++ % 4];
    // Two to four groups per resident block on a 132-SM GPU (fewer SMs: more groups per block), plus a part
    // of a group.
    const int64_t size = std::max(s[0], s[1]);
    const int64_t batch = (size <= 2 ? 160000 : size <= 4 ? 100000 : size <= 8 ? 24000 : size <= 16 ? 8000
                         : size <= 24 ? 4000 : size <= 32 ? 3000 : size <= 64 ? 2000 : 600) + 7;
    EXPECT_TRUE(run_batch({form[0], form[1], s[0], s[1], s[2], batch, 1.25, 0.0}, seed++));
    EXPECT_TRUE(run_batch({form[0], form[1], s[0], s[1], s[2], batch, -0.5, 0.75, 1, 3}, seed++));
    EXPECT_TRUE(run_batch({form[0], form[1], s[0], s[1], s[2], batch, 1.0, 1.0, 0, 1, false, 1, true}, seed++));
  }
}

TEST(Batched, SharedOperandPointerArraysAndEdges) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 300;
  EXPECT_TRUE(run_batch({'N', 'N', 8, 8, 8, 50, 1.0, 1.0, 0, 0, true}, seed++));   // strideA = 0
  EXPECT_TRUE(run_batch({'T', 'T', 16, 16, 16, 33, 2.0, -1.0, 2, 3, false, 0, true}, seed++));
  EXPECT_TRUE(run_batch({'N', 'T', 40, 24, 9, 7, 1.0, 0.0, 0, 0, false, 1, true}, seed++));
  EXPECT_TRUE(run_batch({'N', 'N', 130, 20, 30, 3, 1.0, 0.5}, seed++));  // past the batched sizes: one by one
  EXPECT_TRUE(run_batch({'N', 'N', 200, 130, 64, 2, 1.0, 0.0, 0, 0, false, 0, true}, seed++));
  EXPECT_TRUE(run_batch({'N', 'N', 12, 12, 12, 1, 1.0, 0.5}, seed++));   // batch 1
  EXPECT_TRUE(run_batch({'N', 'N', 12, 12, 12, 0, 1.0, 0.5}, seed++));   // batch 0: C untouched
  EXPECT_TRUE(run_batch({'N', 'N', 9, 7, 5, 11, 0.0, 3.0}, seed++));     // alpha = 0: A, B (NaN) not read
  EXPECT_TRUE(run_batch({'N', 'N', 9, 7, 5, 11, 0.0, 0.0}, seed++));     // alpha = 0, beta = 0: zeros
  EXPECT_TRUE(run_batch({'N', 'N', 9, 7, 0, 11, 1.0, -2.0}, seed++));    // k = 0
}

// tcgemm_dgemm_strided_batched_host: every copy route (one copy of evenly spaced columns: ld padding without
// gaps; one run per matrix: gaps without padding; one copy per matrix: both; one copy of a shared A), every
// form, beta = 0 over NaN, the host-side scaling (alpha = 0, k = 0), the one-by-one route past the batched
// sizes, and unaligned host arrays; elements outside the C matrices checked unchanged as above.
TEST(BatchedHost, EveryCopyRouteAndForm) {
  TCGEMM_REQUIRE_GPU();
  uint64_t n = 500;
  const char* forms[] = {"NN", "NT", "TN", "TT"};
  for (const char* f : forms)
    for (int64_t s : {3, 8, 17, 64}) {
      EXPECT_TRUE(run_batch(on_host({f[0], f[1], s, s, s, 23, 1.0, 0.0}), n++));              // contiguous
      EXPECT_TRUE(run_batch(on_host({f[0], f[1], s, s + 2, s + 1, 9, -0.5, 2.0, 3, 0}), n++));  // ld padding
      EXPECT_TRUE(run_batch(on_host({f[0], f[1], s, s, s, 7, 1.5, 0.0, 0, 5}), n++));          // gaps
      EXPECT_TRUE(run_batch(on_host({f[0], f[1], s + 1, s, 5, 6, 1.0, 1.0, 2, 3, false, 1}), n++));  // both
    }
}

TEST(BatchedHost, SharedOperandAndEdges) {
  TCGEMM_REQUIRE_GPU();
  uint64_t n = 600;
  EXPECT_TRUE(run_batch(on_host({'N', 'N', 8, 8, 8, 1000, 1.0, 0.0, 0, 0, true}), n++));   // strideA = 0
  EXPECT_TRUE(run_batch(on_host({'N', 'T', 8, 5, 8, 40, 2.0, -1.0, 1, 2, true}), n++));
  EXPECT_TRUE(run_batch(on_host({'N', 'N', 130, 20, 30, 3, 1.0, 0.5}), n++));  // past the batched sizes
  EXPECT_TRUE(run_batch(on_host({'N', 'N', 12, 12, 12, 1, 1.0, 0.5, 1, 0}), n++));   // batch 1
  EXPECT_TRUE(run_batch(on_host({'N', 'N', 12, 12, 12, 0, 1.0, 0.5}), n++));   // batch 0: C untouched
  EXPECT_TRUE(run_batch(on_host({'N', 'N', 9, 7, 5, 11, 0.0, 3.0, 2, 1}), n++));   // alpha = 0: host scaling
  EXPECT_TRUE(run_batch(on_host({'N', 'N', 9, 7, 5, 11, 0.0, 0.0, 2, 1}), n++));   // alpha = 0, beta = 0: zeros
  EXPECT_TRUE(run_batch(on_host({'N', 'N', 9, 7, 0, 11, 1.0, -2.0}), n++));        // k = 0
}

// A batch whose packed copies exceed the device's memory is refused by name before anything is copied: 2^36
// products of 8 x 8 (32 TiB of C) on a host C of one matrix, which the call must not touch.
TEST(BatchedHost, LargerThanTheDeviceIsRefused) {
  TCGEMM_REQUIRE_GPU();
  std::vector<double> a(64, 1.0), b(64, 1.0), c(64, 7.0);
  const int64_t batch = int64_t{1} << 36;
  EXPECT_EQ(tcgemm_dgemm_strided_batched_host('N', 'N', 8, 8, 8, 1.0, a.data(), 8, 0, b.data(), 8, 0, 0.0, c.data(),
                                              8, 64, batch),
            TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 17) << tcgemm_last_error();
  EXPECT_NE(std::string(tcgemm_last_error()).find("exceed the device's memory"), std::string::npos)
      << tcgemm_last_error();
  EXPECT_EQ(tcgemm_last_error_output_written(), 0);
  for (double x : c) ASSERT_EQ(x, 7.0);
  // The next call works.
  EXPECT_EQ(tcgemm_dgemm_strided_batched_host('N', 'N', 8, 8, 8, 1.0, a.data(), 8, 0, b.data(), 8, 0, 0.0, c.data(),
                                              8, 64, 1),
            TCGEMM_SUCCESS)
      << tcgemm_last_error();
  for (double x : c) ASSERT_EQ(x, 8.0);
}

// A strided batch of m x m x m products sharing one A and one B (strides 0), beta = 0 over NaN: the products
// `samples` are compared with the one expected product (exact: dyadic data, short sums).
static void check_shared_operand_batch(int64_t m, int64_t batch, std::initializer_list<int64_t> samples) {
  const int64_t elems = m * m * batch;
  DeviceBuffer<double> dc(elems), da(m * m), db(m * m);
  ASSERT_TRUE(dc.ok());
  std::vector<double> ha(m * m), hb(m * m);
  for (int64_t i = 0; i < m * m; ++i) {
    ha[i] = 0.25 * double(i % 5) - 0.5;
    hb[i] = 0.125 * double(i % 7) - 0.375;
  }
  CUDA_OK(da.upload(ha));
  CUDA_OK(db.upload(hb));
  CUDA_OK(cudaMemset(dc.get(), 0xFF, size_t(elems) * 8));  // NaN everywhere
  ASSERT_EQ(tcgemm_dgemm_strided_batched('N', 'N', m, m, m, 1.0, da.get(), m, 0, db.get(), m, 0, 0.0, dc.get(), m,
                                         m * m, batch, nullptr),
            TCGEMM_SUCCESS)
      << tcgemm_last_error();
  CUDA_OK(cudaDeviceSynchronize());
  std::vector<double> expect(m * m), got(m * m);
  for (int64_t j = 0; j < m; ++j)
    for (int64_t i = 0; i < m; ++i) {
      double sum = 0;
      for (int64_t l = 0; l < m; ++l) sum += ha[i + m * l] * hb[l + m * j];
      expect[i + m * j] = sum;
    }
  for (int64_t g : samples) {
    CUDA_OK(cudaMemcpy(got.data(), dc.get() + g * m * m, size_t(m * m) * 8, cudaMemcpyDeviceToHost));
    for (int64_t e = 0; e < m * m; ++e) ASSERT_EQ(got[e], expect[e]) << "product " << g << " element " << e;
  }
}

// More than 2^31 elements of C in one batch (64-bit strides and batch offsets): 2^27 + 5 products of 4 x 4.
TEST(Batched, MoreThan2To31ElementsOfC) {
  TCGEMM_REQUIRE_GPU();
  const int64_t m = 4, batch = (int64_t{1} << 27) + 5;
  size_t free_bytes = 0, total = 0;
  cudaMemGetInfo(&free_bytes, &total);
  if (free_bytes < size_t(m * m * batch) * 8 + (size_t(1) << 30))
    GTEST_SKIP() << "needs " << m * m * batch * 8 / (1 << 30) << " GiB";
  check_shared_operand_batch(m, batch, {0, int64_t{1} << 20, (int64_t{1} << 27) - 1, int64_t{1} << 27, batch - 1});
}

// More products than one launch's grid rows (65535) on the sm90_mma route (48 x 48 products on a cc 9.x
// device; batched_small elsewhere): products on both sides of the launch boundary.
TEST(Batched, MoreProductsThanOneLaunchHolds) {
  TCGEMM_REQUIRE_GPU();
  check_shared_operand_batch(48, 65535 + 7, {0, 65534, 65535, 65535 + 6});
}

// tcgemm_dgemm_grouped_batched: groups of different shapes, forms, alpha and beta in one call, on every route
// (batched_direct, batched_small, one product at a time past 128), with an empty group, a k = 0 group and a
// group of one; each product against the host reference with run_batch's bound, C NaN where beta = 0, and every
// element outside the C matrices (a padding row per column) checked unchanged.
TEST(BatchedGrouped, GroupsOfEveryRoute) {
  TCGEMM_REQUIRE_GPU();
  struct Group {
    char ta, tb;
    int64_t m, n, k, size;
    double alpha, beta;
  };
  const Group groups[] = {{'N', 'N', 4, 4, 4, 300, 1.0, 0.0},     {'T', 'N', 13, 7, 20, 37, -0.5, 2.0},
                          {'N', 'T', 24, 24, 24, 9, 1.0, 0.0},    {'T', 'T', 50, 30, 10, 5, 0.75, 0.5},
                          {'N', 'N', 5, 5, 5, 0, 1.0, 0.0},       {'N', 'N', 6, 6, 0, 3, 1.0, 0.5},
                          {'N', 'N', 140, 20, 8, 2, 1.0, 0.0},    {'N', 'T', 1, 1, 1, 1, 2.0, -1.0},
                          {'T', 'N', 16, 16, 16, 40, 1.0, 1.0},   {'N', 'N', 2, 3, 9, 70, 1.0, 0.0}};
  const int64_t count = sizeof(groups) / sizeof(groups[0]);
  // Product p's matrices: ld = rows + 1, one after the other in three buffers.
  struct Product {
    int64_t group, a, b, c, lda, ldb, ldc;
  };
  std::vector<Product> prods;
  int64_t na = 0, nb = 0, nc = 0;
  std::vector<char> ta(count), tb(count);
  std::vector<int64_t> m(count), n(count), k(count), lda(count), ldb(count), ldc(count), size(count);
  std::vector<double> alpha(count), beta(count);
  for (int64_t g = 0; g < count; ++g) {
    const Group& G = groups[g];
    ta[g] = G.ta, tb[g] = G.tb, m[g] = G.m, n[g] = G.n, k[g] = G.k, size[g] = G.size, alpha[g] = G.alpha,
    beta[g] = G.beta;
    const int64_t ar = G.ta == 'N' ? G.m : G.k, ac = G.ta == 'N' ? G.k : G.m;
    const int64_t br = G.tb == 'N' ? G.k : G.n, bc = G.tb == 'N' ? G.n : G.k;
    lda[g] = std::max<int64_t>(1, ar) + 1, ldb[g] = std::max<int64_t>(1, br) + 1, ldc[g] = G.m + 1;
    for (int64_t i = 0; i < G.size; ++i) {
      prods.push_back({g, na, nb, nc, lda[g], ldb[g], ldc[g]});
      na += lda[g] * std::max<int64_t>(1, ac);
      nb += ldb[g] * std::max<int64_t>(1, bc);
      nc += ldc[g] * G.n;
    }
  }
  std::mt19937_64 gen(777);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  // A and B random inside the matrices, NaN in their padding rows (not read).
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> ha(na, nan), hb(nb, nan), hc(nc, guard_nan());
  for (const Product& p : prods) {
    const Group& G = groups[p.group];
    const int64_t ar = G.ta == 'N' ? G.m : G.k, ac = G.ta == 'N' ? G.k : G.m;
    const int64_t br = G.tb == 'N' ? G.k : G.n, bc = G.tb == 'N' ? G.n : G.k;
    for (int64_t j = 0; j < ac; ++j)
      for (int64_t i = 0; i < ar; ++i) ha[p.a + i + j * p.lda] = u(gen);
    for (int64_t j = 0; j < bc; ++j)
      for (int64_t i = 0; i < br; ++i) hb[p.b + i + j * p.ldb] = u(gen);
  }
  for (const Product& p : prods)
    for (int64_t j = 0; j < groups[p.group].n; ++j)
      for (int64_t i = 0; i < groups[p.group].m; ++i)
        hc[p.c + i + j * p.ldc] = groups[p.group].beta == 0.0 ? poison_nan() : u(gen);
  DeviceBuffer<double> da(na), db(nb), dc(nc);
  ASSERT_TRUE(da.ok() && db.ok() && dc.ok());
  CUDA_OK(da.upload(ha));
  CUDA_OK(db.upload(hb));
  CUDA_OK(dc.upload(hc));
  const int64_t total = static_cast<int64_t>(prods.size());
  std::vector<const double*> pa(total), pb(total);
  std::vector<double*> pc(total);
  for (int64_t i = 0; i < total; ++i) {
    pa[i] = da.get() + prods[i].a;
    pb[i] = db.get() + prods[i].b;
    pc[i] = dc.get() + prods[i].c;
  }
  DeviceBuffer<const double*> dpa(total), dpb(total);
  DeviceBuffer<double*> dpc(total);
  CUDA_OK(cudaMemcpy(dpa.get(), pa.data(), total * sizeof(double*), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(dpb.get(), pb.data(), total * sizeof(double*), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(dpc.get(), pc.data(), total * sizeof(double*), cudaMemcpyHostToDevice));
  ASSERT_EQ(tcgemm_dgemm_grouped_batched(ta.data(), tb.data(), m.data(), n.data(), k.data(), alpha.data(), dpa.get(),
                                         lda.data(), dpb.get(), ldb.data(), beta.data(), dpc.get(), ldc.data(), count,
                                         size.data(), nullptr),
            TCGEMM_SUCCESS)
      << tcgemm_last_error();
  CUDA_OK(cudaDeviceSynchronize());
  std::vector<double> out;
  CUDA_OK(dc.download(&out));
  std::vector<char> inside(nc, 0);
  int64_t bad = 0;
  double worst = 0.0;
  for (const Product& p : prods) {
    const Group& G = groups[p.group];
    bad += count_beyond_bound(G.ta, G.tb, G.m, G.n, G.k, G.alpha, ha.data() + p.a, p.lda, hb.data() + p.b, p.ldb,
                              G.beta, hc, out, p.c, p.ldc, &inside, &worst);
  }
  const int64_t touched = count_touched(hc, out, inside);
  EXPECT_EQ(bad, 0) << "elements beyond the bound (worst " << worst << ")";
  EXPECT_EQ(touched, 0) << "elements outside the C matrices written";
}
