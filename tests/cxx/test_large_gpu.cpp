// Sizes past the 32-bit edge on the GPU, with real device memory:
//  - m = 2^31 + 9 rows (more rows than an int32 counts, 16 GB per operand column), through every family a BLAS
//    call can reach; with n = k = 1 the reference is C(i) = alpha A(i) B + beta C0(i), for sampled rows;
//  - leading dimensions of 2^25 and more with 66-88 columns, so that element offsets pass 2^31 in A, B and C,
//    in every operand form, even and odd (the 16- and 8-byte copy paths), through sm90_mma (one slice and
//    split), shared_ab, and for 16-bit inputs the mma.sync path and the WMMA family (cp.async and element-wise
//    copies). Small-integer data make every product exact, so C is compared for equality with a host product;
//  - the skinny family's routes (the column stream, the chunked kernels with one chunk, a cluster or workspace,
//    both layouts of the large operand) with that large operand and C at leading dimensions of 2^25 and more.
// cuBLAS takes int32 sizes and offsets, so the references are computed on the host. Each case skips where the
// device has too little free memory (the suite runs serially: ctest RUN_SERIAL).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include <cuda_fp16.h>

#include "families/skinny/rules.hpp"  // white-box: which skinny route each case takes
#include "gpu_test_util.hpp"
#include "tcgemm/tcgemm.h"

namespace {

constexpr int64_t kRows = (int64_t(1) << 31) + 9;

// A column of kRows doubles whose element i is f(i), filled on the device by a strided host pattern copied
// in pieces (no kernel of the test's own).
double value_a(int64_t i) { return double(i % 1021) - 510.0; }
double value_c0(int64_t i) { return double(i % 997) * 0.5; }

bool fill(double* d, double (*f)(int64_t)) {
  constexpr int64_t kChunk = int64_t(1) << 24;
  std::vector<double> h(static_cast<size_t>(kChunk));
  for (int64_t first = 0; first < kRows; first += kChunk) {
    const int64_t count = std::min(kChunk, kRows - first);
    for (int64_t i = 0; i < count; ++i) h[size_t(i)] = f(first + i);
    if (cudaMemcpy(d + first, h.data(), size_t(count) * sizeof(double), cudaMemcpyHostToDevice) != cudaSuccess)
      return false;
  }
  return true;
}

TEST(LargeSizes, RowsPastThe32BitEdge) {
  TCGEMM_REQUIRE_GPU();
  size_t free_bytes = 0, total = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total), cudaSuccess);
  const size_t need = 2 * size_t(kRows) * sizeof(double) + (size_t(1) << 30);
  if (free_bytes < need) GTEST_SKIP() << "needs " << need << " bytes of free device memory";
  double *A = nullptr, *C = nullptr, *B = nullptr;
  ASSERT_EQ(cudaMalloc(&A, size_t(kRows) * sizeof(double)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&C, size_t(kRows) * sizeof(double)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&B, sizeof(double)), cudaSuccess);
  ASSERT_TRUE(fill(A, value_a));
  const double b = 0.25;
  ASSERT_EQ(cudaMemcpy(B, &b, sizeof b, cudaMemcpyHostToDevice), cudaSuccess);
  const int64_t samples[] = {0, 1, (int64_t(1) << 31) - 1, int64_t(1) << 31, (int64_t(1) << 31) + 1, kRows - 1,
                             int64_t(1) << 30, 123456789};
  struct Route {
    const char* name;
    int32_t family;
    double alpha, beta;
  };
  const Route routes[] = {{"auto", TCGEMM_FAMILY_AUTO, -0.5, 2.0},
                          {"shared_ab", TCGEMM_FAMILY_SHARED_AB, 1.5, 0.0},
                          {"scale (alpha = 0)", TCGEMM_FAMILY_AUTO, 0.0, -1.0}};
  for (const Route& r : routes) {
    SCOPED_TRACE(r.name);
    ASSERT_TRUE(fill(C, value_c0));
    tcgemm_config cfg{};
    cfg.family = r.family;
    ASSERT_EQ(tcgemm_dgemm_config(&cfg, 'N', 'N', kRows, 1, 1, r.alpha, A, kRows, B, 1, r.beta, C, kRows, nullptr),
              TCGEMM_SUCCESS)
        << tcgemm_last_error();
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    for (int64_t i : samples) {
      double got = 0;
      ASSERT_EQ(cudaMemcpy(&got, C + i, sizeof got, cudaMemcpyDeviceToHost), cudaSuccess);
      const double want = r.alpha * value_a(i) * b + r.beta * value_c0(i);  // exact in FP64 (small integers)
      EXPECT_EQ(got, want) << "row " << i;
    }
  }
  EXPECT_EQ(cudaFree(A), cudaSuccess);
  EXPECT_EQ(cudaFree(C), cudaSuccess);
  EXPECT_EQ(cudaFree(B), cudaSuccess);
}

