// tcgemm_gemm_ex (families wmma_lowp and mma_lowp) on the GPU against an FP64 host reference: every input type and WMMA
// shape, both tiles, every operand form, sizes that are not multiples of any tile, paddings 0 and 16 bytes,
// beta = 0 with a NaN-poisoned C, every C type, FP16 accumulation. Inputs are random in [-1, 1] and made
// exactly representable in the input type on the host (TF32 excepted: float inputs are rounded by tcgemm, in
// its packed copies or as the run-time kernel loads them),
// so the tolerance counts what the GPU rounds: TF32 inputs, the accumulation of k products, and C's type:
//   |C - ref| <= 2 (2 u_in + (k + 2) u_acc) |alpha| sum_l |a_il| |b_lj| + 2 u_out |ref| + 2 (u_acc + u_out) |beta c|
//                + s_acc + s_out (s: the subnormal spacing of the accumulator's and C's type, where rounding's
//                error is absolute).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gpu_test_util.hpp"
#include "tcgemm/tcgemm.h"

namespace {

struct Case {
  char ta, tb;
  int64_t m, n, k;
  int32_t in, c_type, compute;
  int32_t shape, tile, pad;
  float alpha, beta;
  int64_t offset = 0;  // A and B start this many elements into their buffers (1: only 2-byte aligned)
  bool odd_ld = false;  // odd leading dimensions on the default path too (TF32 packs any)
  int32_t stages = 0;   // the WMMA family's pipeline depth (0: its default)
  int32_t tile_n = 0;   // the WMMA family's C tile columns (0: tile)
  int32_t tile_k = 0;   // the WMMA family's k-tile depth (0: its default)
  bool odd_ldb = false;  // B's leading dimension odd even with whole_ld (one operand by cp.async, one not)
  bool whole_ld = false;  // WMMA family: leading dimensions of whole 16-byte units (its cp.async copies)
  bool may_not_fit = false;  // a refusal for shared memory (TCGEMM_ERROR_SHARED_MEMORY) is this case's pass
  bool whole_ldc = false;    // ldc of whole 32-byte units: the WMMA family writes inner fragments of an
                             // accumulator-typed C straight from registers
  bool odd16_ldc = false;    // with whole_ldc: ldc an odd number of 16-byte units (still the direct route)
};

std::string name(const Case& c) {
  return std::string(1, c.ta) + c.tb + " " + std::to_string(c.m) + "x" + std::to_string(c.n) + "x" +
         std::to_string(c.k) + " in " + std::to_string(c.in) + " C " + std::to_string(c.c_type) + " acc " +
         std::to_string(c.compute) + " shape " + std::to_string(c.shape) + " tile " + std::to_string(c.tile) + "x" + std::to_string(c.tile_n) +
         " pad " + std::to_string(c.pad) + " stages " + std::to_string(c.stages) + " beta " + std::to_string(c.beta) +
         (c.whole_ld ? " whole ld" : "") + (c.whole_ldc ? " whole ldc" : "") + (c.odd16_ldc ? " odd16 ldc" : "") + (c.odd_ldb ? " odd ldb" : "") + " tile_k " + std::to_string(c.tile_k) + (c.offset ? " offset " + std::to_string(c.offset) : "");
}

int bytes_of(int32_t t) { return t == TCGEMM_TYPE_F32 ? 4 : 2; }
double unit_roundoff(int32_t t) {
  return t == TCGEMM_TYPE_F32 ? std::ldexp(1.0, -24) : t == TCGEMM_TYPE_F16 ? std::ldexp(1.0, -11) : std::ldexp(1.0, -8);
}
// The spacing of type t's subnormal numbers: below the smallest normal number a rounding's error is absolute,
// up to half of it, not relative (F16 values under 6.1e-5 are spaced 2^-24 apart; an F16 C of 3e-6 times
// beta rounds with a relative error near 1%).
double subnormal_spacing(int32_t t) {
  return t == TCGEMM_TYPE_F32   ? std::ldexp(1.0, -149)
         : t == TCGEMM_TYPE_F16 ? std::ldexp(1.0, -24)
                                : std::ldexp(1.0, -133);
}

// Host storage of n elements of type t, filled from doubles (rounded to t) and read back as doubles.
struct Typed {
  int32_t type;
  std::vector<unsigned char> bytes;
  Typed(int32_t t, size_t n) : type(t), bytes((n ? n : 1) * size_t(bytes_of(t))) {}  // k = 0: A has no column
  void set(size_t i, double v) {
    if (type == TCGEMM_TYPE_F32) {
      const float f = float(v);
      std::memcpy(&bytes[i * 4], &f, 4);
    } else if (type == TCGEMM_TYPE_F16) {
      const __half h = __float2half_rn(float(v));
      std::memcpy(&bytes[i * 2], &h, 2);
    } else {
      const __nv_bfloat16 h = __float2bfloat16_rn(float(v));
      std::memcpy(&bytes[i * 2], &h, 2);
    }
  }
  double get(size_t i) const {
    if (type == TCGEMM_TYPE_F32) {
      float f;
      std::memcpy(&f, &bytes[i * 4], 4);
      return f;
    }
    if (type == TCGEMM_TYPE_F16) {
      __half h;
      std::memcpy(&h, &bytes[i * 2], 2);
      return __half2float(h);
    }
    __nv_bfloat16 h;
    std::memcpy(&h, &bytes[i * 2], 2);
    return __bfloat162float(h);
  }
};

struct Device {
  void* p = nullptr;
  explicit Device(const Typed& h) {
    if (cudaMalloc(&p, h.bytes.size()) == cudaSuccess)
      (void)cudaMemcpy(p, h.bytes.data(), h.bytes.size(), cudaMemcpyHostToDevice);
  }
  ~Device() { cudaFree(p); }
};

::testing::AssertionResult run_case(const Case& c, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const bool na = c.ta == 'N', nb = c.tb == 'N';
  const int64_t a_rows = na ? c.m : c.k, a_cols = na ? c.k : c.m, b_rows = nb ? c.k : c.n, b_cols = nb ? c.n : c.k;
  // Odd strides for the WMMA family; for the default path (shape 0: no configuration) strides of whole
  // 16-byte units past the rows, which the mma.sync fast path needs. Guard rows in C either way.
  const bool fast = c.shape == 0;
  const bool whole = (fast && !c.odd_ld) || c.whole_ld;
  const int64_t lda = whole ? (a_rows + 7) / 8 * 8 + 8 : a_rows + 3;
  const int64_t ldb = whole && !c.odd_ldb ? (b_rows + 7) / 8 * 8 + 16 : b_rows + 1;
  const int64_t unit16 = 16 / bytes_of(c.c_type);  // C elements per 16 bytes
  int64_t ldc = c.whole_ldc ? (c.m + 15) / 16 * 16 + 16 : c.m + 2;
  if (c.whole_ldc && c.odd16_ldc) ldc += unit16;  // 16 bytes past a multiple of 32
  const int64_t off = c.offset;
  Typed a(c.in, size_t(lda * a_cols + off)), b(c.in, size_t(ldb * b_cols + off)), c0(c.c_type, size_t(ldc * c.n));
  for (size_t i = 0; i < size_t(lda * a_cols + off); ++i) a.set(i, u(rng));
  for (size_t i = 0; i < size_t(ldb * b_cols + off); ++i) b.set(i, u(rng));
  for (int64_t j = 0; j < c.n; ++j)
    for (int64_t i = 0; i < ldc; ++i) {
      const bool guard = i >= c.m;
      c0.set(size_t(i + j * ldc), guard || c.beta == 0.0f ? std::nan("") : u(rng));
    }
  Device da(a), db(b), dc(c0);
  if (!da.p || !db.p || !dc.p) return ::testing::AssertionFailure() << "cudaMalloc failed";
  tcgemm_wmma_config cfg{};
  cfg.shape = c.shape;
  cfg.tile = c.tile;
  cfg.pad_a = cfg.pad_b = c.pad;
  cfg.stages = c.stages;
  cfg.tile_n = c.tile_n;
  cfg.tile_k = c.tile_k;
  const void* a_first = static_cast<const unsigned char*>(da.p) + off * bytes_of(c.in);
  const void* b_first = static_cast<const unsigned char*>(db.p) + off * bytes_of(c.in);
  const tcgemm_status st = tcgemm_gemm_ex(c.ta, c.tb, c.m, c.n, c.k, c.alpha, a_first, c.in, lda, b_first, c.in, ldb, c.beta,
                                          dc.p, c.c_type, ldc, c.compute, fast ? nullptr : &cfg, nullptr);
  if (st == TCGEMM_ERROR_SHARED_MEMORY && c.may_not_fit) return ::testing::AssertionSuccess();
  if (st != TCGEMM_SUCCESS) return ::testing::AssertionFailure() << name(c) << ": " << tcgemm_last_error();
  if (cudaDeviceSynchronize() != cudaSuccess) return ::testing::AssertionFailure() << name(c) << ": kernel failed";
  Typed got(c.c_type, c0.bytes.size() / size_t(bytes_of(c.c_type)));
  (void)cudaMemcpy(got.bytes.data(), dc.p, got.bytes.size(), cudaMemcpyDeviceToHost);

  const double u_in = c.in == TCGEMM_TYPE_F32 ? std::ldexp(1.0, -11) : 0.0;  // TF32 rounds float inputs
  const double u_acc = unit_roundoff(c.compute), u_out = unit_roundoff(c.c_type);
  int64_t bad = 0;
  std::string first;
  for (int64_t j = 0; j < c.n; ++j)
    for (int64_t i = 0; i < ldc; ++i) {
      const size_t at = size_t(i + j * ldc);
      const double v = got.get(at);
      if (i >= c.m) {  // guard rows: never written
        if (!std::isnan(v) && ++bad == 1) first = "guard row written at " + std::to_string(i) + "," + std::to_string(j);
        continue;
      }
      double sum = 0.0, mag = 0.0;
      for (int64_t l = 0; l < c.k; ++l) {
        const double x = a.get(size_t(off + (na ? i + l * lda : l + i * lda)));
        const double y = b.get(size_t(off + (nb ? l + j * ldb : j + l * ldb)));
        sum += x * y;
        mag += std::fabs(x * y);
      }
      const double cin = c.beta == 0.0f ? 0.0 : c0.get(at);
      const double ref = double(c.alpha) * sum + double(c.beta) * cin;
      const double tol = 2.0 * (2.0 * u_in + double(c.k + 2) * u_acc) * std::fabs(c.alpha) * mag +
                         2.0 * u_out * std::fabs(ref) + 2.0 * (u_acc + u_out) * std::fabs(double(c.beta) * cin) +
                         subnormal_spacing(c.compute) + subnormal_spacing(c.c_type) + 1e-30;
      if (!(std::fabs(v - ref) <= tol) && ++bad == 1)
        first = "(" + std::to_string(i) + "," + std::to_string(j) + ") got " + std::to_string(v) + " want " +
                std::to_string(ref) + " tol " + std::to_string(tol);
    }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << name(c) << ": " << bad << " bad elements, first " << first;
}

const char* const kForms[] = {"NN", "NT", "TN", "TT"};

// The device's opt-in shared memory per block: the fixed configurations of 256-wide tiles (174 KB) exceed a
// cc 8.0 device's 163 KB and are refused there.
int64_t smem_optin() {
  int dev = 0, bytes = 0;
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess)
    return 0;
  return bytes;
}
constexpr int64_t kSm90SmemOptin = 227 * 1024;

