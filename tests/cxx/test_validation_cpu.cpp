// Host-side rules: every argument and configuration rule, message contents, quick returns, config math.
// None of these calls reaches the GPU (validation runs first), so they run for real on CPU-only CI; host
// pointers stand in for device pointers and are checked to be untouched.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ostream>

#include <cmath>
#include <string>
#include <vector>

#include "tcgemm/tcgemm.h"

namespace {

using ::testing::HasSubstr;

std::string last() { return tcgemm_last_error(); }

// A small problem whose arguments are all valid (m = 4, n = 3, k = 2); tests break one at a time.
struct Blas {
  char ta = 'N', tb = 'N';
  int64_t m = 4, n = 3, k = 2;
  double alpha = 1.0;
  std::vector<double> a = std::vector<double>(64, 1.0), b = std::vector<double>(64, 2.0),
                      c = std::vector<double>(64, 7.0);
  const double* A = a.data();
  const double* B = b.data();
  double* C = c.data();
  int64_t lda = 4, ldb = 2, ldc = 4;
  double beta = 0.0;
  tcgemm_status run() { return tcgemm_dgemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, nullptr); }
  tcgemm_status run_config(const tcgemm_config* cfg) {
    return tcgemm_dgemm_config(cfg, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, nullptr);
  }
  bool c_untouched() const {
    for (double v : c)
      if (v != 7.0) return false;
    return true;
  }
};

void expect_invalid(Blas& p, const std::string& message) {
  EXPECT_EQ(p.run(), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last(), message);
  EXPECT_TRUE(p.c_untouched());
}

TEST(DgemmArguments, TransFlags) {
  Blas p;
  p.ta = 'X';
  expect_invalid(p, "argument 1 (transa) must be 'N', 'T' or 'C', got 'X' (88)");
  p.ta = 'n';
  p.tb = 'q';
  expect_invalid(p, "argument 2 (transb) must be 'N', 'T' or 'C', got 'q' (113)");
}

TEST(DgemmArguments, NegativeSizes) {
  Blas p;
  p.m = -1;
  expect_invalid(p, "argument 3 (m) must be >= 0, got -1");
  p = Blas();
  p.n = -5;
  expect_invalid(p, "argument 4 (n) must be >= 0, got -5");
  p = Blas();
  p.k = -2;
  expect_invalid(p, "argument 5 (k) must be >= 0, got -2");
}

TEST(DgemmArguments, LeadingDimensions) {
  Blas p;
  p.lda = 3;
  expect_invalid(p, "argument 8 (lda) must be >= max(1, m) = 4, got 3");
  p = Blas();
  p.ta = 'T';  // A stored k x m: lda >= k
  p.lda = 1;
  expect_invalid(p, "argument 8 (lda) must be >= max(1, k) = 2, got 1");
  p = Blas();
  p.ldb = 1;
  expect_invalid(p, "argument 10 (ldb) must be >= max(1, k) = 2, got 1");
  p = Blas();
  p.tb = 'C';  // B stored n x k: ldb >= n
  p.ldb = 2;
  expect_invalid(p, "argument 10 (ldb) must be >= max(1, n) = 3, got 2");
  p = Blas();
  p.ldc = 2;
  expect_invalid(p, "argument 13 (ldc) must be >= max(1, m) = 4, got 2");
  p = Blas();
  p.m = 0;
  p.ldc = 0;  // even an empty matrix needs ld >= 1
  expect_invalid(p, "argument 13 (ldc) must be >= max(1, m) = 1, got 0");
}

TEST(DgemmArguments, NullPointers) {
  Blas p;
  p.A = nullptr;
  expect_invalid(p, "argument 7 (A) is NULL but m, n, k > 0 and alpha != 0");
  p = Blas();
  p.B = nullptr;
  expect_invalid(p, "argument 9 (B) is NULL but m, n, k > 0 and alpha != 0");
  p = Blas();
  p.C = nullptr;
  expect_invalid(p, "argument 12 (C) is NULL but m, n > 0");
}