// ---- leading dimensions past the 32-bit edge ----

// Where the operands live: `cols` columns of leading dimension ld, A in rows [0, 96), B in rows [96, 192) and
// C in rows [192, 288) of every column (inputs may share storage; C does not overlap them). For a C of
// another type than the inputs, C has an allocation of its own with the same layout.
constexpr int64_t kRegionRows = 96;
constexpr int64_t kLdBase = int64_t(1) << 25;  // 65+ columns of it put the last column past element 2^31
// The largest offsets reached are about 2.95e9 elements: past 2^31 (signed 32-bit indexing breaks), below
// 2^32 (unsigned 32-bit indexing would not). Going past 2^32 as well would take 35+ GB per operand.
constexpr double kSentinel = 12345.0;  // the rows of C's region below C: a stray write shows

// Storage rows x cols of op(X) = X (trans 'N') or X^T, for an r x c operand.
struct Storage {
  int64_t rows, cols;
};
Storage storage(char trans, int64_t r, int64_t c) { return trans == 'N' ? Storage{r, c} : Storage{c, r}; }

// Small integers in [-3, 3] that vary along both rows and columns (5 and 3 are prime to 7): every product and
// sum below is exact in FP64, and in FP32 for 16-bit inputs (|sum| <= 9 k < 2^24).
double small_int(int64_t i, int64_t j, int salt) { return double(int((i * 5 + j * 3 + salt) % 7) - 3); }

template <class T>
T to_elem(double v) {
  if constexpr (std::is_same_v<T, __half>) return __float2half(float(v));
  else return T(v);
}

// Copies the rows x cols host matrix h (column-major, leading dimension rows) to or from the device region at
// d (leading dimension ld).
template <class T>
void put(T* d, int64_t ld, const std::vector<T>& h, Storage s) {
  ASSERT_EQ(cudaMemcpy2D(d, size_t(ld) * sizeof(T), h.data(), size_t(s.rows) * sizeof(T), size_t(s.rows) * sizeof(T),
                         size_t(s.cols), cudaMemcpyHostToDevice),
            cudaSuccess);
}
template <class T>
void get(std::vector<T>& h, const T* d, int64_t ld, Storage s) {
  h.resize(size_t(s.rows * s.cols));
  ASSERT_EQ(cudaMemcpy2D(h.data(), size_t(s.rows) * sizeof(T), d, size_t(ld) * sizeof(T), size_t(s.rows) * sizeof(T),
                         size_t(s.cols), cudaMemcpyDeviceToHost),
            cudaSuccess);
}

// The host reference alpha op(A) op(B) + beta C0 (beta == 0: C0 not read), in double.
std::vector<double> reference(char ta, char tb, int64_t m, int64_t n, int64_t k, double alpha,
                              const std::vector<double>& a, const std::vector<double>& b, double beta,
                              const std::vector<double>& c0) {
  const Storage sa = storage(ta, m, k), sb = storage(tb, k, n);
  std::vector<double> c(size_t(m * n));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      double sum = 0;
      for (int64_t l = 0; l < k; ++l) {
        const double x = ta == 'N' ? a[size_t(i + l * sa.rows)] : a[size_t(l + i * sa.rows)];
        const double y = tb == 'N' ? b[size_t(l + j * sb.rows)] : b[size_t(j + l * sb.rows)];
        sum += x * y;
      }
      c[size_t(i + j * m)] = alpha * sum + (beta == 0.0 ? 0.0 : beta * c0[size_t(i + j * m)]);
    }
  return c;
}

bool enough_free_memory(size_t bytes) {
  size_t free_bytes = 0, total = 0;
  return cudaMemGetInfo(&free_bytes, &total) == cudaSuccess && free_bytes >= bytes + (size_t(1) << 30);
}