// Case c on its tile's fixed configuration, which runs the pipelined kernel: tile_k of four k steps (64 16-bit
// elements, 32 TF32), 3 stages and 16-byte copies (c.pad must be 16 bytes' worth). On a device with less than
// 227 KB per block (cc 8.0: 163 KB) a 256-wide tile's configuration may be refused.
Case fixed_config_case(Case c, const int32_t* tile) {
  c.tile = tile[0];
  c.tile_n = tile[1];
  c.tile_k = c.in == TCGEMM_TYPE_F32 ? 32 : 64;
  c.stages = 3;
  c.whole_ld = true;
  c.may_not_fit = smem_optin() < kSm90SmemOptin && tile[0] != tile[1];
  return c;
}

TEST(WmmaLowp, F16EveryShapeFormTileAndPadding) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 1;
  for (int32_t shape : {TCGEMM_WMMA_16x16x16, TCGEMM_WMMA_32x8x16, TCGEMM_WMMA_8x32x16})
    for (const char* f : kForms)
      for (int32_t tile : {64, 128})
        for (int32_t pad : {0, 8})
          EXPECT_TRUE(run_case({f[0], f[1], 131, 77, 90, TCGEMM_TYPE_F16, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, shape,
                                tile, pad, 1.25f, -0.5f},
                               seed++));
}