TEST(DgemmArguments, ConfigVariantKeepsBlasPositions) {
  // tcgemm_dgemm_config numbers the DGEMM arguments as reference DGEMM does (lda is 8), in the message and in
  // tcgemm_last_error_argument(); the configuration itself is TCGEMM_ARG_CONFIG.
  Blas p;
  tcgemm_config cfg{};
  cfg.family = TCGEMM_FAMILY_SHARED_AB;
  p.lda = 1;
  EXPECT_EQ(p.run_config(&cfg), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last(), "argument 8 (lda) must be >= max(1, m) = 4, got 1");
  EXPECT_EQ(tcgemm_last_error_argument(), 8);
  EXPECT_EQ(p.run_config(nullptr), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last(), "argument config (TCGEMM_ARG_CONFIG) is NULL");
  EXPECT_EQ(tcgemm_last_error_argument(), TCGEMM_ARG_CONFIG);
  p = Blas();
  cfg.family = TCGEMM_FAMILY_BLOCK_TILE;
  EXPECT_EQ(p.run_config(&cfg), TCGEMM_ERROR_INVALID_CONFIG);
  EXPECT_THAT(last(), HasSubstr("family=4 (block_tile): tcgemm_dgemm_config runs the BLAS-semantics families"));
  EXPECT_EQ(tcgemm_last_error_argument(), TCGEMM_ARG_CONFIG);
  EXPECT_TRUE(p.c_untouched());
}

TEST(DgemmArguments, BadConfigRejectedBeforeDevice) {
  Blas p;
  tcgemm_config cfg{};
  cfg.family = TCGEMM_FAMILY_SHARED_AB;
  cfg.pad_a = 3;
  EXPECT_EQ(p.run_config(&cfg), TCGEMM_ERROR_INVALID_CONFIG);
  EXPECT_EQ(last(), "pad_a=3: shared-memory padding must be a multiple of 2 doubles (16 bytes) (family shared_ab)");
  EXPECT_TRUE(p.c_untouched());
}

// Quick returns never need a device and never touch C, whatever the pointers are.
TEST(DgemmQuickReturn, EmptyOrIdentityUpdates) {
  Blas p;
  p.m = 0;
  p.A = p.B = nullptr;
  p.C = nullptr;
  p.ldc = 1;
  EXPECT_EQ(p.run(), TCGEMM_SUCCESS);
  EXPECT_EQ(last(), "");
  p = Blas();
  p.n = 0;
  p.A = p.B = nullptr;
  EXPECT_EQ(p.run(), TCGEMM_SUCCESS);
  p = Blas();
  p.alpha = 0.0;
  p.beta = 1.0;
  p.A = p.B = nullptr;  // alpha == 0: A and B are not read
  EXPECT_EQ(p.run(), TCGEMM_SUCCESS);
  p = Blas();
  p.k = 0;
  p.beta = 1.0;
  EXPECT_EQ(p.run(), TCGEMM_SUCCESS);
  EXPECT_TRUE(p.c_untouched());
}

TEST(DgemmQuickReturn, LastErrorClearedBySuccess) {
  Blas p;
  p.m = -1;
  EXPECT_EQ(p.run(), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last(), "");
  p = Blas();
  p.m = 0;
  EXPECT_EQ(p.run(), TCGEMM_SUCCESS);
  EXPECT_EQ(last(), "");
}

