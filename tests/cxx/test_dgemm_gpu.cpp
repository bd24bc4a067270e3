// GPU tests of the BLAS-semantics DGEMM: tcgemm_dgemm (whatever family it dispatches to on this device) and
// tcgemm_dgemm_config with the shared_a / shared_ab families. Reference: cuBLAS DGEMM on the same fresh random
// data, C NaN-poisoned when beta == 0, guard sentinels around C (gpu_test_util.hpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "gpu_test_util.hpp"
#include "tcgemm/tcgemm.h"

namespace {

using tcgemm::test::GemmCall;
using tcgemm::test::GemmSpec;
using tcgemm::test::dgemm_config_call;
using tcgemm::test::run_and_check;
using tcgemm::test::spec;

const char kTransChars[] = {'N', 'n', 'T', 't', 'C', 'c'};
const double kAlphas[] = {1.0, -0.5, 0.0};
const double kBetas[] = {0.0, 1.0, 0.75};
const int64_t kSizes[] = {1, 7, 33, 100, 257};

const GemmCall call_dgemm = tcgemm::test::dgemm_auto_call();

// The configurations tcgemm_dgemm_config is exercised with: both shared families, defaults and non-defaults.
std::vector<tcgemm_config> shared_configs() {
  std::vector<tcgemm_config> out;
  tcgemm_config a{};
  a.family = TCGEMM_FAMILY_SHARED_A;  // defaults (tile 64, families/ex5_shared_a/rules.hpp), pad 0
  out.push_back(a);
  a.tile_m = 32;
  a.pad_a = 4;
  out.push_back(a);
  tcgemm_config ab{};
  ab.family = TCGEMM_FAMILY_SHARED_AB;  // defaults, pads 0
  out.push_back(ab);
  ab.tile_m = 64;
  ab.tile_k = 32;
  ab.pad_a = ab.pad_b = 4;
  ab.stages = 2;
  out.push_back(ab);
  ab.tile_m = 32;
  ab.tile_k = 16;
  ab.pad_a = 2;
  ab.pad_b = 6;
  ab.stages = 1;
  out.push_back(ab);
  return out;
}

std::string describe(const tcgemm_config& c) {
  std::ostringstream o;
  o << "family " << c.family << " tile " << c.tile_m << " tile_k " << c.tile_k << " pads " << c.pad_a << "/" << c.pad_b
    << " stages " << c.stages;
  return o.str();
}

// ---- tcgemm_dgemm ---------------------------------------------------------------------------------------------
// Every pair of trans characters BLAS accepts (C means transpose for real data; case does not matter).
TEST(Dgemm, EveryTransCombination) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 1;
  for (char ta : kTransChars)
    for (char tb : kTransChars) {
      GemmSpec s = spec(33, 7, 100, ++seed);
      s.transa = ta;
      s.transb = tb;
      s.alpha = -0.5;
      s.beta = 0.75;
      EXPECT_TRUE(run_and_check(s, call_dgemm));
    }
}

// alpha in {1, -0.5, 0} x beta in {0, 1, 0.75}; beta == 0 with NaN in C must give a NaN-free result, and
// alpha == 0 must not read A or B (both are NaN outside their matrices in the harness).
TEST(Dgemm, AlphaBetaCombinations) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 100;
  for (double alpha : kAlphas)
    for (double beta : kBetas)
      for (const char* t : {"NN", "TC"}) {
        GemmSpec s = spec(100, 33, 257, ++seed);
        s.transa = t[0];
        s.transb = t[1];
        s.alpha = alpha;
        s.beta = beta;
        EXPECT_TRUE(run_and_check(s, call_dgemm));
      }
}

// k = 0: C <- beta C (BLAS), including beta == 0 over a NaN-poisoned C and the beta == 1 quick return.
TEST(Dgemm, KZero) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 200;
  for (double beta : kBetas) {
    GemmSpec s = spec(37, 12, 0, ++seed);
    s.beta = beta;
    EXPECT_TRUE(run_and_check(s, call_dgemm));
  }
}

// Every combination of the sizes 1, 7, 33, 100, 257 for m, n and k.
TEST(Dgemm, SizeGrid) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 300;
  for (int64_t m : kSizes)
    for (int64_t n : kSizes)
      for (int64_t k : kSizes) EXPECT_TRUE(run_and_check(spec(m, n, k, ++seed), call_dgemm));
}