TEST(WmmaLowp, Bf16EveryShapeAndForm) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 100;
  for (int32_t shape : {TCGEMM_WMMA_16x16x16, TCGEMM_WMMA_32x8x16, TCGEMM_WMMA_8x32x16})
    for (const char* f : kForms)
      for (int32_t c_type : {TCGEMM_TYPE_F32, TCGEMM_TYPE_BF16})
        EXPECT_TRUE(run_case({f[0], f[1], 70, 150, 65, TCGEMM_TYPE_BF16, c_type, TCGEMM_TYPE_F32, shape, 64, 8,
                              -0.75f, 0.5f},
                             seed++));
}

TEST(WmmaLowp, Tf32EveryFormTileAndPadding) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 200;
  for (const char* f : kForms)
    for (int32_t tile : {64, 128})
      for (int32_t pad : {0, 4})
        EXPECT_TRUE(run_case({f[0], f[1], 100, 129, 203, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32,
                              TCGEMM_WMMA_16x16x8, tile, pad, 1.0f, 2.0f},
                             seed++));
}

TEST(WmmaLowp, F16AccumulationAndF16Output) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 300;
  for (int32_t shape : {TCGEMM_WMMA_16x16x16, TCGEMM_WMMA_32x8x16, TCGEMM_WMMA_8x32x16})
    for (const char* f : kForms) {
      EXPECT_TRUE(run_case({f[0], f[1], 65, 66, 40, TCGEMM_TYPE_F16, TCGEMM_TYPE_F16, TCGEMM_TYPE_F16, shape, 64, 8,
                            0.5f, 0.25f},
                           seed++));
      EXPECT_TRUE(run_case({f[0], f[1], 65, 66, 40, TCGEMM_TYPE_F16, TCGEMM_TYPE_F16, TCGEMM_TYPE_F32, shape, 64, 8,
                            0.5f, 0.25f},
                           seed++));
    }
}

// The WMMA shapes of an input type: TF32 has 16x16x8 only.
std::vector<int32_t> shapes_of(int32_t in) {
  if (in == TCGEMM_TYPE_F32) return {TCGEMM_WMMA_16x16x8};
  return {TCGEMM_WMMA_16x16x16, TCGEMM_WMMA_32x8x16, TCGEMM_WMMA_8x32x16};
}

constexpr int32_t kTile64[2] = {64, 64}, kTile128[2] = {128, 128}, kTile256x128[2] = {256, 128},
                  kTile128x256[2] = {128, 256};

// The family's input and accumulator types (each with a C type): F16 with FP32 and with FP16 accumulation,
// BF16, TF32.
struct InAcc {
  int32_t in, c_type, compute;
};
constexpr InAcc kInAccs[] = {{TCGEMM_TYPE_F16, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32},
                             {TCGEMM_TYPE_BF16, TCGEMM_TYPE_BF16, TCGEMM_TYPE_F32},
                             {TCGEMM_TYPE_F16, TCGEMM_TYPE_F16, TCGEMM_TYPE_F16},
                             {TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32}};

// The pipeline: every stage count (1: the article's copy-then-compute loop; 2..4: cp.async rings), every
// form, shape, input type and C tile (64 x 64, 128 x 128, 256 x 128, 128 x 256), with leading dimensions of whole 16-byte units so both operands go by
// cp.async. k = 300 is ten k-tiles of 32 (the rings wrap), the last one partial; m and n are not multiples
// of 8, so the last 16-byte piece along an m- or n-contiguous operand is partly outside it (zero-filled);
// k = 20 is fewer k-tiles than stages. beta = 0 over a NaN C in part of the cases.
TEST(WmmaLowp, RingEveryStageCountFormShapeAndTile) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 900;
  for (const InAcc t : kInAccs) {
    const bool tf32 = t.in == TCGEMM_TYPE_F32;
    const std::vector<int32_t> shapes = shapes_of(t.in);
    for (int32_t shape : shapes)
      for (const char* f : kForms)
        for (int32_t stages : {1, 2, 3, 4})
          for (const int32_t* tile : {kTile64, kTile128, kTile256x128, kTile128x256}) {
            Case c{f[0], f[1], 203, 141, 300, t.in, t.c_type, t.compute, shape, tile[0], tf32 ? 4 : 8,
                   1.0f, (stages + tile[0] / 64 + tile[1] / 64) % 2 ? 0.0f : -0.5f};
            c.tile_n = tile[1];
            c.stages = stages;
            c.whole_ld = true;
            c.whole_ldc = stages % 2 == 0;  // inner C fragments straight from registers, where C takes them
            EXPECT_TRUE(run_case(c, seed++));
          }
    Case few{'N', 'T', 70, 33, 20, t.in, t.c_type, t.compute, shapes.back(), 256, tf32 ? 4 : 8, 0.5f, 0.25f};
    few.tile_n = 128;
    few.stages = 4;
    few.whole_ld = true;
    EXPECT_TRUE(run_case(few, seed++));
  }
}