// One product through `run(A, lda, B, ldb, C, ldc)` with lda = ldb = ldc = ld (In for A and B, Out for C). C
// is compared exactly with the host product, and the rows of its region below C must keep their sentinel.
template <class In, class Out, class Run>
void check_large_ld(const char* what, char ta, char tb, int64_t m, int64_t n, int64_t k, int64_t ld, double alpha,
                    double beta, Run&& run) {
  SCOPED_TRACE(testing::Message() << what << " " << ta << tb << " ld " << ld << " beta " << beta);
  const Storage sa = storage(ta, m, k), sb = storage(tb, k, n), sc{m, n}, region{kRegionRows, n};
  ASSERT_GT((std::min({sa.cols, sb.cols, sc.cols}) - 1) * ld, int64_t(INT32_MAX))
      << "the last column of A, of B and of C must each start past element 2^31";
  ASSERT_LE(std::max({sa.rows, sb.rows, sc.rows}), kRegionRows);
  constexpr bool kSameType = std::is_same_v<In, Out>;
  const int64_t in_cols = kSameType ? std::max({sa.cols, sb.cols, sc.cols}) : std::max(sa.cols, sb.cols);
  const size_t in_bytes = size_t(in_cols * ld) * sizeof(In), out_bytes = kSameType ? 0 : size_t(n * ld) * sizeof(Out);
  if (!enough_free_memory(in_bytes + out_bytes)) GTEST_SKIP() << "needs " << in_bytes + out_bytes << " bytes free";
  // Freed on every way out of the test (a failed ASSERT returns early; these are 16-19 GB).
  const tcgemm::test::DeviceBuffer<In> in_buf(in_bytes / sizeof(In));
  const tcgemm::test::DeviceBuffer<Out> out_buf(out_bytes / sizeof(Out));
  ASSERT_TRUE(in_buf.get() != nullptr) << "cudaMalloc of " << in_bytes << " bytes";
  if constexpr (!kSameType) ASSERT_TRUE(out_buf.get() != nullptr) << "cudaMalloc of " << out_bytes << " bytes";
  In* A = in_buf.get();
  In* B = A + kRegionRows;
  Out* C = kSameType ? reinterpret_cast<Out*>(A + 2 * kRegionRows) : out_buf.get();
  std::vector<double> a(size_t(sa.rows * sa.cols)), b(size_t(sb.rows * sb.cols)), c0(size_t(m * n));
  std::vector<In> ha(a.size()), hb(b.size());
  std::vector<Out> hc(size_t(region.rows * region.cols));
  for (int64_t j = 0; j < sa.cols; ++j)
    for (int64_t i = 0; i < sa.rows; ++i) {
      a[size_t(i + j * sa.rows)] = small_int(i, j, 1);
      ha[size_t(i + j * sa.rows)] = to_elem<In>(a[size_t(i + j * sa.rows)]);
    }
  for (int64_t j = 0; j < sb.cols; ++j)
    for (int64_t i = 0; i < sb.rows; ++i) {
      b[size_t(i + j * sb.rows)] = small_int(i, j, 2);
      hb[size_t(i + j * sb.rows)] = to_elem<In>(b[size_t(i + j * sb.rows)]);
    }
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < region.rows; ++i) {
      Out& v = hc[size_t(i + j * region.rows)];
      if (i >= m) {
        v = Out(kSentinel);
        continue;
      }
      c0[size_t(i + j * m)] = small_int(i, j, 3);
      // beta == 0: C is poisoned, and must come back without a NaN (BLAS: C is not read).
      v = beta == 0.0 ? std::numeric_limits<Out>::quiet_NaN() : Out(c0[size_t(i + j * m)]);
    }
  ASSERT_NO_FATAL_FAILURE(put(A, ld, ha, sa));
  ASSERT_NO_FATAL_FAILURE(put(B, ld, hb, sb));
  ASSERT_NO_FATAL_FAILURE(put(C, ld, hc, region));
  ASSERT_NO_FATAL_FAILURE(run(A, ld, B, ld, C, ld));
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<Out> got;
  ASSERT_NO_FATAL_FAILURE(get(got, C, ld, region));
  const std::vector<double> want = reference(ta, tb, m, n, k, alpha, a, b, beta, c0);
  int bad = 0;
  for (int64_t j = 0; j < n && bad < 5; ++j)
    for (int64_t i = 0; i < region.rows && bad < 5; ++i) {
      const double g = double(got[size_t(i + j * region.rows)]);
      const double w = i < m ? want[size_t(i + j * m)] : kSentinel;
      if (!(g == w)) {
        ++bad;
        ADD_FAILURE() << (i < m ? "C(" : "row below C (") << i << ", " << j << ") = " << g << ", want " << w;
      }
    }
}