TEST(ExampleEntryPoints, NamedMessages) {
  std::vector<double> a(64), b(64), c(64, 7.0);
  EXPECT_EQ(tcgemm_dmma_single(a.data(), 7, b.data(), 4, c.data(), 8, nullptr), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last(), "lda=7: must be >= max(1, m) = 8");
  EXPECT_EQ(tcgemm_dmma_single(a.data(), 8, b.data(), 3, c.data(), 8, nullptr), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last(), "ldb=3: must be >= max(1, k) = 4");
  EXPECT_EQ(tcgemm_dmma_row(-4, a.data(), 8, b.data(), 4, c.data(), 8, nullptr), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last(), "k=-4: must be >= 0");
  EXPECT_EQ(tcgemm_dmma_warp_per_block(9, 9, 9, nullptr, 9, b.data(), 9, c.data(), 9, nullptr),
            TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last(), "A is NULL but m, n, k > 0 and alpha != 0");
  EXPECT_EQ(tcgemm_dmma_block_tile(16, 16, 4, 12, 16, a.data(), 16, b.data(), 4, c.data(), 16, nullptr),
            TCGEMM_ERROR_INVALID_CONFIG);
  EXPECT_EQ(last(), "tile_m=12: must be a multiple of 8 between 8 and 128 (one warp per 8x8 C tile) (family block_tile)");
  EXPECT_EQ(tcgemm_dmma_shared_a(64, 64, 8, 48, 2, a.data(), 64, b.data(), 8, c.data(), 64, nullptr),
            TCGEMM_ERROR_INVALID_CONFIG);
  EXPECT_EQ(last(), "tile_m=48: must be one of 32, 64, 96, 128 (family shared_a)");
  EXPECT_EQ(tcgemm_dmma_shared_ab(64, 64, 8, 64, 30, 4, 4, a.data(), 64, b.data(), 8, c.data(), 64, nullptr),
            TCGEMM_ERROR_INVALID_CONFIG);
  EXPECT_EQ(last(), "tile_k=30: must be a multiple of 4 between 4 and 256 (family shared_ab)");
  for (double v : c) EXPECT_EQ(v, 7.0);
}

TEST(ExampleEntryPoints, QuickReturnWithoutDevice) {
  EXPECT_EQ(tcgemm_dmma_warp_per_block(0, 5, 5, nullptr, 1, nullptr, 5, nullptr, 1, nullptr), TCGEMM_SUCCESS);
  EXPECT_EQ(tcgemm_dmma_shared_ab(5, 0, 5, 64, 32, 4, 4, nullptr, 5, nullptr, 5, nullptr, 5, nullptr), TCGEMM_SUCCESS);
  EXPECT_EQ(tcgemm_dmma_peak(0, 0, 3, nullptr, 8, nullptr, 4, nullptr, 1, nullptr), TCGEMM_SUCCESS);
}

TEST(PeakArguments, Rules) {
  std::vector<double> a(64), b(64), c(64, 7.0);
  EXPECT_EQ(tcgemm_dmma_peak(8, 8, 0, a.data(), 8, b.data(), 4, c.data(), 8, nullptr), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last(), "niter=0: must be >= 1 (number of mma_sync per load)");
  EXPECT_EQ(tcgemm_dmma_peak(8, 8, 1, a.data(), 4, b.data(), 4, c.data(), 8, nullptr), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last(), "lda=4: must be >= max(1, 8) = 8");
  EXPECT_EQ(tcgemm_dmma_peak(8, 8, 1, a.data(), 8, b.data(), 2, c.data(), 8, nullptr), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last(), "ldb=2: must be >= max(1, 4) = 4");
  EXPECT_EQ(tcgemm_dmma_peak(8, 8, 1, a.data(), 8, b.data(), 4, c.data(), 7, nullptr), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last(), "ldc=7: must be >= max(1, m) = 8");
  EXPECT_EQ(tcgemm_dmma_peak(-8, 8, 1, a.data(), 8, b.data(), 4, c.data(), 8, nullptr), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last(), "m=-8: must be >= 0");
  EXPECT_EQ(tcgemm_dmma_peak(8, 8, 1, a.data(), 8, nullptr, 4, c.data(), 8, nullptr), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last(), "B is NULL but m, n > 0");
  EXPECT_EQ(tcgemm_dmma_peak(8, -1, 1, a.data(), 8, b.data(), 4, c.data(), 8, nullptr), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last(), "n=-1: must be >= 0");
  EXPECT_EQ(tcgemm_dmma_peak(8, 8, 1, nullptr, 8, b.data(), 4, c.data(), 8, nullptr), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last(), "A is NULL but m, n > 0");
  EXPECT_EQ(tcgemm_dmma_peak(8, 8, 1, a.data(), 8, b.data(), 4, nullptr, 8, nullptr), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last(), "C is NULL but m, n > 0");
  for (double v : c) EXPECT_EQ(v, 7.0);
}

// ---- configuration rules ------------------------------------------------------------------------

