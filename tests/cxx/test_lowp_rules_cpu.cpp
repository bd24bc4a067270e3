// Host-side rules of tcgemm_gemm_ex and tcgemm_wmma_config_resolve (family wmma_lowp): types, shapes,
// tiles, paddings, shared-memory math, argument checks and quick returns. Validation runs before the
// device gate, so all of this runs for real without a GPU; host arrays stand in for device arrays and are
// checked to be untouched.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "api/lowp_call.hpp"
#include "families/mma_lowp/launch.hpp"
#include "families/mma_lowp/tf32_pack.hpp"
#include "families/mma_lowp/tma_map.hpp"
#include "families/wmma_lowp/launch.hpp"
#include "families/wmma_lowp/rules.hpp"
#include "tcgemm/tcgemm.h"

namespace {

using ::testing::HasSubstr;

std::string last() { return tcgemm_last_error(); }

// A valid F16 call (m = 4, n = 3, k = 2, F32 C); tests break one argument at a time.
struct Ex {
  char ta = 'N', tb = 'N';
  int64_t m = 4, n = 3, k = 2;
  float alpha = 1.0f, beta = 0.0f;
  std::vector<uint16_t> a = std::vector<uint16_t>(64, 0x3c00), b = std::vector<uint16_t>(64, 0x4000);
  std::vector<float> c = std::vector<float>(64, 7.0f);
  const void* A = a.data();
  const void* B = b.data();
  void* C = c.data();
  int32_t a_type = TCGEMM_TYPE_F16, b_type = TCGEMM_TYPE_F16, c_type = TCGEMM_TYPE_F32,
          compute = TCGEMM_TYPE_F32;
  int64_t lda = 4, ldb = 2, ldc = 4;
  const tcgemm_wmma_config* config = nullptr;
  tcgemm_status run() {
    return tcgemm_gemm_ex(ta, tb, m, n, k, alpha, A, a_type, lda, B, b_type, ldb, beta, C, c_type, ldc, compute,
                          config, nullptr);
  }
  bool c_untouched() const {
    for (float v : c)
      if (v != 7.0f) return false;
    return true;
  }
};

// Valid calls pass validation and stop at the device gate (NO_DEVICE) on a machine without a GPU. With a GPU
// they would launch kernels on these host arrays, so those tests skip there (the GPU suite runs them).
bool gpu_present() {
  tcgemm_device_info info;
  return tcgemm_device_info_get(-1, &info) != TCGEMM_ERROR_NO_DEVICE;
}
#define SKIP_WITH_GPU() \
  if (gpu_present()) GTEST_SKIP() << "passes validation and would run on the GPU with host pointers"
bool reached_device(tcgemm_status s) { return s == TCGEMM_ERROR_NO_DEVICE; }

TEST(LowpTypes, EveryLegalCombinationPassesValidation) {
  SKIP_WITH_GPU();
  struct Combo {
    int32_t in, c, compute;
  };
  for (const Combo& t : {Combo{TCGEMM_TYPE_F16, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32},
                         Combo{TCGEMM_TYPE_F16, TCGEMM_TYPE_F16, TCGEMM_TYPE_F32},
                         Combo{TCGEMM_TYPE_F16, TCGEMM_TYPE_F16, TCGEMM_TYPE_F16},
                         Combo{TCGEMM_TYPE_BF16, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32},
                         Combo{TCGEMM_TYPE_BF16, TCGEMM_TYPE_BF16, TCGEMM_TYPE_F32},
                         Combo{TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32}}) {
    Ex e;
    e.a_type = e.b_type = t.in;
    e.c_type = t.c;
    e.compute = t.compute;
    std::vector<float> big_a(64, 1.0f), big_b(64, 1.0f);
    if (t.in == TCGEMM_TYPE_F32) e.A = big_a.data(), e.B = big_b.data();
    EXPECT_TRUE(reached_device(e.run())) << t.in << " " << t.c << " " << t.compute << ": " << last();
  }
}

TEST(LowpTypes, IllegalCombinationsNameTheArgument) {
  {
    Ex e;
    e.a_type = TCGEMM_TYPE_F64;
    EXPECT_EQ(e.run(), TCGEMM_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(tcgemm_last_error_argument(), 8);
    EXPECT_THAT(last(), HasSubstr("a_type"));
    EXPECT_THAT(last(), HasSubstr("tcgemm_dgemm"));
  }
  {
    Ex e;
    e.b_type = TCGEMM_TYPE_BF16;
    EXPECT_EQ(e.run(), TCGEMM_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(tcgemm_last_error_argument(), 11);
    EXPECT_THAT(last(), HasSubstr("b_type"));
  }
  {
    Ex e;
    e.c_type = 9;
    EXPECT_EQ(e.run(), TCGEMM_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(tcgemm_last_error_argument(), 15);
  }
  {
    Ex e;  // FP16 accumulation of BF16 inputs does not exist
    e.a_type = e.b_type = TCGEMM_TYPE_BF16;
    e.compute = TCGEMM_TYPE_F16;
    EXPECT_EQ(e.run(), TCGEMM_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(tcgemm_last_error_argument(), 17);
    EXPECT_THAT(last(), HasSubstr("F16 inputs only"));
  }
  {
    Ex e;  // an FP16 accumulator writes an F16 C
    e.compute = TCGEMM_TYPE_F16;
    EXPECT_EQ(e.run(), TCGEMM_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(tcgemm_last_error_argument(), 15);
  }
  Ex e;
  e.compute = TCGEMM_TYPE_BF16;
  EXPECT_EQ(e.run(), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 17);
  EXPECT_TRUE(e.c_untouched());
}

TEST(LowpConfig, DefaultsPerInputType) {
  tcgemm_wmma_config r{};
  int64_t smem = 0;
  ASSERT_EQ(tcgemm_wmma_config_resolve(TCGEMM_TYPE_F16, TCGEMM_TYPE_F32, nullptr, &r, &smem), TCGEMM_SUCCESS);
  EXPECT_EQ(r.shape, TCGEMM_WMMA_16x16x16);
  EXPECT_EQ(r.tile, 128);
  EXPECT_EQ(r.tile_k, 32);
  EXPECT_EQ(r.pad_a, 8);
  EXPECT_EQ(r.pad_b, 8);
  EXPECT_EQ(r.stages, 3);
  EXPECT_EQ(r.tile_n, 128);
  // The most of the four forms: both tiles k-contiguous ('T', 'N'), 128 x (32 + 8) halves = 10240 bytes each
  // (m-contiguous: 32 x (128 + 8) = 8704), times 3 stages; then 4 warps x 16 x 16 floats.
  EXPECT_EQ(smem, 3 * (10240 + 10240) + 4 * 16 * 16 * 4);
  ASSERT_EQ(tcgemm_wmma_config_resolve(TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, nullptr, &r, &smem), TCGEMM_SUCCESS);
  EXPECT_EQ(r.shape, TCGEMM_WMMA_16x16x8);
  EXPECT_EQ(r.pad_a, 4);
  EXPECT_EQ(smem, 3 * 2 * 128 * 36 * 4 + 4 * 16 * 16 * 4);
  ASSERT_EQ(tcgemm_wmma_config_resolve(TCGEMM_TYPE_F16, TCGEMM_TYPE_F16, nullptr, &r, &smem), TCGEMM_SUCCESS);
  EXPECT_EQ(smem, 3 * (10240 + 10240) + 4 * 16 * 16 * 2);  // FP16 accumulator scratch
}

TEST(LowpConfig, GivenFieldsAreKeptAndPaddingZeroIsLegal) {
  tcgemm_wmma_config c{};
  c.shape = TCGEMM_WMMA_8x32x16;
  c.tile = 128;
  c.tile_k = 64;
  c.pad_a = 0;
  c.pad_b = 24;
  c.stages = 2;
  tcgemm_wmma_config r{};
  int64_t smem = 0;
  ASSERT_EQ(tcgemm_wmma_config_resolve(TCGEMM_TYPE_BF16, TCGEMM_TYPE_F32, &c, &r, &smem), TCGEMM_SUCCESS) << last();
  EXPECT_EQ(r.shape, TCGEMM_WMMA_8x32x16);
  EXPECT_EQ(r.tile, 128);
  EXPECT_EQ(r.tile_k, 64);
  EXPECT_EQ(r.pad_a, 0);
  EXPECT_EQ(r.pad_b, 24);
  EXPECT_EQ(r.stages, 2);
  // The largest form is 'N', 'N': A m-contiguous with 8-row fragments, so every group of 8 rows sits at the
  // start of a 16-element slot: 64 x (2 x 128 + 0) halves; B k-contiguous: 128 x (64 + 24) halves.
  EXPECT_EQ(smem, 2 * (64 * 256 * 2 + 128 * 88 * 2) + 4 * 8 * 32 * 4);
  // 128 x 256: 8 warps; the largest form is still 'N', 'N' (B: 256 x (64 + 24) halves).
  c.tile_n = 256;
  ASSERT_EQ(tcgemm_wmma_config_resolve(TCGEMM_TYPE_BF16, TCGEMM_TYPE_F32, &c, &r, &smem), TCGEMM_SUCCESS) << last();
  EXPECT_EQ(r.tile_n, 256);
  EXPECT_EQ(smem, 2 * (64 * 256 * 2 + 256 * 88 * 2) + 8 * 8 * 32 * 4);
}

TEST(LowpConfig, BrokenRulesSayWhich) {
  struct Bad {
    int32_t in;
    tcgemm_wmma_config c;
    const char* says;
  };
  const Bad bad[] = {
      {TCGEMM_TYPE_F16, {9, 0, 0, 8, 8, 0, 0, {0}}, "not a tcgemm_wmma_shape"},
      {TCGEMM_TYPE_F16, {TCGEMM_WMMA_16x16x8, 0, 0, 8, 8, 0, 0, {0}}, "F16 inputs have WMMA shapes"},
      {TCGEMM_TYPE_F32, {TCGEMM_WMMA_16x16x16, 0, 0, 4, 4, 0, 0, {0}}, "TF32 inputs have WMMA shape 16x16x8"},
      {TCGEMM_TYPE_F16, {0, 96, 0, 8, 8, 0, 0, {0}}, "tile=96"},
      {TCGEMM_TYPE_F16, {0, 0, 24, 8, 8, 0, 0, {0}}, "tile_k=24: must be a multiple of the shape's k (16)"},
      {TCGEMM_TYPE_F32, {0, 0, 260, 4, 4, 0, 0, {0}}, "tile_k=260"},
      {TCGEMM_TYPE_F16, {0, 0, 0, 4, 8, 0, 0, {0}}, "pad_a=4: shared-memory padding must be a multiple of 8 F16"},
      {TCGEMM_TYPE_F32, {0, 0, 0, 4, 2, 0, 0, {0}}, "pad_b=2: shared-memory padding must be a multiple of 4 TF32"},
      {TCGEMM_TYPE_BF16, {0, 0, 0, -8, 8, 0, 0, {0}}, "pad_a=-8"},
      {TCGEMM_TYPE_BF16, {0, 0, 0, 72, 8, 0, 0, {0}}, "pad_a=72"},
      {TCGEMM_TYPE_F16, {0, 0, 0, 8, 8, 0, 0, {3}}, "reserved[0]=3"},
      {TCGEMM_TYPE_F16, {0, 128, 0, 8, 8, 0, 64, {0}}, "tile=128, tile_n=64: the C tile must be 64 x 64"},
      {TCGEMM_TYPE_F32, {0, 256, 0, 4, 4, 0, 0, {0}}, "tile=256, tile_n=256"},
      {TCGEMM_TYPE_F16, {0, 0, 0, 8, 8, 5, 0, {0}}, "stages=5: must be 1 (copy a k-tile, then compute it) or 2..4"},
      {TCGEMM_TYPE_F32, {0, 0, 0, 4, 4, -1, 0, {0}}, "stages=-1"},
  };
  for (const Bad& b : bad) {
    tcgemm_wmma_config r{};
    EXPECT_EQ(tcgemm_wmma_config_resolve(b.in, TCGEMM_TYPE_F32, &b.c, &r, nullptr), TCGEMM_ERROR_INVALID_CONFIG)
        << b.says;
    EXPECT_THAT(last(), HasSubstr(b.says));
    Ex e;  // the same rule through tcgemm_gemm_ex: argument 18, C untouched
    std::vector<float> fa(64, 1.0f);
    e.a_type = e.b_type = b.in;
    if (b.in == TCGEMM_TYPE_F32) e.A = e.B = fa.data();
    e.config = &b.c;
    EXPECT_EQ(e.run(), TCGEMM_ERROR_INVALID_CONFIG) << b.says;
    EXPECT_EQ(tcgemm_last_error_argument(), 18);
    EXPECT_TRUE(e.c_untouched());
  }
  tcgemm_wmma_config r{};
  EXPECT_EQ(tcgemm_wmma_config_resolve(TCGEMM_TYPE_F16, TCGEMM_TYPE_F32, nullptr, nullptr, nullptr),
            TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_wmma_config_resolve(TCGEMM_TYPE_F64, TCGEMM_TYPE_F32, nullptr, &r, nullptr),
            TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 1);
  EXPECT_EQ(tcgemm_wmma_config_resolve(TCGEMM_TYPE_F16, 7, nullptr, &r, nullptr), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 2);
}

TEST(LowpArguments, BlasRulesWithThisPrototypesPositions) {
  {
    Ex e;
    e.ta = 'X';
    EXPECT_EQ(e.run(), TCGEMM_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(tcgemm_last_error_argument(), 1);
  }
  {
    Ex e;
    e.k = -1;
    EXPECT_EQ(e.run(), TCGEMM_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(tcgemm_last_error_argument(), 5);
  }
  {
    Ex e;
    e.lda = 3;
    EXPECT_EQ(e.run(), TCGEMM_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(tcgemm_last_error_argument(), 9);
    EXPECT_THAT(last(), HasSubstr("lda"));
  }
  {
    Ex e;
    e.ldb = 1;
    EXPECT_EQ(e.run(), TCGEMM_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(tcgemm_last_error_argument(), 12);
  }
  {
    Ex e;
    e.ldc = 2;
    EXPECT_EQ(e.run(), TCGEMM_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(tcgemm_last_error_argument(), 16);
  }
  {
    Ex e;
    e.B = nullptr;
    EXPECT_EQ(e.run(), TCGEMM_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(tcgemm_last_error_argument(), 10);
  }
  {
    Ex e;  // B: 2 x 2^50 2-byte elements = 2^52 bytes, the limit itself: legal; C: 4 x 2^50 floats: over it
    e.ldc = 4;
    e.n = int64_t(1) << 50;
    e.ldb = 2;
    EXPECT_EQ(e.run(), TCGEMM_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(tcgemm_last_error_argument(), 16);
    EXPECT_THAT(last(), HasSubstr("4-byte elements"));
  }
  if (gpu_present()) return;  // the last case would run on the GPU with a host C
  Ex e;  // alpha = 0: A and B are not read, so NULL is fine; the call reaches the device
  e.alpha = 0.0f;
  e.A = e.B = nullptr;
  e.beta = 0.5f;
  EXPECT_TRUE(reached_device(e.run())) << last();
}

TEST(LowpArguments, QuickReturnsTouchNothing) {
  Ex e;
  e.m = 0;
  EXPECT_EQ(e.run(), TCGEMM_SUCCESS);
  e.m = 4;
  e.k = 0;
  e.beta = 1.0f;
  EXPECT_EQ(e.run(), TCGEMM_SUCCESS);
  e.k = 2;
  e.alpha = 0.0f;
  EXPECT_EQ(e.run(), TCGEMM_SUCCESS);
  EXPECT_TRUE(e.c_untouched());
}

// tcgemm_sgemm: reference SGEMM's numbering, precision argument 14.
TEST(Sgemm, PrecisionAndBlasArguments) {
  std::vector<float> a(64, 1.0f), b(64, 1.0f), c(64, 7.0f);
  auto run = [&](int32_t precision, int64_t lda) {
    return tcgemm_sgemm('N', 'T', 4, 3, 2, 1.0f, a.data(), lda, b.data(), 3, 0.0f, c.data(), 4, precision, nullptr);
  };
  for (int32_t bad : {0, 5, -1}) {
    EXPECT_EQ(run(bad, 4), TCGEMM_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(tcgemm_last_error_argument(), 14);
    EXPECT_THAT(last(), HasSubstr("precision"));
  }
  EXPECT_EQ(run(TCGEMM_PRECISION_TF32, 3), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 8);
  EXPECT_THAT(last(), HasSubstr("argument 8 (lda)"));
  if (!gpu_present())  // with a GPU these would run on the host arrays
    for (int32_t p : {TCGEMM_PRECISION_TF32, TCGEMM_PRECISION_FP16, TCGEMM_PRECISION_BF16, TCGEMM_PRECISION_FP32})
      EXPECT_TRUE(reached_device(run(p, 4))) << p << ": " << last();
  EXPECT_EQ(tcgemm_sgemm('N', 'N', 0, 3, 2, 1.0f, nullptr, 1, nullptr, 2, 0.0f, nullptr, 1, TCGEMM_PRECISION_FP16,
                         nullptr),
            TCGEMM_SUCCESS);  // m = 0: a quick return, nothing read
  for (float v : c) EXPECT_EQ(v, 7.0f);
}

// tcgemm_sgemm_host: the same numbering and checks on host arrays; without a GPU a valid call reaches the
// device gate (and stops there with C unchanged), with one it runs (host arrays are what it takes).
TEST(Sgemm, HostArrayArguments) {
  std::vector<float> a(64, 1.0f), b(64, 1.0f), c(64, 7.0f);
  auto run = [&](int32_t precision, int64_t lda, int64_t ldc) {
    return tcgemm_sgemm_host('N', 'T', 4, 3, 2, 1.0f, a.data(), lda, b.data(), 3, 0.0f, c.data(), ldc, precision);
  };
  EXPECT_EQ(run(9, 4, 4), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 14);
  EXPECT_THAT(last(), HasSubstr("argument 14 (precision) = 9"));
  EXPECT_EQ(run(TCGEMM_PRECISION_FP16, 3, 4), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 8);
  EXPECT_EQ(run(TCGEMM_PRECISION_FP16, 4, 3), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 13);
  EXPECT_EQ(tcgemm_sgemm_host('N', 'N', 4, 3, 2, 1.0f, nullptr, 4, b.data(), 2, 0.0f, c.data(), 4,
                              TCGEMM_PRECISION_TF32),
            TCGEMM_ERROR_INVALID_ARGUMENT);  // A is read: a null A is refused by name
  EXPECT_EQ(tcgemm_last_error_argument(), 7);
  for (float v : c) EXPECT_EQ(v, 7.0f);
  if (!gpu_present()) {
    for (int32_t p : {TCGEMM_PRECISION_TF32, TCGEMM_PRECISION_FP32}) EXPECT_TRUE(reached_device(run(p, 4, 4))) << last();
    for (float v : c) EXPECT_EQ(v, 7.0f);
  }
  EXPECT_EQ(tcgemm_sgemm_host('N', 'N', 0, 3, 2, 1.0f, nullptr, 1, nullptr, 2, 0.0f, nullptr, 1,
                              TCGEMM_PRECISION_BF16),
            TCGEMM_SUCCESS);  // m = 0: a quick return, nothing read
}

// The mma.sync fast path's rule (families/mma_lowp): F16/BF16 with FP32 accumulation, 16-byte aligned A and B
// with leading dimensions of whole 16-byte units, each operand's contiguous extent a multiple of 8, alpha != 0
// and k >= 1. Anything else goes to the WMMA family.
TEST(MmaLowpRule, WhichProblemsTakeTheFastPath) {
  alignas(16) static unsigned char buf[64];
  tcgemm::detail::LowpProblem p;
  p.transa = 'N';
  p.transb = 'N';
  p.m = 136;
  p.n = 77;  // n is nobody's contiguous extent in NN
  p.k = 264;
  p.A = buf;
  p.B = buf;
  p.lda = 136;
  p.ldb = 264;
  p.input_type = TCGEMM_TYPE_F16;
  p.compute = TCGEMM_TYPE_F32;
  EXPECT_TRUE(tcgemm::detail::mma_lowp_eligible(p));
  auto with = [&](auto change) {
    tcgemm::detail::LowpProblem q = p;
    change(q);
    return tcgemm::detail::mma_lowp_eligible(q);
  };
  using P = tcgemm::detail::LowpProblem;
  EXPECT_TRUE(with([](P& q) { q.input_type = TCGEMM_TYPE_BF16; }));
  EXPECT_FALSE(with([](P& q) { q.input_type = TCGEMM_TYPE_F32; }));  // TF32: packed first (below)
  EXPECT_TRUE(with([](P& q) { q.compute = TCGEMM_TYPE_F16; }));      // FP16 accumulation of F16: m16n8k16.f16
  EXPECT_FALSE(with([](P& q) { q.input_type = TCGEMM_TYPE_BF16; q.compute = TCGEMM_TYPE_F16; }));
  EXPECT_FALSE(with([](P& q) { q.alpha = 0.0f; }));
  EXPECT_FALSE(with([](P& q) { q.k = 0; }));
  EXPECT_FALSE(with([](P& q) { q.m = 137; q.lda = 144; }));  // m contiguous in an untransposed A
  EXPECT_FALSE(with([](P& q) { q.k = 260; }));               // k contiguous in an untransposed B
  EXPECT_FALSE(with([](P& q) { q.lda = 140; }));
  EXPECT_FALSE(with([](P& q) { q.ldb = 268; }));
  EXPECT_FALSE(with([](P& q) { q.A = buf + 8; }));
  EXPECT_FALSE(with([](P& q) { q.B = buf + 2; }));
  // Transposed A: k is its contiguous extent, m may be anything; transposed B: n must be a multiple of 8.
  EXPECT_TRUE(with([](P& q) { q.transa = 'T'; q.m = 203; q.lda = 264; }));
  EXPECT_FALSE(with([](P& q) { q.transb = 'T'; q.ldb = 80; }));  // n = 77
  EXPECT_TRUE(with([](P& q) { q.transb = 'T'; q.n = 80; q.ldb = 80; }));
}

// TF32 takes the fast path on packed copies, so any layout is eligible; alpha = 0 and k = 0 (A and B not
// read) and the other types are not. The packs' leading dimension is k rounded up to 16 bytes, and their
// sizes are refused when they do not fit int64 (the caller then runs the WMMA family in place).
TEST(MmaLowpRule, Tf32TakesThePackedFastPath) {
  tcgemm::detail::LowpProblem p;
  p.transa = 'T';
  p.transb = 'T';
  p.m = 131;
  p.n = 77;
  p.k = 37;
  p.lda = 41;
  p.ldb = 79;
  p.A = reinterpret_cast<const void*>(uintptr_t(4100));  // 4-byte aligned only
  p.B = reinterpret_cast<const void*>(uintptr_t(4));
  p.input_type = TCGEMM_TYPE_F32;
  p.compute = TCGEMM_TYPE_F32;
  EXPECT_TRUE(tcgemm::detail::mma_lowp_tf32_eligible(p));
  EXPECT_FALSE(tcgemm::detail::mma_lowp_eligible(p));
  auto with = [&](auto change) {
    tcgemm::detail::LowpProblem q = p;
    change(q);
    return tcgemm::detail::mma_lowp_tf32_eligible(q);
  };
  using P = tcgemm::detail::LowpProblem;
  EXPECT_FALSE(with([](P& q) { q.alpha = 0.0f; }));
  EXPECT_FALSE(with([](P& q) { q.k = 0; }));
  EXPECT_FALSE(with([](P& q) { q.input_type = TCGEMM_TYPE_F16; }));
  EXPECT_FALSE(with([](P& q) { q.compute = TCGEMM_TYPE_F16; }));

  EXPECT_EQ(tcgemm::detail::tf32_pack_ld(1), 4);
  EXPECT_EQ(tcgemm::detail::tf32_pack_ld(37), 40);
  EXPECT_EQ(tcgemm::detail::tf32_pack_ld(40), 40);
  int64_t a = 0, b = 0;
  ASSERT_TRUE(tcgemm::detail::tf32_pack_bytes(p, &a, &b));
  EXPECT_EQ(a, 40 * 131 * 4);
  EXPECT_EQ(b, 40 * 77 * 4);
  P huge = p;
  huge.m = int64_t(1) << 40;
  huge.k = int64_t(1) << 22;
  EXPECT_FALSE(tcgemm::detail::tf32_pack_bytes(huge, &a, &b));
  // Each copy fits int64 (2^62 bytes) but the two together do not.
  P wide = p;
  wide.m = wide.n = int64_t(1) << 40;
  wide.k = int64_t(1) << 20;
  EXPECT_FALSE(tcgemm::detail::tf32_pack_bytes(wide, &a, &b));
}

// The route a call takes, which TCGEMM_PLAN_LOG prints: a configuration always runs the WMMA family; without
// one, F16/BF16 in place on mma_lowp where its rule holds, TF32 on packed copies (any layout), the rest WMMA.
TEST(MmaLowpRule, RouteOfEachKind) {
  using tcgemm::detail::LowpRoute;
  using tcgemm::detail::lowp_route;
  alignas(16) static unsigned char buf[64];
  tcgemm::detail::LowpProblem p;
  p.transa = 'N';
  p.transb = 'N';
  p.m = 136;
  p.n = 77;
  p.k = 264;
  p.A = buf;
  p.B = buf;
  p.lda = 136;
  p.ldb = 264;
  p.input_type = TCGEMM_TYPE_BF16;
  p.compute = TCGEMM_TYPE_F32;
  EXPECT_EQ(lowp_route(p, false), LowpRoute::MmaInPlace);
  EXPECT_EQ(lowp_route(p, true), LowpRoute::Wmma);
  tcgemm::detail::LowpProblem q = p;
  q.lda = 137;  // not whole 16-byte columns
  EXPECT_EQ(lowp_route(q, false), LowpRoute::Wmma);
  q = p;
  q.compute = TCGEMM_TYPE_F16;  // BF16 inputs have no FP16 accumulation (refused before routing)
  EXPECT_EQ(lowp_route(q, false), LowpRoute::Wmma);
  q.input_type = TCGEMM_TYPE_F16;  // F16 with FP16 accumulation: m16n8k16 with f16 accumulators
  EXPECT_EQ(lowp_route(q, false), LowpRoute::MmaInPlace);
  q = p;
  q.input_type = TCGEMM_TYPE_F32;
  q.lda = 137;  // any layout for TF32
  EXPECT_EQ(lowp_route(q, false), LowpRoute::Tf32Packed);
  EXPECT_EQ(lowp_route(q, true), LowpRoute::Wmma);
  q.m = int64_t(1) << 40;  // packs beyond int64: in place
  q.k = int64_t(1) << 22;
  EXPECT_EQ(lowp_route(q, false), LowpRoute::Wmma);
  EXPECT_STREQ(tcgemm::detail::lowp_route_name(LowpRoute::Tf32Packed), "mma_lowp on TF32-rounded packed copies");
  EXPECT_STREQ(tcgemm::detail::lowp_route_name(LowpRoute::WmmaTf32Packed), "wmma_lowp on TF32-rounded packed copies");
}

// The fast path's tiling: 256 x 128 tiles (144 KiB of shared memory) where the device's blocks may have that
// and the problem has a tile for every SM; otherwise 128 x 128 (96 KiB).
TEST(MmaLowpRule, TilingByDeviceAndSize) {
  using tcgemm::detail::MmaLowpTiling;
  tcgemm::detail::DeviceContext h100;
  h100.sm_count = 132;
  h100.smem_optin = 227 * 1024;
  tcgemm::detail::LowpProblem p;
  p.m = 8192;
  p.n = 8192;
  EXPECT_EQ(tcgemm::detail::mma_lowp_tiling(p, h100), MmaLowpTiling::Large);
  p.m = 1544;  // 7 x 19 = 133 tiles of 256 x 128
  p.n = 2400;
  EXPECT_EQ(tcgemm::detail::mma_lowp_tiling(p, h100), MmaLowpTiling::Large);
  p.n = 2304;  // 7 x 18 = 126
  EXPECT_EQ(tcgemm::detail::mma_lowp_tiling(p, h100), MmaLowpTiling::Small);
  p.m = 1;
  p.n = int64_t(1) << 20;  // 1 x 8192 tiles
  EXPECT_EQ(tcgemm::detail::mma_lowp_tiling(p, h100), MmaLowpTiling::Large);
  tcgemm::detail::DeviceContext ada = h100;  // sm_89: 99 KiB per block
  ada.smem_optin = 99 * 1024;
  p.m = p.n = 8192;
  EXPECT_EQ(tcgemm::detail::mma_lowp_tiling(p, ada), MmaLowpTiling::Small);
  EXPECT_GE(ada.smem_optin, tcgemm::detail::kMmaLowpSmallSmemBytes);
}

// Which fast-path problems TMA can describe (the TMA kernel on sm_90; the cp.async kernel otherwise): extents
// up to 2^31 - 512 (32-bit box coordinates, boxes of up to 256 past them), leading dimensions of whole 16-byte
// units below 2^40 bytes, A and B 16-byte aligned. A cc 8.x device or a CPU never takes it.
TEST(MmaLowpRule, TmaDescribesTheOperands) {
  alignas(16) static unsigned char buf[64];
  const tcgemm::detail::LowpProblem p =
      tcgemm::detail::lowp_problem('N', 'T', 8192, 77, 3, 1.0f, buf, 8192, buf + 16, 88, 0.0f, nullptr, 8192,
                                   TCGEMM_TYPE_BF16, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32);
  EXPECT_TRUE(tcgemm::detail::mma_lowp_tma_layout_ok(p));
  auto with = [&](auto change) {
    tcgemm::detail::LowpProblem q = p;
    change(q);
    return tcgemm::detail::mma_lowp_tma_layout_ok(q);
  };
  using P = tcgemm::detail::LowpProblem;
  const int64_t edge = (int64_t(1) << 31) - 512;
  EXPECT_TRUE(with([&](P& q) { q.m = edge; q.lda = edge; }));
  EXPECT_FALSE(with([&](P& q) { q.m = edge + 1; q.lda = edge + 8; }));
  EXPECT_TRUE(with([&](P& q) { q.n = edge; }));
  EXPECT_FALSE(with([&](P& q) { q.n = edge + 1; }));
  EXPECT_TRUE(with([&](P& q) { q.k = edge; }));
  EXPECT_FALSE(with([&](P& q) { q.k = edge + 1; }));
  EXPECT_FALSE(with([](P& q) { q.ldb = 84; }));   // 168 bytes: not whole 16-byte units
  EXPECT_TRUE(with([](P& q) { q.ldb = (int64_t(1) << 39) - 8; }));  // 2^40 - 16 bytes: TMA's largest stride
  EXPECT_FALSE(with([](P& q) { q.ldb = int64_t(1) << 39; }));        // 2^40 bytes
  EXPECT_FALSE(with([](P& q) { q.A = buf + 8; }));
  EXPECT_FALSE(with([](P& q) { q.B = buf + 2; }));
  // TF32 (the packed copies: 4-byte elements, leading dimension a multiple of 4).
  EXPECT_TRUE(with([](P& q) { q.input_type = TCGEMM_TYPE_F32; q.lda = q.ldb = 40; }));
  EXPECT_FALSE(with([](P& q) { q.input_type = TCGEMM_TYPE_F32; q.lda = 42; }));
  // Devices: a cc 8.x device never takes it, whatever the layout (and no CUDA call is needed to say so).
  tcgemm::detail::DeviceContext a100;
  a100.cc_major = 8;
  a100.sm_count = 108;
  a100.smem_optin = 163 * 1024;
  EXPECT_FALSE(tcgemm::detail::mma_lowp_tma_applies(p, a100));
  // Nor a cc 9.x device whose blocks cannot have the TMA kernel's ring (also decided without CUDA).
  tcgemm::detail::DeviceContext small_hopper = a100;
  small_hopper.cc_major = 9;
  small_hopper.smem_optin = tcgemm::detail::kMmaLowpTmaSmemBytes - 1;
  EXPECT_FALSE(tcgemm::detail::mma_lowp_tma_applies(p, small_hopper));
}

// Without a configuration the WMMA family's defaults are fitted to the device's shared memory per block:
// the TF32 default (128 x 128, tile_k 32, 3 stages: 113 KB in the 'T','N' form) takes 2 stages on a 99 KB
// device and 1 on a 48 KB one; F16's (64 KB) stays as it is on both larger devices.
TEST(LowpConfig, DefaultsFittedToTheDevice) {
  tcgemm::detail::DeviceContext dev;
  tcgemm::detail::LowpProblem p;
  p.transa = 'T';
  p.transb = 'N';
  p.m = p.n = p.k = 1000;
  tcgemm_wmma_config def{};
  for (const int32_t in : {TCGEMM_TYPE_F32, TCGEMM_TYPE_F16}) {
    p.input_type = in;
    ASSERT_EQ(tcgemm_wmma_config_resolve(in, TCGEMM_TYPE_F32, nullptr, &def, nullptr), TCGEMM_SUCCESS);
    const bool tf32 = in == TCGEMM_TYPE_F32;
    for (const int64_t kb : {227, 99, 48}) {
      SCOPED_TRACE(std::to_string(kb) + " KB, " + (tf32 ? "TF32" : "F16"));
      dev.smem_optin = kb * 1024;
      const tcgemm_wmma_config r = tcgemm::detail::fit_default_to_device(def, p, dev);
      const int32_t want = kb == 227 ? 3 : kb == 99 ? (tf32 ? 2 : 3) : (tf32 ? 1 : 2);
      EXPECT_EQ(r.stages, want);
      EXPECT_EQ(r.tile, 128);
      EXPECT_EQ(r.tile_n, 128);
      EXPECT_EQ(r.tile_k, def.tile_k);
    }
  }
  dev.smem_optin = 16 * 1024;  // below any 128 x 128 stage: the 64 x 64 tile
  p.input_type = TCGEMM_TYPE_F16;
  ASSERT_EQ(tcgemm_wmma_config_resolve(TCGEMM_TYPE_F16, TCGEMM_TYPE_F32, nullptr, &def, nullptr), TCGEMM_SUCCESS);
  const tcgemm_wmma_config small = tcgemm::detail::fit_default_to_device(def, p, dev);
  EXPECT_EQ(small.tile, 64);
  EXPECT_EQ(small.stages, 1);
}

// The WMMA family's pipelined kernel (compile-time tile_k, paddings and depth) runs exactly the fixed
// configurations: 128 x 128, 256 x 128 or 128 x 256 tiles, tile_k 64 (TF32: 32), 16-byte paddings, 3 stages,
// both operands by 16-byte copies, in every 16-bit input type, shape and operand form, and for TF32 on the
// packed copies only ('T','N', already rounded; TF32's default configuration is a fixed one and packs); a call
// that differs in any one of these, or asks for 64 x 64 tiles, runs the run-time kernel. The arguments are
// built as the launcher builds them.
TEST(LowpConfig, PipelinedKernelTakesExactlyTheFixedConfigurations) {
  using tcgemm::detail::lowp_fixed_instance_applies;
  using tcgemm::detail::lowp_wmma_args;
  struct InAcc {
    int32_t in, compute;
  };
  // Host addresses stand in for device pointers: only their alignment is read.
  const void* aligned = reinterpret_cast<const void*>(uintptr_t{1} << 20);
  const void* off8 = reinterpret_cast<const void*>((uintptr_t{1} << 20) + 8);
  for (const InAcc t : {InAcc{TCGEMM_TYPE_F16, TCGEMM_TYPE_F32}, InAcc{TCGEMM_TYPE_F16, TCGEMM_TYPE_F16},
                        InAcc{TCGEMM_TYPE_BF16, TCGEMM_TYPE_F32}, InAcc{TCGEMM_TYPE_F32, TCGEMM_TYPE_F32}}) {
    const bool tf32 = t.in == TCGEMM_TYPE_F32;
    const int in_bytes = tf32 ? 4 : 2, pad = 16 / in_bytes, tile_k = tf32 ? 32 : 64;
    const std::vector<int32_t> shapes = tf32 ? std::vector<int32_t>{TCGEMM_WMMA_16x16x8}
                                             : std::vector<int32_t>{TCGEMM_WMMA_16x16x16, TCGEMM_WMMA_32x8x16,
                                                                    TCGEMM_WMMA_8x32x16};
    for (const int32_t shape : shapes)
      for (const char* form : {"NN", "NT", "TN", "TT"})
        for (const auto tile : {std::pair<int, int>{128, 128}, {256, 128}, {128, 256}}) {
          SCOPED_TRACE(std::string(form) + " input " + std::to_string(t.in) + " shape " + std::to_string(shape) +
                       " tile " + std::to_string(tile.first) + "x" + std::to_string(tile.second));
          // TF32: the call's operands as the packed copies stand (rounded) or as a caller's (not).
          const auto applies = [&](tcgemm_wmma_config c, const void* a, int64_t lda, const void* b = nullptr,
                                   int64_t ldb = 512, bool rounded = true) {
            tcgemm_wmma_config r{};
            if (tcgemm_wmma_config_resolve(t.in, t.compute, &c, &r, nullptr) != TCGEMM_SUCCESS) {
              ADD_FAILURE() << tcgemm_last_error();
              return false;
            }
            const tcgemm::detail::LowpProblem p =
                tcgemm::detail::lowp_problem(form[0], form[1], 300, 200, 500, 1.0f, a, lda, b ? b : aligned, ldb, 0.0f,
                                             nullptr, 300, t.in, t.compute == TCGEMM_TYPE_F16 ? t.compute : TCGEMM_TYPE_F32,
                                             t.compute);
            tcgemm::detail::LowpProblem q = p;
            q.tf32_rounded = rounded;
            return lowp_fixed_instance_applies(lowp_wmma_args(q, r), shape, in_bytes, r.tile, r.tile_n);
          };
          const bool runs = !tf32 || std::string(form) == "TN";
          const tcgemm_wmma_config fixed{shape, tile.first, tile_k, pad, pad, 3, tile.second, {0}};
          EXPECT_EQ(applies(fixed, aligned, 512), runs);
          tcgemm_wmma_config c = fixed;
          if (tile.second == tile.first) {
            c.tile_n = 0;  // left to default to tile: the same configuration
            EXPECT_EQ(applies(c, aligned, 512), runs);
          }
          if (tf32) EXPECT_FALSE(applies(fixed, aligned, 512, aligned, 512, false)) << "TF32 not rounded";
          // The negatives below hold for TF32 in 'N','N', 'N','T' and 'T','T' by the form alone; 'T','N' tests them.
          // A 16-bit call's own operands are never "rounded TF32": the flag changes nothing.
          if (!tf32) EXPECT_TRUE(applies(fixed, aligned, 512, aligned, 512, false));
          EXPECT_FALSE(applies(fixed, off8, 512)) << "A only 8-byte aligned";
          EXPECT_FALSE(applies(fixed, aligned, 513)) << "lda not whole 16-byte units";
          EXPECT_FALSE(applies(fixed, aligned, 512, off8)) << "B only 8-byte aligned";
          EXPECT_FALSE(applies(fixed, aligned, 512, aligned, 514)) << "ldb not whole 16-byte units";
          c = fixed;
          c.pad_a = 0;
          EXPECT_FALSE(applies(c, aligned, 512)) << "pad_a 0";
          c = fixed;
          c.pad_b = 2 * pad;
          EXPECT_FALSE(applies(c, aligned, 512)) << "pad_b 32 bytes";
          c = fixed;
          c.stages = 2;
          EXPECT_FALSE(applies(c, aligned, 512)) << "2 stages";
          c.stages = 4;
          EXPECT_FALSE(applies(c, aligned, 512)) << "4 stages";
          c = fixed;
          c.tile_k = tile_k / 2;
          EXPECT_FALSE(applies(c, aligned, 512)) << "half the tile_k";
          c = fixed;
          c.tile = c.tile_n = 64;
          EXPECT_FALSE(applies(c, aligned, 512)) << "64 x 64 tiles";
        }
  }
  // TF32's default configuration is a fixed one: a call configured with it runs on packed copies, whose
  // problem ('T','N', rounded) takes the pipelined kernel; a call's own operands do not.
  tcgemm_wmma_config def{};
  ASSERT_EQ(tcgemm_wmma_config_resolve(TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, nullptr, &def, nullptr), TCGEMM_SUCCESS);
  const tcgemm::detail::LowpProblem p = tcgemm::detail::lowp_problem(
      'N', 'N', 300, 200, 500, 1.0f, aligned, 512, aligned, 512, 0.0f, nullptr, 300, TCGEMM_TYPE_F32,
      TCGEMM_TYPE_F32, TCGEMM_TYPE_F32);
  EXPECT_TRUE(tcgemm::detail::lowp_tf32_packs(p, def));
  EXPECT_FALSE(lowp_fixed_instance_applies(lowp_wmma_args(p, def), def.shape, 4, def.tile, def.tile_n));
  tcgemm::detail::LowpProblem packed = p;
  packed.transa = 'T';
  packed.lda = packed.ldb = 500;  // the packed copies: k-contiguous, ld a multiple of 4 floats
  packed.tf32_rounded = true;
  EXPECT_TRUE(lowp_fixed_instance_applies(lowp_wmma_args(packed, def), def.shape, 4, def.tile, def.tile_n));
  EXPECT_FALSE(tcgemm::detail::lowp_tf32_packs(packed, def)) << "already packed";
  // Any other configuration, or 16-bit inputs, does not pack.
  tcgemm_wmma_config other = def;
  other.stages = 2;
  EXPECT_FALSE(tcgemm::detail::lowp_tf32_packs(p, other));
  other = def;
  other.tile = other.tile_n = 64;
  EXPECT_FALSE(tcgemm::detail::lowp_tf32_packs(p, other));
  tcgemm::detail::LowpProblem scales_c = p;
  scales_c.alpha = 0.0f;
  EXPECT_FALSE(tcgemm::detail::lowp_tf32_packs(scales_c, def)) << "alpha = 0: A and B are not read";
  scales_c = p;
  scales_c.k = 0;
  EXPECT_FALSE(tcgemm::detail::lowp_tf32_packs(scales_c, def)) << "k = 0";
  tcgemm::detail::LowpProblem f16 = p;
  f16.input_type = TCGEMM_TYPE_F16;
  EXPECT_FALSE(tcgemm::detail::lowp_tf32_packs(f16, def)) << "16-bit inputs with TF32's fixed configuration";
}

// The operand tiles with and without the stretch (rules.hpp, LowpOperandTile): an o-contiguous operand of 8-wide
// fragments (A of 8x32x16 untransposed, B of 32x8x16 transposed) is stretched to twice its width for
// load_matrix_sync, and kept as it is where ldmatrix fills the fragments (the pipelined kernel); every other
// operand is the same either way. A configuration's shared memory is the stretched one, the most either kernel
// needs.
TEST(LowpConfig, OnlyLoadMatrixSyncTilesOfEightWideFragmentsAreStretched) {
  using tcgemm::detail::lowp_smem_bytes;
  using tcgemm::detail::lowp_tiles;
  using tcgemm::detail::LowpOperandTile;
  const auto same = [](const LowpOperandTile& x, const LowpOperandTile& y) {
    return x.k_contiguous == y.k_contiguous && x.stretch == y.stretch && x.ld == y.ld;
  };
  for (const int32_t shape : {TCGEMM_WMMA_16x16x16, TCGEMM_WMMA_32x8x16, TCGEMM_WMMA_8x32x16})
    for (const char* form : {"NN", "NT", "TN", "TT"}) {
      SCOPED_TRACE(std::string(form) + " shape " + std::to_string(shape));
      const tcgemm_wmma_config r{shape, 128, 64, 8, 8, 3, 256, {0}};
      const bool ta = form[0] == 'T', tb = form[1] == 'T';
      const auto by_wmma = lowp_tiles(r, 2, ta, tb), by_ldmatrix = lowp_tiles(r, 2, ta, tb, true);
      const bool a_stretched = shape == TCGEMM_WMMA_8x32x16 && !ta;
      const bool b_stretched = shape == TCGEMM_WMMA_32x8x16 && tb;
      EXPECT_EQ(by_wmma.a.stretch, a_stretched ? 2 : 1);
      EXPECT_EQ(by_wmma.b.stretch, b_stretched ? 2 : 1);
      EXPECT_EQ(by_wmma.a.ld, ta ? 64 + 8 : 128 * by_wmma.a.stretch + 8);
      EXPECT_EQ(by_wmma.b.ld, tb ? 256 * by_wmma.b.stretch + 8 : 64 + 8);
      EXPECT_EQ(by_ldmatrix.a.stretch, 1);
      EXPECT_EQ(by_ldmatrix.b.stretch, 1);
      EXPECT_EQ(by_ldmatrix.a.ld, ta ? 64 + 8 : 128 + 8);
      EXPECT_EQ(by_ldmatrix.b.ld, tb ? 256 + 8 : 64 + 8);
      EXPECT_EQ(same(by_wmma.a, by_ldmatrix.a), !a_stretched);
      EXPECT_EQ(same(by_wmma.b, by_ldmatrix.b), !b_stretched);
      const int64_t wmma_bytes = lowp_smem_bytes(r, 2, 4, ta, tb), ldm_bytes = lowp_smem_bytes(r, 2, 4, ta, tb, true);
      if (a_stretched || b_stretched)
        EXPECT_LT(ldm_bytes, wmma_bytes);
      else
        EXPECT_EQ(ldm_bytes, wmma_bytes);
      // What a caller is told (the most any form needs) is the stretched figure.
      EXPECT_GE(tcgemm::detail::lowp_smem_bytes_any_form(r, 2, 4), wmma_bytes);
    }
}

// Whether the WMMA family may write C's fragments straight from registers (store_matrix_sync): C of the
// accumulator's type (FP32 C with FP32 accumulation, F16 C with F16), 32-byte aligned, ldc whole 16-byte units
// and at most 2^24.
TEST(LowpConfig, DirectCStoreNeedsTheAccumulatorsTypeAndAlignment) {
  using tcgemm::detail::lowp_problem;
  using tcgemm::detail::lowp_wmma_args;
  const auto at = [](uintptr_t a) { return reinterpret_cast<void*>(a); };
  const uintptr_t base = uintptr_t{1} << 20;
  const auto direct = [&](int32_t c_type, int32_t compute, void* C, int64_t ldc) {
    tcgemm_wmma_config r{};
    EXPECT_EQ(tcgemm_wmma_config_resolve(TCGEMM_TYPE_F16, compute, nullptr, &r, nullptr), TCGEMM_SUCCESS);
    return lowp_wmma_args(lowp_problem('N', 'N', 300, 200, 500, 1.0f, at(base), 304, at(base), 512, 0.0f, C, ldc,
                                       TCGEMM_TYPE_F16, c_type, compute),
                          r)
        .c_direct;
  };
  EXPECT_TRUE(direct(TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, at(base), 304));
  EXPECT_TRUE(direct(TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, at(base + 32), 308)) << "ldc 1232 bytes: 16-byte units";
  EXPECT_TRUE(direct(TCGEMM_TYPE_F16, TCGEMM_TYPE_F16, at(base), 304));
  EXPECT_FALSE(direct(TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, at(base + 16), 304)) << "C 16-byte aligned";
  EXPECT_FALSE(direct(TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, at(base), 302)) << "ldc 1208 bytes";
  EXPECT_FALSE(direct(TCGEMM_TYPE_F16, TCGEMM_TYPE_F16, at(base), 300)) << "ldc 600 bytes";
  EXPECT_FALSE(direct(TCGEMM_TYPE_F16, TCGEMM_TYPE_F32, at(base), 304)) << "F16 C from FP32 accumulators";
  EXPECT_FALSE(direct(TCGEMM_TYPE_BF16, TCGEMM_TYPE_F32, at(base), 304)) << "BF16 C";
  // WMMA's leading dimension is 32 bits: past 2^24 elements C goes through the scratch (64-bit indices).
  EXPECT_TRUE(direct(TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, at(base), int64_t(1) << 24));
  EXPECT_FALSE(direct(TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, at(base), (int64_t(1) << 24) + 8)) << "ldc past 2^24";
  EXPECT_FALSE(direct(TCGEMM_TYPE_F16, TCGEMM_TYPE_F16, at(base), (int64_t(1) << 32) + 8)) << "ldc past 2^32";
}

}  // namespace