TEST(LargeSizes, DgemmLeadingDimensionsPastThe32BitEdgeEveryForm) {
  TCGEMM_REQUIRE_GPU();
  struct Route {
    const char* name;
    tcgemm_config cfg;
  };
  tcgemm_config shared_ab{};
  shared_ab.family = TCGEMM_FAMILY_SHARED_AB;
  std::vector<Route> routes = {{"auto", tcgemm_config{}}, {"shared_ab", shared_ab}};
  if (tcgemm::test::hopper_path_expected()) {
    using tcgemm::test::sm90_mma_config;
    routes.push_back({"sm90_mma 128x64", sm90_mma_config(128, 64, 16, 3, 1)});
    routes.push_back({"sm90_mma 64x64, 2 slices", sm90_mma_config(64, 64, 16, 4, 2)});
    routes.push_back({"sm90_mma 32x64, 3 slices", sm90_mma_config(32, 64, 32, 3, 3)});
  }
  const int64_t m = 72, n = 68, k = 66;
  constexpr double kAlpha = 1.5;
  for (const Route& r : routes)
    for (const int64_t ld : {kLdBase + 2, kLdBase + 1})  // 16-byte and 8-byte copies
      for (const char* form : {"NN", "NT", "TN", "TT"}) {
        // beta = 0 (C poisoned, not read) in half of the forms of each copy width, beta != 0 in the others.
        const double beta = (form[0] == form[1]) ? 0.0 : -2.0;
        check_large_ld<double, double>(r.name, form[0], form[1], m, n, k, ld, kAlpha, beta,
                                       [&](const double* A, int64_t lda, const double* B, int64_t ldb, double* C,
                                           int64_t ldc) {
                                         tcgemm_config cfg = r.cfg;
                                         ASSERT_EQ(tcgemm_dgemm_config(&cfg, form[0], form[1], m, n, k, kAlpha, A,
                                                                       lda, B, ldb, beta, C, ldc, nullptr),
                                                   TCGEMM_SUCCESS)
                                             << tcgemm_last_error();
                                       });
        if (testing::Test::HasFatalFailure() || testing::Test::IsSkipped()) return;
      }
}

TEST(LargeSizes, GemmExLeadingDimensionsPastThe32BitEdgeEveryForm) {
  TCGEMM_REQUIRE_GPU();
  // F16 inputs, FP32 C. An ld that is a multiple of 8, with m, n, k multiples of 8 and 16-byte aligned
  // operands: the mma.sync path (config NULL; tcgemm.h, tcgemm_wmma_config) and the WMMA family's cp.async
  // copies; an odd ld: the WMMA family's element-wise copies.
  tcgemm_wmma_config wmma{};
  const int64_t m = 72, n = 80, k = 88;
  constexpr float kAlpha = -1.0f;
  struct Case {
    const char* name;
    const tcgemm_wmma_config* cfg;
    int64_t ld;
  };
  const Case cases[] = {{"mma.sync (config NULL)", nullptr, kLdBase + 8},
                        {"WMMA family, cp.async", &wmma, kLdBase + 8},
                        {"WMMA family, element-wise", &wmma, kLdBase + 3}};
  for (const Case& c : cases)
    for (const char* form : {"NN", "NT", "TN", "TT"}) {
      const float beta = (form[0] == form[1]) ? 0.0f : 2.0f;
      check_large_ld<__half, float>(c.name, form[0], form[1], m, n, k, c.ld, kAlpha, beta,
                                    [&](const __half* A, int64_t lda, const __half* B, int64_t ldb, float* C,
                                        int64_t ldc) {
                                      ASSERT_EQ(tcgemm_gemm_ex(form[0], form[1], m, n, k, kAlpha, A, TCGEMM_TYPE_F16,
                                                               lda, B, TCGEMM_TYPE_F16, ldb, beta, C,
                                                               TCGEMM_TYPE_F32, ldc, TCGEMM_TYPE_F32, c.cfg, nullptr),
                                                TCGEMM_SUCCESS)
                                          << tcgemm_last_error();
                                    });
      if (testing::Test::HasFatalFailure() || testing::Test::IsSkipped()) return;
    }
}