struct ConfigCase {
  const char* name;
  tcgemm_config config;
  tcgemm_status status;
  const char* message;
};

tcgemm_config cfg(int32_t family, int32_t tm = 0, int32_t tn = 0, int32_t tk = 0, int32_t pa = 0, int32_t pb = 0,
                  int32_t stages = 0, int32_t k_splits = 0) {
  return tcgemm_config{family, tm, tn, tk, pa, pb, stages, k_splits};
}

class ConfigRules : public ::testing::TestWithParam<ConfigCase> {};

TEST_P(ConfigRules, StatusAndMessage) {
  const ConfigCase& c = GetParam();
  EXPECT_EQ(tcgemm_config_validate(&c.config), c.status);
  EXPECT_EQ(last(), c.message);
}

const ConfigCase kConfigCases[] = {
    {"k_splits_no_split_family", cfg(TCGEMM_FAMILY_SHARED_AB, 0, 0, 0, 0, 0, 0, 2), TCGEMM_ERROR_INVALID_CONFIG,
     "k_splits=2: family shared_ab has no split-K; must be 0 or 1 (families with split-K: sm90_mma, skinny)"},
    {"k_splits_negative", cfg(TCGEMM_FAMILY_SM90_MMA, 0, 0, 0, 0, 0, 0, -1), TCGEMM_ERROR_INVALID_CONFIG,
     "k_splits=-1: must be 0 (no split) to 65535 (slices of k on the second grid dimension)"},
    {"k_splits_too_many", cfg(TCGEMM_FAMILY_SM90_MMA, 0, 0, 0, 0, 0, 0, 65536), TCGEMM_ERROR_INVALID_CONFIG,
     "k_splits=65536: must be 0 (no split) to 65535 (slices of k on the second grid dimension)"},
    {"unknown_family", cfg(42), TCGEMM_ERROR_INVALID_CONFIG,
     "family=42: unknown kernel family (valid: 0 to 9, see tcgemm_family)"},
    {"auto_with_fields", cfg(TCGEMM_FAMILY_AUTO, 64), TCGEMM_ERROR_INVALID_CONFIG,
     "family=auto: tiles, paddings, stages and k_splits are chosen per device and problem and must be 0; name a "
     "family to set them (tcgemm_dgemm_plan shows the choice)"},
    {"auto_with_k_splits", cfg(TCGEMM_FAMILY_AUTO, 0, 0, 0, 0, 0, 0, 4), TCGEMM_ERROR_INVALID_CONFIG,
     "family=auto: tiles, paddings, stages and k_splits are chosen per device and problem and must be 0; name a "
     "family to set them (tcgemm_dgemm_plan shows the choice)"},
    {"skinny_with_tile", cfg(TCGEMM_FAMILY_SKINNY, 64), TCGEMM_ERROR_INVALID_CONFIG,
     "tile_m=64: the skinny family has no tile, padding or stage choice; must be 0 (family skinny)"},
    {"auto_ok", cfg(TCGEMM_FAMILY_AUTO), TCGEMM_SUCCESS, ""},
    {"single_tile", cfg(TCGEMM_FAMILY_SINGLE, 16), TCGEMM_ERROR_INVALID_CONFIG,
     "tile_m=16: this family's C tile is 8 x 8 (family single)"},
    {"row_tile_n", cfg(TCGEMM_FAMILY_ROW, 8, 16), TCGEMM_ERROR_INVALID_CONFIG,
     "tile_n=16: this family's C tile is 8 x 8 (family row)"},
    {"wpb_pad", cfg(TCGEMM_FAMILY_WARP_PER_BLOCK, 0, 0, 0, 2), TCGEMM_ERROR_INVALID_CONFIG,
     "pad_a=2: this family uses no shared memory; must be 0 (family warp_per_block)"},
    {"single_tile_k", cfg(TCGEMM_FAMILY_SINGLE, 0, 0, 4), TCGEMM_ERROR_INVALID_CONFIG,
     "tile_k=4: this family has no shared-memory k tile; must be 0 (family single)"},
    {"single_stages", cfg(TCGEMM_FAMILY_SINGLE, 0, 0, 0, 0, 0, 2), TCGEMM_ERROR_INVALID_CONFIG,
     "stages=2: this family has no pipeline; must be 0 (family single)"},
    {"single_pad_b", cfg(TCGEMM_FAMILY_SINGLE, 0, 0, 0, 0, 4), TCGEMM_ERROR_INVALID_CONFIG,
     "pad_b=4: this family uses no shared memory; must be 0 (family single)"},
    {"block_tile_not_mult8", cfg(TCGEMM_FAMILY_BLOCK_TILE, 20), TCGEMM_ERROR_INVALID_CONFIG,
     "tile_m=20: must be a multiple of 8 between 8 and 128 (one warp per 8x8 C tile) (family block_tile)"},
    {"block_tile_too_big", cfg(TCGEMM_FAMILY_BLOCK_TILE, 32, 136), TCGEMM_ERROR_INVALID_CONFIG,
     "tile_n=136: must be a multiple of 8 between 8 and 128 (one warp per 8x8 C tile) (family block_tile)"},
    {"block_tile_warps", cfg(TCGEMM_FAMILY_BLOCK_TILE, 64, 64), TCGEMM_ERROR_INVALID_CONFIG,
     "tile_m=64, tile_n=64: (tile_m/8)*(tile_n/8) = 64 warps exceeds 32 warps (1024 threads) per block (family "
     "block_tile)"},
    {"block_tile_ok", cfg(TCGEMM_FAMILY_BLOCK_TILE, 128, 16), TCGEMM_SUCCESS, ""},
    {"block_tile_tile_k", cfg(TCGEMM_FAMILY_BLOCK_TILE, 32, 32, 8), TCGEMM_ERROR_INVALID_CONFIG,
     "tile_k=8: this family has no shared-memory k tile; must be 0 (family block_tile)"},
    {"block_tile_pad_a", cfg(TCGEMM_FAMILY_BLOCK_TILE, 32, 32, 0, 2), TCGEMM_ERROR_INVALID_CONFIG,
     "pad_a=2: this family uses no shared memory; must be 0 (family block_tile)"},
    {"block_tile_pad_b", cfg(TCGEMM_FAMILY_BLOCK_TILE, 32, 32, 0, 0, 2), TCGEMM_ERROR_INVALID_CONFIG,
     "pad_b=2: this family uses no shared memory; must be 0 (family block_tile)"},
    {"block_tile_stages", cfg(TCGEMM_FAMILY_BLOCK_TILE, 32, 32, 0, 0, 0, 1), TCGEMM_ERROR_INVALID_CONFIG,
     "stages=1: this family has no pipeline; must be 0 (family block_tile)"},
    {"peak_tile", cfg(TCGEMM_FAMILY_PEAK, 64), TCGEMM_ERROR_INVALID_CONFIG,
     "tile_m=64: the peak block tile is 32 x 16 (family peak)"},
    {"peak_tile_n", cfg(TCGEMM_FAMILY_PEAK, 32, 32), TCGEMM_ERROR_INVALID_CONFIG,
     "tile_n=32: the peak block tile is 32 x 16 (family peak)"},
    {"peak_tile_k", cfg(TCGEMM_FAMILY_PEAK, 0, 0, 4), TCGEMM_ERROR_INVALID_CONFIG, "tile_k=4: must be 0 (family peak)"},
    {"peak_pad_a", cfg(TCGEMM_FAMILY_PEAK, 0, 0, 0, 2), TCGEMM_ERROR_INVALID_CONFIG, "pad_a=2: must be 0 (family peak)"},
    {"peak_pad_b", cfg(TCGEMM_FAMILY_PEAK, 0, 0, 0, 0, 2), TCGEMM_ERROR_INVALID_CONFIG, "pad_b=2: must be 0 (family peak)"},
    {"peak_stages", cfg(TCGEMM_FAMILY_PEAK, 0, 0, 0, 0, 0, 1), TCGEMM_ERROR_INVALID_CONFIG,
     "stages=1: must be 0 (family peak)"},
    {"peak_ok", cfg(TCGEMM_FAMILY_PEAK, 32, 16), TCGEMM_SUCCESS, ""},
    {"shared_a_tile", cfg(TCGEMM_FAMILY_SHARED_A, 48), TCGEMM_ERROR_INVALID_CONFIG,
     "tile_m=48: must be one of 32, 64, 96, 128 (family shared_a)"},
    {"shared_a_tile_n", cfg(TCGEMM_FAMILY_SHARED_A, 64, 32), TCGEMM_ERROR_INVALID_CONFIG,
     "tile_n=32: must equal tile_m=64 (family shared_a uses square C tiles)"},
    {"shared_a_tile_k", cfg(TCGEMM_FAMILY_SHARED_A, 64, 64, 8), TCGEMM_ERROR_INVALID_CONFIG,
     "tile_k=8: the shared A tile is tile_m x 4; must be 0 or 4 (family shared_a)"},
    {"shared_a_pad_odd", cfg(TCGEMM_FAMILY_SHARED_A, 32, 0, 0, 3), TCGEMM_ERROR_INVALID_CONFIG,
     "pad_a=3: shared-memory padding must be a multiple of 2 doubles (16 bytes) (family shared_a)"},
    {"shared_a_pad_negative", cfg(TCGEMM_FAMILY_SHARED_A, 32, 0, 0, -2), TCGEMM_ERROR_INVALID_CONFIG,
     "pad_a=-2: shared-memory padding must be >= 0 (family shared_a)"},
    {"shared_a_pad_huge", cfg(TCGEMM_FAMILY_SHARED_A, 32, 0, 0, 66), TCGEMM_ERROR_INVALID_CONFIG,
     "pad_a=66: shared-memory padding must be <= 64 doubles (family shared_a)"},
    {"shared_a_pad_b", cfg(TCGEMM_FAMILY_SHARED_A, 32, 0, 0, 2, 2), TCGEMM_ERROR_INVALID_CONFIG,
     "pad_b=2: this family keeps no B tile in shared memory; must be 0 (family shared_a)"},
    {"shared_a_stages", cfg(TCGEMM_FAMILY_SHARED_A, 32, 0, 0, 2, 0, 2), TCGEMM_ERROR_INVALID_CONFIG,
     "stages=2: this family is single-stage; must be 0 or 1 (family shared_a)"},
    {"shared_a_ok", cfg(TCGEMM_FAMILY_SHARED_A, 128, 128, 4, 6, 0, 1), TCGEMM_SUCCESS, ""},
    {"shared_ab_tile_k_small", cfg(TCGEMM_FAMILY_SHARED_AB, 64, 64, -4), TCGEMM_ERROR_INVALID_CONFIG,
     "tile_k=-4: must be a multiple of 4 between 4 and 256 (family shared_ab)"},
    {"shared_ab_tile_k_big", cfg(TCGEMM_FAMILY_SHARED_AB, 64, 64, 260), TCGEMM_ERROR_INVALID_CONFIG,
     "tile_k=260: must be a multiple of 4 between 4 and 256 (family shared_ab)"},
    {"shared_ab_pad_b_odd", cfg(TCGEMM_FAMILY_SHARED_AB, 64, 64, 32, 4, 5), TCGEMM_ERROR_INVALID_CONFIG,
     "pad_b=5: shared-memory padding must be a multiple of 2 doubles (16 bytes) (family shared_ab)"},
    {"shared_ab_stages", cfg(TCGEMM_FAMILY_SHARED_AB, 64, 64, 32, 4, 4, 7), TCGEMM_ERROR_INVALID_CONFIG,
     "stages=7: must be 1 (load, sync, compute) to 6 (a ring of cp.async buffers); shared memory must also hold "
     "stages copies of the A and B k-tiles (family shared_ab)"},
    {"shared_ab_stages_ok", cfg(TCGEMM_FAMILY_SHARED_AB, 64, 64, 32, 4, 4, 3), TCGEMM_SUCCESS, ""},
    {"shared_ab_ok", cfg(TCGEMM_FAMILY_SHARED_AB, 96, 96, 96, 6, 2, 1), TCGEMM_SUCCESS, ""},
    {"sm90_pad", cfg(TCGEMM_FAMILY_SM90_MMA, 0, 0, 0, 2), TCGEMM_ERROR_INVALID_CONFIG,
     "pad_a=2: the sm90 shared-memory layout is fixed at compile time; must be 0 (family sm90_mma)"},
    {"sm90_pad_b", cfg(TCGEMM_FAMILY_SM90_MMA, 0, 0, 0, 0, 4), TCGEMM_ERROR_INVALID_CONFIG,
     "pad_b=4: the sm90 shared-memory layout is fixed at compile time; must be 0 (family sm90_mma)"},
};