// The family's pipelined kernel (compile-time tile_k, paddings and depth), which exactly the fixed
// configurations take: 128 x 128, 256 x 128 and 128 x 256 tiles, tile_k 64 (TF32: 32), 16-byte paddings, 3
// stages, 16-byte copies. Every input and accumulator type, shape, tile and form, with k = 300 (four whole
// k-tiles of 64 and a partial one, or nine and a partial of 32), k = 256 (whole k-tiles only), k = 20 (one
// partial k-tile, fewer than the stages), edges of m and n inside a 16-byte piece, beta = 0 over a NaN C, each
// with ldc = m + 2 and with ldc of whole 32-byte units (then an accumulator-typed C takes its inner fragments
// straight from registers, and its edge fragments through the scratch); and
// the same configuration with B's leading dimension odd, which must run the run-time kernel instead (TF32: the
// packed copies, whose leading dimensions are whole, and the pipelined kernel). The
// pipelined kernel keeps the 8-wide shapes' m- or n-contiguous tiles unstretched, so those forms also test its
// own layout. A configuration is validated with the run-time kernel's stretched layout, and one whose 8-wide
// stretched tile of 256 needs more shared memory than a block has is refused (TCGEMM_ERROR_SHARED_MEMORY; such
// a configuration cannot run, so a case that is not refused must compute C correctly). k = 123 (TF32 59) is
// two k-tiles, the second partial.
TEST(WmmaLowp, PipelinedEveryTypeShapeTileAndForm) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 1700;
  for (const InAcc t : kInAccs) {
    const bool tf32 = t.in == TCGEMM_TYPE_F32;
    for (int32_t shape : shapes_of(t.in))
      for (const char* f : kForms)
        for (const int32_t* tile : {kTile128, kTile256x128, kTile128x256})
          for (int64_t k : {int64_t{300}, int64_t{256}, int64_t{20}, int64_t{tf32 ? 59 : 123}})
            for (bool odd_ldb : {false, true}) {
              if (odd_ldb && k != 300) continue;
              Case c = fixed_config_case({f[0], f[1], 203, 141, k, t.in, t.c_type, t.compute, shape, 0,
                                          tf32 ? 4 : 8, 1.0f, k == 256 ? -0.5f : 0.0f},
                                         tile);
              c.odd_ldb = odd_ldb;
              // An m- (n-) contiguous operand of 8-wide fragments is validated stretched to twice its width
              // (the run-time kernel's layout); along a 256-wide tile that takes 3 stages past 227 KB.
              c.may_not_fit = c.may_not_fit || (shape == TCGEMM_WMMA_8x32x16 && f[0] == 'N' && tile[0] == 256) ||
                              (shape == TCGEMM_WMMA_32x8x16 && f[1] == 'T' && tile[1] == 256);
              EXPECT_TRUE(run_case(c, seed++));
              // C's fragments straight from registers where they lie inside m x n (an accumulator-typed C),
              // with ldc whole 32-byte units and (k = 300) an odd number of 16-byte units.
              c.whole_ldc = true;
              c.odd16_ldc = k == 300;
              EXPECT_TRUE(run_case(c, seed++));
            }
  }
}

// The pipelined kernel's order of C tiles (groups of 8 m tiles, down m within a group): m = 1189 is ten
// 128-row tiles (a whole group and a partial one of two) or five 256-row ones (one partial group), with
// several n tiles, so every block's tile comes from the grouped order and the last tiles of both are partial.
TEST(WmmaLowp, PipelinedTileGroups) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 1900;
  for (const char* f : {"NN", "TN"})
    for (const int32_t* tile : {kTile128, kTile256x128, kTile128x256}) {
      Case c = fixed_config_case({f[0], f[1], 1189, 300, 72, TCGEMM_TYPE_F16, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32,
                                  TCGEMM_WMMA_16x16x16, 0, 8, 1.0f, 0.5f},
                                 tile);
      c.whole_ldc = true;
      EXPECT_TRUE(run_case(c, seed++));
    }
}

// The pipelined kernel over many k-tiles with C tiles whole and partial: m = 520 and n = 300 give every fixed
// tile C tiles whole in both operands (no copy tests an edge) beside partial ones (zero fill past m or n), and
// k = 600 is nine whole k-tiles of 64 (18 of 32 for TF32) and a partial one, so the ring of 3 slots wraps
// several times before the k edge. Every input and accumulator type and form on the 16 x 16 shapes (TF32: the
// packed 'T','N' copies), and F16's 8-wide shapes in 'T','N'. (PipelinedEveryTypeShapeTileAndForm's m = 203 and
// n = 141 leave no whole 256-wide C tile.)
TEST(WmmaLowp, PipelinedManyKTilesWholeAndPartialTiles) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 1950;
  for (const InAcc t : kInAccs) {
    const bool tf32 = t.in == TCGEMM_TYPE_F32;
    for (int32_t shape : shapes_of(t.in))
      for (const char* f : kForms)
        for (const int32_t* tile : {kTile128, kTile256x128, kTile128x256}) {
          if (shape != shapes_of(t.in).front() && !(t.in == TCGEMM_TYPE_F16 && t.compute == TCGEMM_TYPE_F32 &&
                                                    f[0] == 'T' && f[1] == 'N'))
            continue;
          Case c = fixed_config_case({f[0], f[1], 520, 300, 600, t.in, t.c_type, t.compute, shape, 0, tf32 ? 4 : 8,
                                      0.75f, tile[0] == 128 ? -0.5f : 0.0f},
                                     tile);
          c.whole_ldc = tile[1] == 256;
          EXPECT_TRUE(run_case(c, seed++));
        }
  }
}

// The pipelined kernel when no k-tile is copied: alpha = 0 (A and B not read) and k = 0 only scale C by beta,
// on the direct route (an accumulator-typed C with ldc whole 32-byte units) and through the scratch. TF32 is
// not packed for these, so its cases run the run-time kernel in place.
TEST(WmmaLowp, PipelinedScalesCOnly) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 2000;
  for (const InAcc t : kInAccs)
    for (const int32_t* tile : {kTile128, kTile256x128})
      for (const bool alpha_zero : {true, false})
        for (const bool whole_ldc : {true, false}) {
          const bool tf32 = t.in == TCGEMM_TYPE_F32;
          Case c = fixed_config_case({'N', 'N', 203, 141, alpha_zero ? 40 : 0, t.in, t.c_type, t.compute,
                                      shapes_of(t.in).front(), 0, tf32 ? 4 : 8, alpha_zero ? 0.0f : 1.0f, -0.75f},
                                     tile);
          c.whole_ldc = whole_ldc;
          EXPECT_TRUE(run_case(c, seed++));
        }
}