// ---- the skinny family past the 32-bit edge ----

// One skinny product with its large operand G (B when m is the small side, else A) and C in `cols` columns of
// leading dimension ld (G in rows [0, G's rows), C below it, then a sentinel row), and the small operand S dense
// in an allocation of its own (its leading dimension is its row count). Data are small integers: C must equal
// the host product exactly, and the sentinel row must survive.
struct SkinnyLargeCase {
  const char* route;  // what the case exercises (asserted below with the family's own rules)
  char ta, tb;
  int64_t m, n, k;
  int k_splits;
};

void check_skinny_large(const SkinnyLargeCase& c, int64_t ld, double* big, int64_t big_cols, int sm_count) {
  SCOPED_TRACE(testing::Message() << c.route << " " << c.ta << c.tb << " " << c.m << "x" << c.n << "x" << c.k
                                  << " k_splits " << c.k_splits << " ld " << ld);
  using namespace tcgemm::detail;
  const SkinnyShape shape = skinny_shape(c.ta, c.tb, c.m, c.n, c.k);
  const bool a_large = shape.transpose_c;  // n is the small side: G = op(A)^T
  const Storage sa = storage(c.ta, c.m, c.k), sb = storage(c.tb, c.k, c.n), sg = a_large ? sa : sb;
  const Storage ss = a_large ? sb : sa;
  ASSERT_GT((sg.cols - 1) * ld, int64_t(INT32_MAX)) << "G's last column must start past element 2^31";
  ASSERT_LE(std::max(sg.cols, c.n), big_cols);
  const int64_t c_row0 = sg.rows;  // C's rows in the big columns
  const double beta = (c.m + c.n) % 2 ? 0.0 : -2.0;
  const double alpha = 1.5;
  std::vector<double> a(size_t(sa.rows * sa.cols)), b(size_t(sb.rows * sb.cols)), c0(size_t(c.m * c.n));
  for (int64_t j = 0; j < sa.cols; ++j)
    for (int64_t i = 0; i < sa.rows; ++i) a[size_t(i + j * sa.rows)] = small_int(i, j, 1);
  for (int64_t j = 0; j < sb.cols; ++j)
    for (int64_t i = 0; i < sb.rows; ++i) b[size_t(i + j * sb.rows)] = small_int(i, j, 2);
  // C's region: m rows of C (NaN with beta = 0: not read) and the sentinel row.
  const Storage region{c.m + 1, c.n};
  std::vector<double> hc(size_t(region.rows * region.cols));
  for (int64_t j = 0; j < c.n; ++j)
    for (int64_t i = 0; i <= c.m; ++i) {
      if (i < c.m) c0[size_t(i + j * c.m)] = small_int(i, j, 3);
      hc[size_t(i + j * region.rows)] =
          i == c.m ? kSentinel : (beta == 0.0 ? std::numeric_limits<double>::quiet_NaN() : c0[size_t(i + j * c.m)]);
    }
  const tcgemm::test::DeviceBuffer<double> small_buf(size_t(ss.rows * ss.cols));
  ASSERT_TRUE(small_buf.get() != nullptr);
  double* S = small_buf.get();
  ASSERT_NO_FATAL_FAILURE(put(S, ss.rows, a_large ? b : a, ss));
  ASSERT_NO_FATAL_FAILURE(put(big, ld, a_large ? a : b, sg));
  double* C = big + c_row0;
  ASSERT_NO_FATAL_FAILURE(put(C, ld, hc, region));
  const double* A = a_large ? big : S;
  const double* B = a_large ? S : big;
  const int64_t lda = a_large ? ld : sa.rows, ldb = a_large ? sb.rows : ld;
  // The route: asserted with the family's rules for this call (S is dense: compact).
  const bool streams = skinny_streams_columns(shape, c.k_splits, sm_count, true);
  // The tensor-core kernel (16-byte pairs of G: an even ld) has chunks of its own.
  const bool sm90 = tcgemm::test::hopper_path_expected();
  const bool tensor_cores = skinny_on_tensor_cores(shape, ld % 2 == 0, sm90);
  const int64_t chunks = skinny_chunks(shape, tensor_cores ? skinny_mma_chunk_k(shape, c.k_splits, sm_count)
                                                           : skinny_chunk_k(shape, c.k_splits, sm_count));
  const std::string route = streams ? "stream" : chunks == 1 ? "one chunk"
                                    : skinny_cluster_reduces(shape, chunks, sm90, tensor_cores) ? "cluster"
                                                                                              : "workspace";
  // A cluster where the build's sm_90 code runs on cc 9.x, else the same chunks through workspace.
  std::string expected = c.route;
  expected = expected.substr(0, expected.find(':'));
  if (expected == "cluster" && !tcgemm::test::hopper_path_expected()) expected = "workspace";
  EXPECT_EQ(route, expected) << "the case takes the " << route << " route";
  tcgemm_config cfg{};
  cfg.family = TCGEMM_FAMILY_SKINNY;
  cfg.k_splits = c.k_splits;
  ASSERT_EQ(tcgemm_dgemm_config(&cfg, c.ta, c.tb, c.m, c.n, c.k, alpha, A, lda, B, ldb, beta, C, ld, nullptr),
            TCGEMM_SUCCESS)
      << tcgemm_last_error();
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<double> got;
  ASSERT_NO_FATAL_FAILURE(get(got, C, ld, region));
  const std::vector<double> want = reference(c.ta, c.tb, c.m, c.n, c.k, alpha, a, b, beta, c0);
  int bad = 0;
  for (int64_t j = 0; j < c.n && bad < 5; ++j)
    for (int64_t i = 0; i <= c.m && bad < 5; ++i) {
      const double g = got[size_t(i + j * region.rows)];
      const double w = i < c.m ? want[size_t(i + j * c.m)] : kSentinel;
      if (!(g == w)) {
        ++bad;
        ADD_FAILURE() << (i < c.m ? "C(" : "sentinel row (") << i << ", " << j << ") = " << g << ", want " << w;
      }
    }
}