void PrintTo(const ConfigCase& c, std::ostream* os) { *os << c.name; }

INSTANTIATE_TEST_SUITE_P(All, ConfigRules, ::testing::ValuesIn(kConfigCases),
                         [](const ::testing::TestParamInfo<ConfigCase>& i) { return std::string(i.param.name); });

TEST(ConfigRulesSm90, ShapeTableAndStages) {
  tcgemm_config d{};
  ASSERT_EQ(tcgemm_default_config(TCGEMM_FAMILY_SM90_MMA, &d), TCGEMM_SUCCESS);
  EXPECT_GT(d.tile_m, 0);
  EXPECT_GT(d.stages, 0);
  tcgemm_config bad = d;
  bad.tile_k += 4;
  EXPECT_EQ(tcgemm_config_validate(&bad), TCGEMM_ERROR_INVALID_CONFIG);
  EXPECT_THAT(last(), HasSubstr("family sm90_mma supports the block tiles"));
  bad = d;
  bad.stages = 99;
  EXPECT_EQ(tcgemm_config_validate(&bad), TCGEMM_ERROR_INVALID_CONFIG);
  EXPECT_THAT(last(), HasSubstr("stages=99: family sm90_mma tile"));
  bad = d;
  bad.stages = 1;
  EXPECT_EQ(tcgemm_config_validate(&bad), TCGEMM_ERROR_INVALID_CONFIG);
}