// alpha = 0: BLAS reads neither A nor B, so NaN there must stay out of C, on every route a call can take: the
// default path (which hands alpha = 0 to the WMMA family), a fixed configuration (the pipelined kernel; TF32 is
// not packed then) and a 64 x 64 one (the run-time kernel), in every input type and accumulator, every form,
// with beta = -2 (C scaled exactly) and beta = 0 over a NaN C (C set to zero).
TEST(WmmaLowp, AlphaZeroReadsNeitherANorB) {
  TCGEMM_REQUIRE_GPU();
  const int64_t m = 203, n = 141, k = 70;
  std::mt19937_64 rng(2300);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const InAcc t : kInAccs) {
    const bool tf32 = t.in == TCGEMM_TYPE_F32;
    Typed a(t.in, size_t(m * k)), b(t.in, size_t(k * n));
    for (size_t i = 0; i < size_t(m * k); ++i) a.set(i, std::nan(""));
    for (size_t i = 0; i < size_t(k * n); ++i) b.set(i, std::nan(""));
    const Device da(a), db(b);
    ASSERT_TRUE(da.p && db.p);
    tcgemm_wmma_config fixed{shapes_of(t.in).front(), 128, tf32 ? 32 : 64, tf32 ? 4 : 8, tf32 ? 4 : 8, 3, 128, {0}};
    tcgemm_wmma_config small = fixed;
    small.tile = small.tile_n = 64;
    const tcgemm_wmma_config* const configs[] = {nullptr, &fixed, &small};
    for (const tcgemm_wmma_config* cfg : configs)
      for (const char* f : kForms)
        for (const float beta : {-2.0f, 0.0f}) {
          SCOPED_TRACE(::testing::Message() << "input " << t.in << " compute " << t.compute << " form " << f
                                            << " config " << (cfg ? cfg->tile : 0) << " beta " << beta);
          Typed c0(t.c_type, size_t(m * n));
          for (size_t i = 0; i < size_t(m * n); ++i) c0.set(i, beta == 0.0f ? std::nan("") : u(rng));
          Device dc(c0);
          ASSERT_TRUE(dc.p);
          const int64_t lda = f[0] == 'N' ? m : k, ldb = f[1] == 'N' ? k : n;
          ASSERT_EQ(tcgemm_gemm_ex(f[0], f[1], m, n, k, 0.0f, da.p, t.in, lda, db.p, t.in, ldb, beta, dc.p, t.c_type,
                                   m, t.compute, cfg, nullptr),
                    TCGEMM_SUCCESS)
              << tcgemm_last_error();
          ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
          Typed got(t.c_type, size_t(m * n));
          ASSERT_EQ(cudaMemcpy(got.bytes.data(), dc.p, got.bytes.size(), cudaMemcpyDeviceToHost), cudaSuccess);
          int64_t bad = 0;
          for (size_t i = 0; i < size_t(m * n); ++i) {
            const double want = beta == 0.0f ? 0.0 : double(beta) * c0.get(i);  // exact in C's type
            bad += !(got.get(i) == want);
          }
          EXPECT_EQ(bad, 0) << "elements of C that are not beta * C";
        }
  }
}

// The copy paths the ring test does not take: a tile_k whose lines are not a power-of-two number of 16-byte
// pieces (48 halves, 24 floats: consecutive pieces with a division each), no padding with 16-byte copies
// (the stretched 8-wide layouts included), and one operand by cp.async beside one staged element by element
// (B's leading dimension odd).
TEST(WmmaLowp, IrregularTileKPaddingZeroAndMixedCopies) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 1300;
  for (const int32_t in : {TCGEMM_TYPE_F16, TCGEMM_TYPE_F32}) {
    const bool tf32 = in == TCGEMM_TYPE_F32;
    const std::vector<int32_t> shapes = shapes_of(in);
    for (int32_t shape : shapes)
      for (const char* f : kForms) {
        Case irregular{f[0], f[1], 150, 139, 250, in, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, shape, 128, tf32 ? 4 : 8,
                       1.0f, 0.5f};
        irregular.tile_k = tf32 ? 24 : 48;
        irregular.stages = 3;
        irregular.whole_ld = true;
        EXPECT_TRUE(run_case(irregular, seed++));
        Case unpadded{f[0], f[1], 150, 139, 250, in, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, shape, 128, 0, 1.0f, 0.0f};
        unpadded.tile_n = 256;
        unpadded.stages = 2;
        unpadded.whole_ld = true;
        EXPECT_TRUE(run_case(unpadded, seed++));
        Case mixed{f[0], f[1], 150, 139, 250, in, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, shape, 64, tf32 ? 4 : 8,
                   -1.0f, 2.0f};
        mixed.stages = 3;
        mixed.whole_ld = true;
        mixed.odd_ldb = true;
        EXPECT_TRUE(run_case(mixed, seed++));
      }
  }
}

// beta = 0 never reads the NaN-poisoned C; alpha = 0 only scales C; k = 0 the same; 1 x 1 x 1 and a k that
// is not a multiple of tile_k or of the shape's k.
TEST(WmmaLowp, BlasEdges) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 400;
  for (int32_t in : {TCGEMM_TYPE_F16, TCGEMM_TYPE_BF16, TCGEMM_TYPE_F32}) {
    const int32_t shape = in == TCGEMM_TYPE_F32 ? TCGEMM_WMMA_16x16x8 : TCGEMM_WMMA_16x16x16;
    const int32_t pad = in == TCGEMM_TYPE_F32 ? 4 : 8;
    EXPECT_TRUE(run_case({'N', 'N', 200, 70, 33, in, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, shape, 64, pad, 1.0f, 0.0f}, seed++));
    EXPECT_TRUE(run_case({'T', 'N', 40, 50, 60, in, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, shape, 64, pad, 0.0f, -2.0f}, seed++));
    EXPECT_TRUE(run_case({'N', 'T', 40, 50, 0, in, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, shape, 64, pad, 1.0f, 3.0f}, seed++));
    EXPECT_TRUE(run_case({'N', 'N', 1, 1, 1, in, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, shape, 128, pad, 1.0f, 0.5f}, seed++));
    EXPECT_TRUE(run_case({'T', 'T', 300, 260, 1001, in, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, shape, 128, pad, 1.0f, 0.5f}, seed++));
  }
}

