// The bounds rule and the machine-readable argument index, at every public entry point. Every case here
// would reach the GPU (and fault or wrap there) if validation let it through; on a machine without a GPU a
// missed case shows up as TCGEMM_ERROR_NO_DEVICE instead of TCGEMM_ERROR_INVALID_ARGUMENT, so each test
// fails with its rule removed. Host buffers stand in for device pointers and must stay untouched.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tcgemm/tcgemm.h"

namespace {

using ::testing::HasSubstr;

constexpr int64_t kI64Max = INT64_MAX;
constexpr int64_t k2p33 = int64_t(1) << 33;
constexpr int64_t k2p35 = int64_t(1) << 35;

std::string last() { return tcgemm_last_error(); }

// Cases that pass validation would go on to the GPU with host pointers standing in for device memory:
// they run only where there is none, and must end in TCGEMM_ERROR_NO_DEVICE there.
bool gpu_present() {
  tcgemm_device_info info;
  return tcgemm_device_info_get(-1, &info) != TCGEMM_ERROR_NO_DEVICE;
}
#define SKIP_WITH_GPU() \
  if (gpu_present()) GTEST_SKIP() << "passes validation and would run on the GPU with host pointers"

// Small host buffers: the pointers are only compared and never dereferenced by a correct library.
struct Buffers {
  std::vector<double> a = std::vector<double>(64, 1.0), b = std::vector<double>(64, 2.0),
                      c = std::vector<double>(64, 7.0);
  bool c_untouched() const {
    for (double v : c)
      if (v != 7.0) return false;
    return true;
  }
};

// Status, blamed position and a message fragment of the last call.
void expect_rejected(tcgemm_status st, int32_t position, const std::string& fragment) {
  EXPECT_EQ(st, TCGEMM_ERROR_INVALID_ARGUMENT) << last();
  EXPECT_EQ(tcgemm_last_error_argument(), position) << last();
  EXPECT_THAT(last(), HasSubstr(fragment));
}

// ---- the extent rule, BLAS entry points -----------------------------------------------------------

TEST(Bounds, DgemmProductOverflowingInt64) {
  // m = n = k = 2^33: A alone is 2^66 elements; m * k wraps int64.
  Buffers x;
  expect_rejected(tcgemm_dgemm('N', 'N', k2p33, k2p33, k2p33, 1.0, x.a.data(), k2p33, x.b.data(), k2p33, 0.0,
                               x.c.data(), k2p33, nullptr),
                  8, "argument 8 (lda) = 8589934592: matrix A");
  EXPECT_THAT(last(), HasSubstr("2^52 bytes"));
  EXPECT_TRUE(x.c_untouched());
}

TEST(Bounds, DgemmHostProductOverflowingInt64) {
  Buffers x;
  expect_rejected(tcgemm_dgemm_host('N', 'N', k2p33, k2p33, k2p33, 1.0, x.a.data(), k2p33, x.b.data(), k2p33, 0.0,
                                    x.c.data(), k2p33),
                  8, "argument 8 (lda)");
  EXPECT_TRUE(x.c_untouched());
}

TEST(Bounds, DgemmHostByteCountWraps) {
  // m = 2^62, n = k = 1: 2^62 doubles are 2^65 bytes (the byte count wraps, the element count does not).
  Buffers x;
  const int64_t m = int64_t(1) << 62;
  expect_rejected(tcgemm_dgemm_host('N', 'N', m, 1, 1, 1.0, x.a.data(), m, x.b.data(), 1, 0.0, x.c.data(), m), 8,
                  "matrix A");
  EXPECT_TRUE(x.c_untouched());
}

TEST(Bounds, DgemmLargestSizesNeverSucceedWithoutComputing) {
  // INT64_MAX rows: tile counts computed as (m + tile - 1) / tile wrap negative and used to give an empty
  // grid and TCGEMM_SUCCESS.
  Buffers x;
  expect_rejected(tcgemm_dgemm('N', 'N', kI64Max, 1, 1, 1.0, x.a.data(), kI64Max, x.b.data(), 1, 0.0, x.c.data(),
                               kI64Max, nullptr),
                  8, "matrix A");
  // alpha = 0: A and B are not read, but C still is written: its extent is checked (ldc, argument 13).
  expect_rejected(tcgemm_dgemm('N', 'N', kI64Max, 1, 1, 0.0, nullptr, kI64Max, nullptr, 1, 0.0, x.c.data(),
                               kI64Max, nullptr),
                  13, "argument 13 (ldc)");
  expect_rejected(tcgemm_dgemm_host('T', 'T', 1, kI64Max, 1, 1.0, x.a.data(), 1, x.b.data(), kI64Max, 0.0,
                                    x.c.data(), 1),
                  10, "matrix B");
  EXPECT_TRUE(x.c_untouched());
}

TEST(Bounds, ExtentJustInsideTheLimitPassesValidation) {
  // ld * cols * 8 == 2^52 is accepted by the rule (and then needs a device).
  SKIP_WITH_GPU();
  Buffers x;
  const int64_t ld = int64_t(1) << 40;  // 2^40 * 2^9 columns * 8 bytes = 2^52
  EXPECT_EQ(tcgemm_dgemm('N', 'N', 8, 512, 8, 1.0, x.a.data(), 8, x.b.data(), 8, 0.0, x.c.data(), ld, nullptr),
            TCGEMM_ERROR_NO_DEVICE)
      << last();
  // One column more is over.
  expect_rejected(tcgemm_dgemm('N', 'N', 8, 513, 8, 1.0, x.a.data(), 8, x.b.data(), 8, 0.0, x.c.data(), ld, nullptr),
                  13, "matrix C");
}

TEST(Bounds, PointerRunningPastTheAddressSpace) {
  Buffers x;
  const double* near_end = reinterpret_cast<const double*>(UINTPTR_MAX - 63);
  expect_rejected(tcgemm_dgemm('N', 'N', 4, 4, 4, 1.0, near_end, 4, x.b.data(), 4, 0.0, x.c.data(), 4, nullptr), 7,
                  "past the end of the address space");
  EXPECT_TRUE(x.c_untouched());
}

TEST(Bounds, DgemmConfigGridLimit) {
  SKIP_WITH_GPU();
  // sm90_mma, 64x64 tiles: 2^24 x 2^20 C (2^47 bytes, inside the extent rule) needs 2^32 blocks.
  Buffers x;
  tcgemm_config cfg{};
  cfg.family = TCGEMM_FAMILY_SM90_MMA;
  cfg.tile_m = 64;
  cfg.tile_n = 64;
  cfg.tile_k = 16;
  const int64_t m = int64_t(1) << 24, n = int64_t(1) << 20;
  expect_rejected(tcgemm_dgemm_config(&cfg, 'N', 'N', m, n, 1, 1.0, x.a.data(), m, x.b.data(), 1, 0.0, x.c.data(),
                                      m, nullptr),
                  3, "one launch takes at most 2^31 - 1");
  // The wider dimension is blamed.
  expect_rejected(tcgemm_dgemm_config(&cfg, 'N', 'N', n, m, 1, 1.0, x.a.data(), n, x.b.data(), 1, 0.0, x.c.data(),
                                      n, nullptr),
                  4, "argument 4 (n)");
  // shared_ab walks its tiles with a grid-stride loop: the same shape passes validation.
  cfg = tcgemm_config{};
  cfg.family = TCGEMM_FAMILY_SHARED_AB;
  EXPECT_EQ(tcgemm_dgemm_config(&cfg, 'N', 'N', m, n, 1, 1.0, x.a.data(), m, x.b.data(), 1, 0.0, x.c.data(), m,
                                nullptr),
            TCGEMM_ERROR_NO_DEVICE)
      << last();
  EXPECT_TRUE(x.c_untouched());
}

// ---- the example entry points: positions in their own prototypes ------------------------------------

TEST(Bounds, ExampleEntryPoints) {
  Buffers x;
  const double* A = x.a.data();
  const double* B = x.b.data();
  double* C = x.c.data();
  const int64_t huge = int64_t(1) << 62;
  // tcgemm_dmma_single(A, lda, B, ldb, C, ldc, stream): A is 8 x 4, lda * 4 * 8 bytes overflows.
  expect_rejected(tcgemm_dmma_single(A, huge, B, 4, C, 8, nullptr), 2, "lda=4611686018427387904: matrix A");
  // tcgemm_dmma_row(k, A, lda, B, ldb, C, ldc, stream): B is k x 8 with ldb = k.
  expect_rejected(tcgemm_dmma_row(huge, A, 8, B, huge, C, 8, nullptr), 3, "matrix A");
  expect_rejected(tcgemm_dmma_row(8, A, 8, B, int64_t(1) << 47, C, 8, nullptr), 5, "ldb=140737488355328: matrix B");
  // tcgemm_dmma_warp_per_block(m, n, k, A, lda, B, ldb, C, ldc, stream): 2^35 rows need 2^32 block rows.
  expect_rejected(tcgemm_dmma_warp_per_block(k2p35, 1, 1, A, k2p35, B, 1, C, k2p35, nullptr), 1,
                  "m=34359738368: family warp_per_block would need 4294967296 thread blocks");
  // tcgemm_dmma_block_tile(m, n, k, tile_m, tile_n, A, lda, B, ldb, C, ldc, stream).
  expect_rejected(tcgemm_dmma_block_tile(k2p35 * 8, 1, 1, 8, 8, A, k2p35 * 8, B, 1, C, k2p35 * 8, nullptr), 1,
                  "family block_tile");
  expect_rejected(tcgemm_dmma_block_tile(k2p33, k2p33, 1, 32, 32, A, k2p33, B, 1, C, k2p33, nullptr), 11,
                  "ldc=8589934592: matrix C");
  // tcgemm_dmma_shared_a(m, n, k, tile_m, pad_a, A, lda, B, ldb, C, ldc, stream).
  expect_rejected(tcgemm_dmma_shared_a(k2p33, 8, k2p33, 64, 4, A, k2p33, B, k2p33, C, k2p33, nullptr), 7, "lda=");
  // tcgemm_dmma_shared_ab(m, n, k, tile, tile_k, pad_a, pad_b, A, lda, B, ldb, C, ldc, stream).
  expect_rejected(tcgemm_dmma_shared_ab(8, k2p33, k2p33, 64, 32, 4, 4, A, 8, B, k2p33, C, 8, nullptr), 11, "ldb=");
  // tcgemm_dmma_peak(m, n, niter, A, lda, B, ldb, C, ldc, stream).
  expect_rejected(tcgemm_dmma_peak(k2p33, k2p33, 1, A, 8, B, 4, C, k2p33, nullptr), 9, "ldc=");
  expect_rejected(tcgemm_dmma_peak(k2p35 * 4, 1, 1, A, 8, B, 4, C, k2p35 * 4, nullptr), 1, "family peak");
  EXPECT_TRUE(x.c_untouched());
}

// ---- tcgemm_last_error_argument: reference DGEMM's numbering (XERBLA's INFO) ------------------------

// Reference DGEMM checks its arguments in this order and reports the first failure; the same problem with
// several bad arguments must blame the same one.
TEST(ArgumentIndex, NetlibOrderAndNumbering) {
  Buffers x;
  const double* A = x.a.data();
  const double* B = x.b.data();
  double* C = x.c.data();
  struct Case {
    char ta, tb;
    int64_t m, n, k, lda, ldb, ldc;
    int32_t info;
  };
  const Case cases[] = {
      {'/', 'N', 2, 2, 2, 2, 2, 2, 1},   {'N', '/', 2, 2, 2, 2, 2, 2, 2},  {'N', 'N', -1, 2, 2, 2, 2, 2, 3},
      {'N', 'N', 2, -1, 2, 2, 2, 2, 4},  {'N', 'N', 2, 2, -1, 2, 2, 2, 5}, {'N', 'N', 2, 2, 2, 1, 2, 2, 8},
      {'T', 'N', 2, 2, 3, 2, 3, 2, 8},   {'N', 'N', 2, 2, 2, 2, 1, 2, 10}, {'N', 'T', 2, 3, 2, 2, 2, 2, 10},
      {'N', 'N', 2, 2, 2, 2, 2, 1, 13},  {'/', '/', -1, -1, -1, 0, 0, 0, 1}, {'N', 'N', -1, -1, 2, 0, 0, 0, 3},
      {'N', 'N', 2, 2, 2, 1, 1, 1, 8},   {'n', 't', 2, 2, 2, 2, 1, 1, 10},
  };
  tcgemm_config shared_ab{};
  shared_ab.family = TCGEMM_FAMILY_SHARED_AB;
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message() << c.ta << c.tb << " m=" << c.m << " n=" << c.n << " k=" << c.k
                                      << " lda=" << c.lda << " ldb=" << c.ldb << " ldc=" << c.ldc);
    EXPECT_EQ(tcgemm_dgemm(c.ta, c.tb, c.m, c.n, c.k, 1.0, A, c.lda, B, c.ldb, 0.0, C, c.ldc, nullptr),
              TCGEMM_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(tcgemm_last_error_argument(), c.info);
    EXPECT_THAT(last(), HasSubstr("argument " + std::to_string(c.info) + " ("));
    EXPECT_EQ(tcgemm_dgemm_host(c.ta, c.tb, c.m, c.n, c.k, 1.0, A, c.lda, B, c.ldb, 0.0, C, c.ldc),
              TCGEMM_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(tcgemm_last_error_argument(), c.info);
    EXPECT_EQ(tcgemm_dgemm_config(&shared_ab, c.ta, c.tb, c.m, c.n, c.k, 1.0, A, c.lda, B, c.ldb, 0.0, C, c.ldc,
                                  nullptr),
              TCGEMM_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(tcgemm_last_error_argument(), c.info);
  }
  EXPECT_TRUE(x.c_untouched());
}

TEST(ArgumentIndex, NullPointersAndCleanState) {
  Buffers x;
  EXPECT_EQ(tcgemm_dgemm('N', 'N', 2, 2, 2, 1.0, nullptr, 2, x.b.data(), 2, 0.0, x.c.data(), 2, nullptr),
            TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 7);
  EXPECT_EQ(tcgemm_dgemm('N', 'N', 2, 2, 2, 1.0, x.a.data(), 2, nullptr, 2, 0.0, x.c.data(), 2, nullptr),
            TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 9);
  EXPECT_EQ(tcgemm_dgemm('N', 'N', 2, 2, 2, 1.0, x.a.data(), 2, x.b.data(), 2, 0.0, nullptr, 2, nullptr),
            TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 12);
  // A quick return succeeds and clears the record.
  EXPECT_EQ(tcgemm_dgemm('N', 'N', 0, 2, 2, 1.0, nullptr, 1, nullptr, 2, 0.0, nullptr, 1, nullptr), TCGEMM_SUCCESS);
  EXPECT_EQ(tcgemm_last_error_argument(), 0);
  EXPECT_EQ(last(), "");
}

TEST(ArgumentIndex, ConfigurationFieldsAndOtherEntryPoints) {
  Buffers x;
  const double* A = x.a.data();
  const double* B = x.b.data();
  double* C = x.c.data();
  // Fields passed as arguments are blamed by their own position.
  EXPECT_EQ(tcgemm_dmma_shared_ab(64, 64, 64, 64, 30, 4, 4, A, 64, B, 64, C, 64, nullptr),
            TCGEMM_ERROR_INVALID_CONFIG);
  EXPECT_EQ(tcgemm_last_error_argument(), 5) << last();  // tile_k
  EXPECT_EQ(tcgemm_dmma_shared_ab(64, 64, 64, 64, 32, 4, 3, A, 64, B, 64, C, 64, nullptr),
            TCGEMM_ERROR_INVALID_CONFIG);
  EXPECT_EQ(tcgemm_last_error_argument(), 7) << last();  // pad_b
  EXPECT_EQ(tcgemm_dmma_shared_a(64, 64, 64, 48, 4, A, 64, B, 64, C, 64, nullptr), TCGEMM_ERROR_INVALID_CONFIG);
  EXPECT_EQ(tcgemm_last_error_argument(), 4) << last();  // tile_m
  EXPECT_EQ(tcgemm_dmma_block_tile(64, 64, 64, 32, 12, A, 64, B, 64, C, 64, nullptr), TCGEMM_ERROR_INVALID_CONFIG);
  EXPECT_EQ(tcgemm_last_error_argument(), 5) << last();  // tile_n
  EXPECT_EQ(tcgemm_dmma_warp_per_block(8, 8, 4, A, 7, B, 4, C, 8, nullptr), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 5) << last();  // lda
  EXPECT_EQ(tcgemm_dmma_peak(8, 8, 0, A, 8, B, 4, C, 8, nullptr), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 3) << last();  // niter
  // Fields of a configuration structure are blamed on the structure.
  tcgemm_config cfg{};
  cfg.family = TCGEMM_FAMILY_SHARED_AB;
  cfg.tile_k = 30;
  EXPECT_EQ(tcgemm_config_validate(&cfg), TCGEMM_ERROR_INVALID_CONFIG);
  EXPECT_EQ(tcgemm_last_error_argument(), 1);
  EXPECT_EQ(tcgemm_dgemm_config(&cfg, 'N', 'N', 8, 8, 8, 1.0, A, 8, B, 8, 0.0, C, 8, nullptr),
            TCGEMM_ERROR_INVALID_CONFIG);
  EXPECT_EQ(tcgemm_last_error_argument(), TCGEMM_ARG_CONFIG);
  int64_t bytes = 0;
  EXPECT_EQ(tcgemm_config_shared_memory_bytes(&cfg, nullptr), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 2);
  EXPECT_EQ(tcgemm_config_shared_memory_bytes(nullptr, &bytes), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 1);
  EXPECT_EQ(tcgemm_malloc(nullptr, 8), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 1);
  EXPECT_EQ(tcgemm_memcpy_to_host(C, A, -1), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 3);
  EXPECT_TRUE(x.c_untouched());
}

TEST(ArgumentIndex, DeviceErrorsBlameNoArgument) {
  SKIP_WITH_GPU();
  Buffers x;
  EXPECT_EQ(tcgemm_dgemm('N', 'N', 2, 2, 2, 1.0, x.a.data(), 2, x.b.data(), 2, 0.0, x.c.data(), 2, nullptr),
            TCGEMM_ERROR_NO_DEVICE);
  EXPECT_EQ(tcgemm_last_error_argument(), 0) << last();
}

}  // namespace