TEST(ConfigMath, SharedMemoryAndThreads) {
  int64_t bytes = 0;
  int32_t threads = 0;
  tcgemm_config ab = cfg(TCGEMM_FAMILY_SHARED_AB, 64, 64, 32, 4, 4, 2);
  ASSERT_EQ(tcgemm_config_shared_memory_bytes(&ab, &bytes), TCGEMM_SUCCESS);
  EXPECT_EQ(bytes, 2 * 8 * ((64 + 4) * 32 + (32 + 4) * 64));  // two stages of A (68x32) and B (36x64)
  ASSERT_EQ(tcgemm_config_threads_per_block(&ab, &threads), TCGEMM_SUCCESS);
  EXPECT_EQ(threads, 64 / 8 * 32);  // one warp per 8-row block row
  for (const int tile : {32, 96, 128}) {  // a ring of 3 buffers: three times one stage
    tcgemm_config t = cfg(TCGEMM_FAMILY_SHARED_AB, tile, 0, 16, 4, 4, 3);
    ASSERT_EQ(tcgemm_config_threads_per_block(&t, &threads), TCGEMM_SUCCESS);
    EXPECT_EQ(threads, tile / 8 * 32) << "tile " << tile;
    ASSERT_EQ(tcgemm_config_shared_memory_bytes(&t, &bytes), TCGEMM_SUCCESS);
    EXPECT_EQ(bytes, 3 * 8 * ((tile + 4) * 16 + (16 + 4) * tile)) << "tile " << tile;
  }
  tcgemm_config ab1 = cfg(TCGEMM_FAMILY_SHARED_AB, 128, 0, 128, 4, 4, 1);
  ASSERT_EQ(tcgemm_config_shared_memory_bytes(&ab1, &bytes), TCGEMM_SUCCESS);
  EXPECT_EQ(bytes, 8 * (132 * 128 + 132 * 128));  // the article's 128/128 case: 270 KB, over an H100's 227 KB
  tcgemm_config a = cfg(TCGEMM_FAMILY_SHARED_A, 32, 0, 0, 2);
  ASSERT_EQ(tcgemm_config_shared_memory_bytes(&a, &bytes), TCGEMM_SUCCESS);
  EXPECT_EQ(bytes, 8 * (32 + 2) * 4);
  ASSERT_EQ(tcgemm_config_threads_per_block(&a, &threads), TCGEMM_SUCCESS);
  EXPECT_EQ(threads, 128);  // the article's 128x1x1 block for tile_m = 32
  tcgemm_config bt = cfg(TCGEMM_FAMILY_BLOCK_TILE, 16, 32);
  ASSERT_EQ(tcgemm_config_threads_per_block(&bt, &threads), TCGEMM_SUCCESS);
  EXPECT_EQ(threads, 2 * 4 * 32);
  ASSERT_EQ(tcgemm_config_shared_memory_bytes(&bt, &bytes), TCGEMM_SUCCESS);
  EXPECT_EQ(bytes, 8 * 512);  // one 8x8-double staging tile per warp
  tcgemm_config broken = cfg(TCGEMM_FAMILY_SHARED_AB, 64, 0, 32, 1);
  EXPECT_EQ(tcgemm_config_shared_memory_bytes(&broken, &bytes), TCGEMM_ERROR_INVALID_CONFIG);
  EXPECT_EQ(tcgemm_config_threads_per_block(nullptr, &threads), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last(), "config is NULL");
}