// Leading dimensions larger than the rows (odd and even extras) and base pointers off the 16/32-byte grid.
TEST(Dgemm, LeadingDimensionsAndMisalignedPointers) {
  TCGEMM_REQUIRE_GPU();
  struct Layout {
    int64_t lda_pad, ldb_pad, ldc_pad, a_off, b_off, c_off;
  };
  const Layout layouts[] = {{3, 5, 8, 0, 0, 0}, {0, 0, 0, 1, 3, 1}, {2, 1, 7, 2, 1, 3}, {64, 32, 9, 5, 0, 2}};
  uint64_t seed = 400;
  for (const Layout& l : layouts)
    for (const char* t : {"NN", "NT", "TN", "TT"}) {
      GemmSpec s = spec(100, 57, 33, ++seed);
      s.transa = t[0];
      s.transb = t[1];
      s.alpha = 1.0;
      s.beta = 0.75;
      s.lda_pad = l.lda_pad;
      s.ldb_pad = l.ldb_pad;
      s.ldc_pad = l.ldc_pad;
      s.a_offset = l.a_off;
      s.b_offset = l.b_off;
      s.c_offset = l.c_off;
      EXPECT_TRUE(run_and_check(s, call_dgemm));
    }
}

TEST(Dgemm, NonDefaultStream) {
  TCGEMM_REQUIRE_GPU();
  cudaStream_t stream = nullptr;
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  GemmSpec s = spec(257, 100, 33, 500);
  s.transa = 'T';
  s.beta = 0.75;
  EXPECT_TRUE(run_and_check(s, call_dgemm, stream));
  GemmSpec z = spec(20, 30, 0, 501);  // the k = 0 scaling kernel goes to the caller's stream as well
  z.beta = 0.75;
  EXPECT_TRUE(run_and_check(z, call_dgemm, stream));
  CUDA_OK(cudaStreamDestroy(stream));
}

// ---- tcgemm_dgemm_config with the shared-memory families -------------------------------------------------------
TEST(DgemmConfig, SharedFamiliesTransAlphaBeta) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 600;
  for (const tcgemm_config& cfg : shared_configs())
    for (const char* t : {"NN", "nt", "Tn", "CC"})
      for (double alpha : kAlphas)
        for (double beta : kBetas) {
          GemmSpec s = spec(45, 70, 33, ++seed);
          s.transa = t[0];
          s.transb = t[1];
          s.alpha = alpha;
          s.beta = beta;
          EXPECT_TRUE(run_and_check(s, dgemm_config_call(cfg))) << describe(cfg);
        }
}

TEST(DgemmConfig, SharedFamiliesSizes) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 700;
  for (const tcgemm_config& cfg : shared_configs())
    for (int64_t m : kSizes)
      for (int64_t n : {int64_t(1), int64_t(33), int64_t(257)})
        for (int64_t k : {int64_t(1), int64_t(7), int64_t(100)}) {
          GemmSpec s = spec(m, n, k, ++seed);
          s.beta = 0.75;
          EXPECT_TRUE(run_and_check(s, dgemm_config_call(cfg))) << describe(cfg);
        }
}

TEST(DgemmConfig, SharedFamiliesLayoutsAndStream) {
  TCGEMM_REQUIRE_GPU();
  cudaStream_t stream = nullptr;
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  uint64_t seed = 800;
  for (const tcgemm_config& cfg : shared_configs()) {
    GemmSpec s = spec(100, 33, 257, ++seed);
    s.transa = 'T';
    s.alpha = -0.5;
    s.beta = 0.0;
    s.lda_pad = 3;
    s.ldb_pad = 2;
    s.ldc_pad = 1;
    s.a_offset = 1;
    s.b_offset = 2;  // 16-byte aligned B with an even ldb: the fast copy applies to B only
    s.c_offset = 3;
    EXPECT_TRUE(run_and_check(s, dgemm_config_call(cfg), stream)) << describe(cfg);
    GemmSpec z = spec(17, 9, 0, ++seed);  // k = 0 through the config entry point
    z.beta = 0.0;
    EXPECT_TRUE(run_and_check(z, dgemm_config_call(cfg), stream)) << describe(cfg);
  }
  CUDA_OK(cudaStreamDestroy(stream));
}

}  // namespace