// The default path (no configuration) for F16 and BF16 with FP32 accumulation: the mma.sync fast path
// (family mma_lowp) wherever each operand's contiguous extent is a multiple of 8; sizes that are not
// multiples of its 128 x 128 x 32 tiles, one tile exactly, k shorter than its 4-stage pipeline, every form
// and C type, beta = 0 over NaN; then sizes the fast path does not take (the WMMA family answers).
TEST(MmaLowp, DefaultPathEveryFormTypeAndEdge) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 700;
  for (int32_t in : {TCGEMM_TYPE_F16, TCGEMM_TYPE_BF16})
    for (const char* f : kForms) {
      const char ta = f[0], tb = f[1];
      EXPECT_TRUE(run_case({ta, tb, 264, 136, 520, in, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, 0, 0, 0, 1.0f, 0.0f}, seed++));
      EXPECT_TRUE(run_case({ta, tb, 128, 128, 32, in, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, 0, 0, 0, -1.5f, 0.5f}, seed++));
      EXPECT_TRUE(run_case({ta, tb, 8, 16, 8, in, in, TCGEMM_TYPE_F32, 0, 0, 0, 1.0f, 2.0f}, seed++));
      EXPECT_TRUE(run_case({ta, tb, 392, 264, 1000, in, in, TCGEMM_TYPE_F32, 0, 0, 0, 0.5f, 0.0f}, seed++));
    }
  // F16 with FP16 accumulation (m16n8k16 with f16 accumulators; C is F16, the only C this accumulator
  // writes), every form, beta = 0 over NaN and beta != 0 on a size off the tile grid.
  for (const char* f : kForms) {
    EXPECT_TRUE(run_case({f[0], f[1], 264, 136, 520, TCGEMM_TYPE_F16, TCGEMM_TYPE_F16, TCGEMM_TYPE_F16, 0, 0, 0, 1.0f, 0.0f},
                         seed++));
    EXPECT_TRUE(run_case({f[0], f[1], 136, 72, 64, TCGEMM_TYPE_F16, TCGEMM_TYPE_F16, TCGEMM_TYPE_F16, 0, 0, 0, -0.5f, 1.5f},
                         seed++));
  }
  EXPECT_TRUE(run_case({'N', 'T', 1544, 2400, 264, TCGEMM_TYPE_F16, TCGEMM_TYPE_F16, TCGEMM_TYPE_F16, 0, 0, 0, 1.0f, 0.5f},
                       seed++));  // the 256 x 128 tiling
  // Transposed A, untransposed B: only k must be a multiple of 8, m and n may be anything.
  EXPECT_TRUE(run_case({'T', 'N', 203, 77, 264, TCGEMM_TYPE_F16, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, 0, 0, 0, 1.0f, -1.0f}, seed++));
  EXPECT_TRUE(run_case({'T', 'N', 1, 1, 8, TCGEMM_TYPE_BF16, TCGEMM_TYPE_BF16, TCGEMM_TYPE_F32, 0, 0, 0, 1.0f, 0.0f}, seed++));
  // Not taken by the fast path: m = 203 untransposed, k = 37 (WMMA family, default configuration).
  EXPECT_TRUE(run_case({'N', 'N', 203, 64, 40, TCGEMM_TYPE_F16, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, 0, 0, 0, 1.0f, 0.5f}, seed++));
  EXPECT_TRUE(run_case({'T', 'N', 64, 64, 37, TCGEMM_TYPE_BF16, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, 0, 0, 0, 1.0f, 0.0f}, seed++));
  // A and B one element off 16-byte alignment, sizes the fast path would otherwise take: the WMMA family.
  for (const char* f : kForms) {
    Case c{f[0], f[1], 136, 72, 200, TCGEMM_TYPE_F16, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, 0, 0, 0, 1.0f, 0.5f};
    c.offset = 1;
    EXPECT_TRUE(run_case(c, seed++));
  }
}

// tcgemm_sgemm on FP32 device arrays in every precision: the inputs are random floats, so FP16 and BF16
// round them (u_in 2^-11 and 2^-8) as TF32 does; FP32 rounds nothing but its k additions.
// host: tcgemm_sgemm_host on the host vectors instead (C's padding rows then stay as they were, NaN).
::testing::AssertionResult run_sgemm(char ta, char tb, int64_t m, int64_t n, int64_t k, int32_t precision,
                                     float alpha, float beta, uint64_t seed, bool host = false) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const bool na = ta == 'N', nb = tb == 'N';
  const int64_t lda = (na ? m : k) + 1, ldb = (nb ? k : n) + 2, ldc = m + 1;
  std::vector<float> a(size_t(lda * (na ? k : m)) + 1), b(size_t(ldb * (nb ? n : k)) + 1), c(size_t(ldc * n));
  for (float& v : a) v = u(rng);
  for (float& v : b) v = u(rng);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < ldc; ++i) c[size_t(i + j * ldc)] = i >= m || beta == 0.0f ? std::nanf("") : u(rng);
  float *da = nullptr, *db = nullptr, *dc = nullptr;
  if (cudaMalloc(&da, a.size() * 4) != cudaSuccess || cudaMalloc(&db, b.size() * 4) != cudaSuccess ||
      cudaMalloc(&dc, c.size() * 4) != cudaSuccess)
    return ::testing::AssertionFailure() << "cudaMalloc failed";
  cudaMemcpy(da, a.data(), a.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), b.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dc, c.data(), c.size() * 4, cudaMemcpyHostToDevice);
  std::vector<float> got(c.size());
  bool ran = false;
  if (host) {
    got = c;
    ran = tcgemm_sgemm_host(ta, tb, m, n, k, alpha, a.data(), lda, b.data(), ldb, beta, got.data(), ldc, precision) ==
          TCGEMM_SUCCESS;
  } else {
    const tcgemm_status st = tcgemm_sgemm(ta, tb, m, n, k, alpha, da, lda, db, ldb, beta, dc, ldc, precision, nullptr);
    ran = st == TCGEMM_SUCCESS && cudaDeviceSynchronize() == cudaSuccess;
    cudaMemcpy(got.data(), dc, got.size() * 4, cudaMemcpyDeviceToHost);
  }
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  const std::string what = std::string(host ? "host " : "") + ta + tb + " " + std::to_string(m) + "x" + std::to_string(n) + "x" +
                           std::to_string(k) + " precision " + std::to_string(precision);
  if (!ran) return ::testing::AssertionFailure() << what << ": " << tcgemm_last_error();
  const double u_in = precision == TCGEMM_PRECISION_BF16 ? std::ldexp(1.0, -8)
                      : precision == TCGEMM_PRECISION_FP32 ? 0.0 : std::ldexp(1.0, -11);
  const double u32 = std::ldexp(1.0, -24);
  int64_t bad = 0;
  std::string first;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < ldc; ++i) {
      const float v = got[size_t(i + j * ldc)];
      if (i >= m) {
        if (!std::isnan(v) && ++bad == 1) first = "guard row written";
        continue;
      }
      double sum = 0.0, mag = 0.0;
      for (int64_t l = 0; l < k; ++l) {
        const double x = a[size_t(na ? i + l * lda : l + i * lda)], y = b[size_t(nb ? l + j * ldb : j + l * ldb)];
        sum += x * y;
        mag += std::fabs(x * y);
      }
      const double cin = beta == 0.0f ? 0.0 : c[size_t(i + j * ldc)];
      const double ref = double(alpha) * sum + double(beta) * cin;
      const double tol = 2.0 * (2.0 * u_in + double(k + 2) * u32) * std::fabs(alpha) * mag + 4.0 * u32 * std::fabs(ref) +
                         4.0 * u32 * std::fabs(double(beta) * cin) + 1e-30;
      if (!(std::fabs(v - ref) <= tol) && ++bad == 1)
        first = "(" + std::to_string(i) + "," + std::to_string(j) + ") got " + std::to_string(v) + " want " +
                std::to_string(ref);
    }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << what << ": " << bad << " bad elements, first " << first;
}