TEST(ConfigMath, Defaults) {
  tcgemm_config d{};
  ASSERT_EQ(tcgemm_default_config(TCGEMM_FAMILY_SHARED_AB, &d), TCGEMM_SUCCESS);
  EXPECT_EQ(d.family, TCGEMM_FAMILY_SHARED_AB);
  EXPECT_EQ(d.tile_m, d.tile_n);
  EXPECT_GT(d.tile_k, 0);
  EXPECT_EQ(d.pad_a % 2, 0);
  EXPECT_GE(d.stages, 1);
  EXPECT_EQ(tcgemm_config_validate(&d), TCGEMM_SUCCESS);
  ASSERT_EQ(tcgemm_default_config(TCGEMM_FAMILY_BLOCK_TILE, &d), TCGEMM_SUCCESS);
  EXPECT_EQ(d.tile_m, 32);
  EXPECT_EQ(d.tile_n, 32);
  EXPECT_EQ(tcgemm_default_config(77, &d), TCGEMM_ERROR_INVALID_CONFIG);
  EXPECT_EQ(tcgemm_default_config(TCGEMM_FAMILY_SHARED_A, nullptr), TCGEMM_ERROR_INVALID_ARGUMENT);
}

// ---- host-array DGEMM and memory helpers --------------------------------------------------------