TEST(LargeSizes, SkinnyRoutesPastThe32BitEdge) {
  TCGEMM_REQUIRE_GPU();
  // G with 66-72 columns of ld = 2^25 + 2 (16-byte loads) or 2^25 + 1 (8-byte loads, the column stream's
  // peeled first element): offsets up to ~2.4e9 elements, past 2^31.
  const SkinnyLargeCase cases[] = {
      {"stream: one row, S k-contiguous", 'T', 'N', 1, 66, 600, 0},
      {"stream: two rows, S dense columns", 'N', 'N', 2, 70, 1000, 0},
      {"stream: one row, 4 warps per column", 'N', 'N', 1, 66, 2048, 0},
      {"stream: n small, C transposed", 'T', 'T', 70, 2, 600, 0},
      {"workspace: k-contiguous, 8 rows", 'N', 'N', 8, 66, 600, 0},
      {"cluster: k-contiguous, 8 rows", 'N', 'N', 8, 66, 600, 2},
      {"one chunk: k-contiguous, 5 rows", 'N', 'N', 5, 66, 500, 1},
      {"workspace: cols-contiguous, n small", 'N', 'N', 72, 3, 66, 0},
      {"workspace: cols-contiguous, m small", 'N', 'T', 4, 72, 66, 0},
  };
  constexpr int64_t kBigCols = 72;
  const int64_t ld_max = kLdBase + 2;
  const size_t bytes = size_t(kBigCols * ld_max) * sizeof(double);
  if (!enough_free_memory(bytes)) GTEST_SKIP() << "needs " << bytes << " bytes free";
  int sm_count = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
  const tcgemm::test::DeviceBuffer<double> big(bytes / sizeof(double));
  ASSERT_TRUE(big.get() != nullptr) << "cudaMalloc of " << bytes << " bytes";
  for (const SkinnyLargeCase& c : cases)
    for (const int64_t ld : {kLdBase + 2, kLdBase + 1}) {
      check_skinny_large(c, ld, big.get(), kBigCols, sm_count);
      if (testing::Test::HasFatalFailure()) return;
    }
}

}  // namespace