// TF32 without a configuration: op(A) and op(B) packed k-contiguous and rounded to TF32, then mma.sync
// m16n8k8 (family mma_lowp): every form and C type, k not a multiple of 4 (the packs' zero padding), odd
// leading dimensions and a start one element off 16 bytes (the packs take any layout), beta = 0 over NaN.
TEST(MmaLowp, Tf32DefaultPathPacked) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 900;
  for (const char* f : kForms) {
    const char ta = f[0], tb = f[1];
    EXPECT_TRUE(run_case({ta, tb, 264, 136, 520, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, 0, 0, 0, 1.0f, 0.0f},
                         seed++));
    Case odd{ta, tb, 131, 77, 37, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, 0, 0, 0, -1.25f, 0.5f};
    odd.odd_ld = true;
    odd.offset = 1;
    EXPECT_TRUE(run_case(odd, seed++));
    EXPECT_TRUE(run_case({ta, tb, 1, 1, 1, TCGEMM_TYPE_F32, TCGEMM_TYPE_BF16, TCGEMM_TYPE_F32, 0, 0, 0, 1.0f, 2.0f}, seed++));
    EXPECT_TRUE(run_case({ta, tb, 70, 90, 203, TCGEMM_TYPE_F32, TCGEMM_TYPE_F16, TCGEMM_TYPE_F32, 0, 0, 0, 0.5f, 0.0f}, seed++));
  }
}

// The 256 x 128 tiling, which problems with at least one such tile per SM take (132 on the H100; smaller
// problems, as in the tests above, take 128 x 128): every form of F16, BF16 and TF32, m and n not multiples
// of the tile, k within one k-tile and over several with a partial last one.
TEST(MmaLowp, LargeTilingEveryFormAndType) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 1000;
  for (const char* f : kForms)
    EXPECT_TRUE(run_case({f[0], f[1], 1544, 2400, 24, TCGEMM_TYPE_F16, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, 0, 0, 0, 1.0f,
                          0.0f},
                         seed++));
  EXPECT_TRUE(run_case({'T', 'N', 1544, 2400, 136, TCGEMM_TYPE_BF16, TCGEMM_TYPE_BF16, TCGEMM_TYPE_F32, 0, 0, 0, 1.0f,
                        -0.5f},
                       seed++));
  EXPECT_TRUE(run_case({'N', 'T', 1544, 2400, 72, TCGEMM_TYPE_BF16, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, 0, 0, 0, 2.0f,
                        0.0f},
                       seed++));
  Case tf32{'N', 'N', 1544, 2400, 21, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, 0, 0, 0, 1.0f, 0.25f};
  tf32.odd_ld = true;
  EXPECT_TRUE(run_case(tf32, seed++));
  EXPECT_TRUE(run_case({'T', 'T', 1544, 2400, 40, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, 0, 0, 0, 1.0f,
                        0.0f},
                       seed++));
  // m (and n for op(B) = B^T) whole 64-element blocks: on sm_90 the m- and n-contiguous tiles come as one 3-D
  // box each (mma_lowp's tma_map.hpp), whose last C tiles reach past m = 1600 by 3 of their 4 blocks and past
  // n = 2368 by one, and k over several k-tiles with a partial last one.
  const Case whole_blocks[] = {
      {'N', 'N', 1600, 2368, 200, TCGEMM_TYPE_F16, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, 0, 0, 0, 1.0f, 0.5f},
      {'N', 'T', 1600, 2368, 136, TCGEMM_TYPE_BF16, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, 0, 0, 0, -1.0f, 0.0f},
      {'T', 'T', 1600, 2368, 72, TCGEMM_TYPE_F16, TCGEMM_TYPE_F16, TCGEMM_TYPE_F16, 0, 0, 0, 1.0f, 0.0f}};
  for (const Case& c : whole_blocks) EXPECT_TRUE(run_case(c, seed++));
}

// The 3-stage cp.async ring of the 256 x 128 tiling wrapped several times: k over 4 k-tiles (64 elements of
// F16/BF16, 32 of TF32 per k-tile) with a partial last one, in the forms the loads differ most (NN, TT).
TEST(MmaLowp, LargeTilingPipelineWraps) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 1100;
  EXPECT_TRUE(run_case({'N', 'N', 1544, 2400, 264, TCGEMM_TYPE_F16, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, 0, 0, 0, 1.0f,
                        0.0f},
                       seed++));
  EXPECT_TRUE(run_case({'T', 'T', 1544, 2400, 328, TCGEMM_TYPE_BF16, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, 0, 0, 0, -1.0f,
                        0.5f},
                       seed++));
  EXPECT_TRUE(run_case({'N', 'T', 1544, 2400, 150, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, 0, 0, 0, 1.0f,
                        0.0f},
                       seed++));
}