TEST(HostDgemm, ValidatesLikeDgemm) {
  std::vector<double> a(16, 1.0), b(16, 1.0), c(16, 7.0);
  EXPECT_EQ(tcgemm_dgemm_host('N', 'N', 4, 2, 2, 1.0, a.data(), 3, b.data(), 2, 0.0, c.data(), 4),
            TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last(), "argument 8 (lda) must be >= max(1, m) = 4, got 3");
  EXPECT_EQ(tcgemm_dgemm_host('N', 'N', 4, 2, 2, 0.0, nullptr, 4, nullptr, 2, 1.0, c.data(), 4), TCGEMM_SUCCESS);
  for (double v : c) EXPECT_EQ(v, 7.0);
}

TEST(MemoryHelpers, Rules) {
  void* p = reinterpret_cast<void*>(0x1);
  EXPECT_EQ(tcgemm_malloc(nullptr, 8), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last(), "device_ptr is NULL");
  EXPECT_EQ(tcgemm_malloc(&p, -8), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last(), "bytes=-8: must be >= 0");
  EXPECT_EQ(tcgemm_malloc(&p, 0), TCGEMM_SUCCESS);
  EXPECT_EQ(p, nullptr);
  EXPECT_EQ(tcgemm_free(nullptr), TCGEMM_SUCCESS);
  double x = 0;
  EXPECT_EQ(tcgemm_memcpy_to_device(nullptr, &x, 8), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last(), "destination is NULL but bytes > 0");
  EXPECT_EQ(tcgemm_memcpy_to_host(&x, nullptr, 8), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last(), "source is NULL but bytes > 0");
}

}  // namespace