// TF32 rounds its FP32 inputs to nearest (cvt.rna), not by dropping the 13 low mantissa bits as a tensor core
// fed raw FP32 bits would: every A element is +-(1 + 3 * 2^-12), which rounds to 1 + 2^-10 (truncation gives
// 1), every B element +-1, so each C element is exactly (number of + products - number of - ones) (1 + 2^-10)
// in FP32. Checked exactly on the default path (packed copies), through tcgemm_sgemm, and on the WMMA family.
TEST(MmaLowp, Tf32RoundsInputsToNearest) {
  TCGEMM_REQUIRE_GPU();
  const int64_t m = 136, n = 72, k = 40;
  std::mt19937_64 rng(77);
  std::vector<float> a(size_t(m * k)), b(size_t(k * n));
  const float above = 1.0f + 3.0f * std::ldexp(1.0f, -12);
  for (float& v : a) v = (rng() & 1) ? above : -above;
  for (float& v : b) v = (rng() & 1) ? 1.0f : -1.0f;
  std::vector<float> want(size_t(m * n));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      int count = 0;
      for (int64_t l = 0; l < k; ++l) count += (a[size_t(i + l * m)] > 0) == (b[size_t(l + j * k)] > 0) ? 1 : -1;
      want[size_t(i + j * m)] = float(count) * (1.0f + std::ldexp(1.0f, -10));
    }
  float *da = nullptr, *db = nullptr, *dc = nullptr;
  ASSERT_EQ(cudaMalloc(&da, a.size() * 4), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&db, b.size() * 4), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&dc, want.size() * 4), cudaSuccess);
  cudaMemcpy(da, a.data(), a.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), b.size() * 4, cudaMemcpyHostToDevice);
  // Routes: 0 the default (packed copies, mma.sync), 1 the WMMA family's default configuration (a fixed one:
  // packed copies, pipelined kernel), 2 tcgemm_sgemm, 3 64 x 64 tiles (the run-time kernel in place, which
  // rounds each element as it loads a fragment).
  tcgemm_wmma_config wmma{};
  wmma.shape = TCGEMM_WMMA_16x16x8;
  tcgemm_wmma_config in_place = wmma;
  in_place.tile = 64;
  for (int route = 0; route < 4; ++route) {
    std::vector<float> got(want.size(), std::nanf(""));
    cudaMemcpy(dc, got.data(), got.size() * 4, cudaMemcpyHostToDevice);
    tcgemm_status st;
    if (route == 2)
      st = tcgemm_sgemm('N', 'N', m, n, k, 1.0f, da, m, db, k, 0.0f, dc, m, TCGEMM_PRECISION_TF32, nullptr);
    else
      st = tcgemm_gemm_ex('N', 'N', m, n, k, 1.0f, da, TCGEMM_TYPE_F32, m, db, TCGEMM_TYPE_F32, k, 0.0f, dc,
                          TCGEMM_TYPE_F32, m, TCGEMM_TYPE_F32,
                          route == 1 ? &wmma : route == 3 ? &in_place : nullptr, nullptr);
    ASSERT_EQ(st, TCGEMM_SUCCESS) << tcgemm_last_error();
    ASSERT_EQ(cudaMemcpy(got.data(), dc, got.size() * 4, cudaMemcpyDeviceToHost), cudaSuccess);
    int64_t bad = 0;
    for (size_t i = 0; i < got.size(); ++i) bad += got[i] != want[i];
    EXPECT_EQ(bad, 0) << "route "
                      << (route == 0   ? "default"
                          : route == 1 ? "WMMA 16x16x8"
                          : route == 2 ? "tcgemm_sgemm"
                                       : "WMMA 16x16x8, 64 x 64 tiles")
                      << ": e.g. C(0,0) = " << got[0] << ", want " << want[0];
  }
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
}

TEST(Sgemm, EveryPrecisionAndForm) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 500;
  for (int32_t precision :
       {TCGEMM_PRECISION_TF32, TCGEMM_PRECISION_FP16, TCGEMM_PRECISION_BF16, TCGEMM_PRECISION_FP32})
    for (const char* f : kForms) {
      EXPECT_TRUE(run_sgemm(f[0], f[1], 97, 130, 75, precision, 1.5f, -0.5f, seed++));
      EXPECT_TRUE(run_sgemm(f[0], f[1], 64, 64, 513, precision, 1.0f, 0.0f, seed++));
      // Converted copies of whole 16-byte columns: FP16 and BF16 take the mma.sync fast path.
      EXPECT_TRUE(run_sgemm(f[0], f[1], 136, 264, 520, precision, 1.0f, 0.25f, seed++));
    }
  // alpha = 0 and k = 0 only scale C (A and B not converted or read).
  for (int32_t precision : {TCGEMM_PRECISION_FP16, TCGEMM_PRECISION_FP32}) {
    EXPECT_TRUE(run_sgemm('N', 'N', 33, 17, 20, precision, 0.0f, 2.0f, seed++));
    EXPECT_TRUE(run_sgemm('N', 'N', 33, 17, 0, precision, 1.0f, -1.0f, seed++));
  }
}

// tcgemm_sgemm_host: the same products on host arrays (odd leading dimensions, beta = 0 over NaN, C's
// padding rows left as they were), every precision and form, alpha = 0 and k = 0 (C scaled on the host).
TEST(SgemmHost, EveryPrecisionAndForm) {
  TCGEMM_REQUIRE_GPU();
  uint64_t seed = 1500;
  for (int32_t precision :
       {TCGEMM_PRECISION_TF32, TCGEMM_PRECISION_FP16, TCGEMM_PRECISION_BF16, TCGEMM_PRECISION_FP32})
    for (const char* f : kForms) {
      EXPECT_TRUE(run_sgemm(f[0], f[1], 97, 130, 75, precision, 1.5f, -0.5f, seed++, true));
      EXPECT_TRUE(run_sgemm(f[0], f[1], 136, 264, 520, precision, 1.0f, 0.0f, seed++, true));
    }
  EXPECT_TRUE(run_sgemm('N', 'T', 33, 17, 20, TCGEMM_PRECISION_TF32, 0.0f, 2.0f, seed++, true));
  EXPECT_TRUE(run_sgemm('T', 'N', 33, 17, 0, TCGEMM_PRECISION_BF16, 1.0f, 0.0f, seed++, true));
}

}  // namespace
