// GPU tests of the reference-design WMMA families (the article's Examples 1-4 and the Figure 1 peak benchmark),
// called through the public C API and compared with cuBLAS DGEMM on the same fresh random data
// (gpu_test_util.hpp: NaN-poisoned C, NaN padding around A and B, guard sentinels around C).
//
// Layouts matter as much as sizes here: an operand takes the direct WMMA path only when its base pointer
// is 32-byte aligned and its leading dimension a multiple of 4, so each size runs with packed, padded,
// padded-to-aligned and offset-by-one operands to exercise both the direct and the staged paths.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "gpu_test_util.hpp"
#include "tcgemm/tcgemm.h"

namespace tcgemm::test {
namespace {

constexpr int64_t kWmma = 8;       // C tile edge (m and n of the fragment)
constexpr int64_t kWmmaK = 4;      // fragment depth
constexpr int64_t kAlignLd = 4;    // leading-dimension multiple that allows the direct WMMA path

// ---- layouts ------------------------------------------------------------------------------------------
enum class Layout {
  Packed,         // ld = rows, base from cudaMalloc (direct path when rows % 4 == 0)
  PaddedOdd,      // ld = rows + odd pad: never a multiple of 4 for every operand, staged path
  PaddedAligned,  // ld = next multiple of 4 above rows: direct path with ld > rows
  Offset1,        // base pointers one element past cudaMalloc's: misaligned, staged path
  Offset4Aligned  // base pointers 4 elements (32 bytes) in, with aligned ld: direct path at an offset
};

const char* layout_name(Layout l) {
  switch (l) {
    case Layout::Packed: return "packed";
    case Layout::PaddedOdd: return "padded_odd";
    case Layout::PaddedAligned: return "padded_aligned";
    case Layout::Offset1: return "offset1";
    case Layout::Offset4Aligned: return "offset4_aligned";
  }
  return "unknown";
}

// Parameter printers: ctest shows each case's GetParam(); without these gtest prints raw bytes.
void PrintTo(Layout l, std::ostream* os) { *os << layout_name(l); }

int64_t aligned_pad(int64_t rows) {  // pad > 0 making rows + pad a multiple of kAlignLd
  const int64_t r = std::max<int64_t>(rows, 1);
  return (r / kAlignLd + 1) * kAlignLd - r;
}

GemmSpec make_spec(int64_t m, int64_t n, int64_t k, Layout layout, uint64_t seed) {
  GemmSpec s;
  s.m = m;
  s.n = n;
  s.k = k;
  s.seed = seed;
  switch (layout) {
    case Layout::Packed: break;
    case Layout::PaddedOdd:
      s.lda_pad = 3;
      s.ldb_pad = 5;
      s.ldc_pad = 7;
      break;
    case Layout::PaddedAligned:
      s.lda_pad = aligned_pad(m);
      s.ldb_pad = aligned_pad(k);
      s.ldc_pad = aligned_pad(m);
      break;
    case Layout::Offset1:
      s.a_offset = s.b_offset = s.c_offset = 1;
      break;
    case Layout::Offset4Aligned:
      s.lda_pad = aligned_pad(m);
      s.ldb_pad = aligned_pad(k);
      s.ldc_pad = aligned_pad(m);
      s.a_offset = s.b_offset = s.c_offset = 4;
      break;
  }
  return s;
}

const std::vector<Layout> kAllLayouts = {Layout::Packed, Layout::PaddedOdd, Layout::PaddedAligned, Layout::Offset1,
                                         Layout::Offset4Aligned};

// ---- calls through the public API ----------------------------------------------------------------------
tcgemm_status call_single(const GemmSpec&, const double* A, int64_t lda, const double* B, int64_t ldb, double* C,
                          int64_t ldc, cudaStream_t s) {
  return tcgemm_dmma_single(A, lda, B, ldb, C, ldc, s);
}
tcgemm_status call_row(const GemmSpec& g, const double* A, int64_t lda, const double* B, int64_t ldb, double* C,
                       int64_t ldc, cudaStream_t s) {
  return tcgemm_dmma_row(g.k, A, lda, B, ldb, C, ldc, s);
}
tcgemm_status call_warp_per_block(const GemmSpec& g, const double* A, int64_t lda, const double* B, int64_t ldb,
                                  double* C, int64_t ldc, cudaStream_t s) {
  return tcgemm_dmma_warp_per_block(g.m, g.n, g.k, A, lda, B, ldb, C, ldc, s);
}
GemmCall block_tile_call(int32_t tile_m, int32_t tile_n) {
  return [tile_m, tile_n](const GemmSpec& g, const double* A, int64_t lda, const double* B, int64_t ldb, double* C,
                          int64_t ldc, cudaStream_t s) {
    return tcgemm_dmma_block_tile(g.m, g.n, g.k, tile_m, tile_n, A, lda, B, ldb, C, ldc, s);
  };
}

// RAII non-blocking stream: the kernels must run on it, not on the legacy default stream.
class Stream {
 public:
  Stream() { ok_ = cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking) == cudaSuccess; }
  ~Stream() {
    if (ok_) (void)cudaStreamDestroy(s_);
  }
  cudaStream_t get() const { return s_; }
  bool ok() const { return ok_; }

 private:
  cudaStream_t s_ = nullptr;
  bool ok_ = false;
};

// ---- single (Example 1): C(8x8) = A(8x4) B(4x8) ------------------------------------------------------------
class SingleTest : public ::testing::TestWithParam<Layout> {};

TEST_P(SingleTest, MatchesCublas) {
  TCGEMM_REQUIRE_GPU();
  EXPECT_TRUE(run_and_check(make_spec(kWmma, kWmma, kWmmaK, GetParam(), 11), call_single));
}

INSTANTIATE_TEST_SUITE_P(Layouts, SingleTest, ::testing::ValuesIn(kAllLayouts),
                         [](const ::testing::TestParamInfo<Layout>& i) { return std::string(layout_name(i.param)); });

// ---- row (Example 2): C(8x8) = A(8xK) B(Kx8), any k --------------------------------------------------------
struct RowCase {
  int64_t k;
  Layout layout;
};

class RowTest : public ::testing::TestWithParam<RowCase> {};

TEST_P(RowTest, MatchesCublas) {
  TCGEMM_REQUIRE_GPU();
  const RowCase c = GetParam();
  EXPECT_TRUE(run_and_check(make_spec(kWmma, kWmma, c.k, c.layout, 100 + uint64_t(c.k)), call_row));
}

std::vector<RowCase> row_cases() {
  std::vector<RowCase> v;
  for (int64_t k : {0, 1, 3, 4, 7, 8, 9, 16, 31, 33, 100, 257})
    for (Layout l : {Layout::Packed, Layout::PaddedOdd, Layout::Offset1}) v.push_back({k, l});
  v.push_back({100, Layout::PaddedAligned});
  v.push_back({100, Layout::Offset4Aligned});
  return v;
}

void PrintTo(const RowCase& c, std::ostream* os) { *os << "k" << c.k << "_" << layout_name(c.layout); }

INSTANTIATE_TEST_SUITE_P(Sizes, RowTest, ::testing::ValuesIn(row_cases()),
                         [](const ::testing::TestParamInfo<RowCase>& i) {
                           return "k" + std::to_string(i.param.k) + "_" + layout_name(i.param.layout);
                         });

// ---- warp_per_block (Example 3): any m, n, k -----------------------------------------------------------------
struct Mnk {
  int64_t m, n, k;
};

// The sizes (1, 7, 8, 9, 31, 33, 100, 257) on the diagonal, then mixed shapes: tall, wide,
// k not a multiple of 4, k = 0 (C = 0 without reading the NaN in C).
const std::vector<Mnk> kShapes = {
    {1, 1, 1},     {7, 7, 7},    {8, 8, 8},      {9, 9, 9},    {31, 31, 31}, {33, 33, 33},
    {100, 100, 100}, {257, 257, 257}, {1, 257, 7},  {257, 1, 9},  {33, 100, 31}, {100, 33, 257},
    {31, 33, 5},   {9, 7, 1},    {8, 8, 3},      {64, 40, 6},  {33, 9, 0}};

std::string mnk_name(const Mnk& s) {
  std::ostringstream o;
  o << "m" << s.m << "_n" << s.n << "_k" << s.k;
  return o.str();
}

struct MnkLayout {
  Mnk size;
  Layout layout;
};

class WarpPerBlockTest : public ::testing::TestWithParam<MnkLayout> {};

TEST_P(WarpPerBlockTest, MatchesCublas) {
  TCGEMM_REQUIRE_GPU();
  const MnkLayout c = GetParam();
  EXPECT_TRUE(run_and_check(make_spec(c.size.m, c.size.n, c.size.k, c.layout, 7), call_warp_per_block));
}

std::vector<MnkLayout> warp_per_block_cases() {
  std::vector<MnkLayout> v;
  for (const Mnk& s : kShapes)
    for (Layout l : kAllLayouts) v.push_back({s, l});
  return v;
}

void PrintTo(const MnkLayout& c, std::ostream* os) { *os << mnk_name(c.size) << "_" << layout_name(c.layout); }

INSTANTIATE_TEST_SUITE_P(Sizes, WarpPerBlockTest, ::testing::ValuesIn(warp_per_block_cases()),
                         [](const ::testing::TestParamInfo<MnkLayout>& i) {
                           return mnk_name(i.param.size) + "_" + layout_name(i.param.layout);
                         });

// ---- block_tile (Example 4): tile_m x tile_n C tile per block ---------------------------------------------
struct BlockTileCase {
  int32_t tile_m, tile_n;
  Mnk size;
  Layout layout;
};

class BlockTileTest : public ::testing::TestWithParam<BlockTileCase> {};

TEST_P(BlockTileTest, MatchesCublas) {
  TCGEMM_REQUIRE_GPU();
  const BlockTileCase c = GetParam();
  EXPECT_TRUE(run_and_check(make_spec(c.size.m, c.size.n, c.size.k, c.layout, 23), block_tile_call(c.tile_m, c.tile_n)));
}

// Tile shapes: the article's 16x16, the default 32x32, one warp (8x8), non-square and non-power-of-two warp
// grids, and the largest legal shapes (32 warps: 128x16, 64x32; 16 warps: 8x128).
std::vector<BlockTileCase> block_tile_cases() {
  const std::vector<std::pair<int32_t, int32_t>> tiles = {{8, 8},   {16, 16}, {32, 32}, {24, 40},
                                                          {64, 32}, {128, 16}, {8, 128}};
  const std::vector<Mnk> sizes = {{16, 16, 16}, {100, 257, 33}, {257, 100, 9}, {31, 7, 5}};
  std::vector<BlockTileCase> v;
  for (const auto& t : tiles)
    for (const Mnk& s : sizes)
      for (Layout l : {Layout::Packed, Layout::Offset1}) v.push_back({t.first, t.second, s, l});
  v.push_back({32, 32, {100, 100, 100}, Layout::PaddedOdd});
  v.push_back({32, 32, {100, 100, 100}, Layout::PaddedAligned});
  v.push_back({32, 32, {100, 100, 100}, Layout::Offset4Aligned});
  v.push_back({32, 32, {33, 9, 0}, Layout::Packed});
  return v;
}

void PrintTo(const BlockTileCase& c, std::ostream* os) {
  *os << "tile" << c.tile_m << "x" << c.tile_n << "_" << mnk_name(c.size) << "_" << layout_name(c.layout);
}

INSTANTIATE_TEST_SUITE_P(Shapes, BlockTileTest, ::testing::ValuesIn(block_tile_cases()),
                         [](const ::testing::TestParamInfo<BlockTileCase>& i) {
                           return "tile" + std::to_string(i.param.tile_m) + "x" + std::to_string(i.param.tile_n) +
                                  "_" + mnk_name(i.param.size) + "_" + layout_name(i.param.layout);
                         });

// Default tile (0, 0 -> 32x32 from the configuration defaults).
TEST(BlockTile, DefaultTileMatchesCublas) {
  TCGEMM_REQUIRE_GPU();
  EXPECT_TRUE(run_and_check(make_spec(70, 90, 45, Layout::PaddedOdd, 5), block_tile_call(0, 0)));
}

// ---- a non-default stream ---------------------------------------------------------------------------------
TEST(DmmaBasicStream, EveryFamilyRunsOnTheGivenStream) {
  TCGEMM_REQUIRE_GPU();
  Stream stream;
  ASSERT_TRUE(stream.ok());
  EXPECT_TRUE(run_and_check(make_spec(8, 8, 4, Layout::Offset1, 31), call_single, stream.get()));
  EXPECT_TRUE(run_and_check(make_spec(8, 8, 37, Layout::Packed, 32), call_row, stream.get()));
  EXPECT_TRUE(run_and_check(make_spec(100, 33, 31, Layout::PaddedOdd, 33), call_warp_per_block, stream.get()));
  EXPECT_TRUE(run_and_check(make_spec(100, 100, 100, Layout::Packed, 34), block_tile_call(16, 32), stream.get()));
}

// ---- grids beyond gridDim.y = 65535: the column loop in the kernels ------------------------------------------
// n / 8 = 65537 column tiles (warp_per_block) and n / 16 > 65535 column blocks (block_tile 8x16).
TEST(DmmaBasicLargeGrid, WideMatrixCoversEveryColumn) {
  TCGEMM_REQUIRE_GPU();
  const int64_t column_tiles = 65537;
  EXPECT_TRUE(run_and_check(make_spec(3, 8 * column_tiles, 2, Layout::Packed, 41), call_warp_per_block));
  EXPECT_TRUE(run_and_check(make_spec(3, 16 * column_tiles, 2, Layout::Offset1, 42), block_tile_call(8, 16)));
}

// ---- peak (Figure 1): every 8x8 tile of C = niter * A(8x4) B(4x8), checked exactly ------------------------------
struct PeakCase {
  int64_t m, n, ldc;
  int32_t niter;
  int64_t lda, ldb;
  int64_t offset;  // elements added to all three base pointers
};

std::string peak_name(const PeakCase& c) {
  std::ostringstream o;
  o << "m" << c.m << "_n" << c.n << "_ldc" << c.ldc << "_niter" << c.niter << "_lda" << c.lda << "_ldb" << c.ldb
    << "_off" << c.offset;
  return o.str();
}

class PeakTest : public ::testing::TestWithParam<PeakCase> {};

// Small integers in [-3, 3]: every product and every partial sum (|x| <= niter * 4 * 9) is an exact
// double, so the result must equal niter * (A B) bit for bit; anything else (a skipped or repeated
// mma_sync, a wrong tile) shows up as a mismatch.
void check_peak(const PeakCase& c, cudaStream_t stream) {
  const int64_t a_total = c.offset + c.lda * kWmmaK + kGuardElements;
  const int64_t b_total = c.offset + c.ldb * kWmma + kGuardElements;
  const int64_t c_total = c.offset + c.ldc * c.n + kGuardElements;
  const std::vector<double> hA = random_matrix(kWmma, kWmmaK, c.lda, 501, c.offset, a_total,
                                               std::numeric_limits<double>::quiet_NaN(), true);
  const std::vector<double> hB = random_matrix(kWmmaK, kWmma, c.ldb, 502, c.offset, b_total,
                                               std::numeric_limits<double>::quiet_NaN(), true);
  std::vector<double> hC0(size_t(c_total), guard_nan());
  for (int64_t j = 0; j < c.n; ++j)
    for (int64_t i = 0; i < c.m; ++i) hC0[size_t(c.offset + j * c.ldc + i)] = poison_nan();

  DeviceBuffer<double> dA{size_t(a_total)}, dB{size_t(b_total)}, dC{size_t(c_total)};
  ASSERT_TRUE(dA.ok() && dB.ok() && dC.ok());
  CUDA_OK(dA.upload(hA));
  CUDA_OK(dB.upload(hB));
  CUDA_OK(dC.upload(hC0));
  const tcgemm_status st = tcgemm_dmma_peak(c.m, c.n, c.niter, dA.get() + c.offset, c.lda, dB.get() + c.offset,
                                            c.ldb, dC.get() + c.offset, c.ldc, stream);
  ASSERT_EQ(st, TCGEMM_SUCCESS) << tcgemm_last_error();
  CUDA_OK(cudaStreamSynchronize(stream));
  std::vector<double> hC;
  CUDA_OK(dC.download(&hC));

  double ab[kWmma][kWmma];
  for (int64_t i = 0; i < kWmma; ++i)
    for (int64_t j = 0; j < kWmma; ++j) {
      double s = 0;
      for (int64_t p = 0; p < kWmmaK; ++p)
        s += hA[size_t(c.offset + p * c.lda + i)] * hB[size_t(c.offset + j * c.ldb + p)];
      ab[i][j] = s;
    }
  int64_t bad = 0;
  for (int64_t idx = 0; idx < c_total; ++idx) {
    const int64_t rel = idx - c.offset;
    const bool inside = rel >= 0 && rel < c.ldc * c.n && rel % c.ldc < c.m;
    const double got = hC[size_t(idx)];
    if (inside) {
      const int64_t i = rel % c.ldc, j = rel / c.ldc;
      const double want = double(c.niter) * ab[i % kWmma][j % kWmma];
      if (!(got == want)) {
        if (bad < 5) ADD_FAILURE() << "C(" << i << "," << j << ") = " << got << ", expected " << want;
        ++bad;
      }
    } else if (!same_bits(got, hC0[size_t(idx)])) {
      if (bad < 5) ADD_FAILURE() << "element " << idx << " outside C was written: " << got;
      ++bad;
    }
  }
  EXPECT_EQ(bad, 0) << peak_name(c);
}

TEST_P(PeakTest, ExactlyNiterTimesAB) {
  TCGEMM_REQUIRE_GPU();
  check_peak(GetParam(), nullptr);
}

void PrintTo(const PeakCase& c, std::ostream* os) { *os << peak_name(c); }

INSTANTIATE_TEST_SUITE_P(
    Cases, PeakTest,
    ::testing::Values(PeakCase{37, 21, 40, 1, 8, 4, 0},   // the case: m, n not multiples of 8, ldc > m
                      PeakCase{37, 21, 40, 5, 8, 4, 0},   //   ... with niter = 5
                      PeakCase{37, 21, 41, 5, 9, 5, 1},   // odd leading dims and misaligned bases: staged paths
                      PeakCase{8, 8, 8, 1, 8, 4, 0},      // one tile, all direct
                      PeakCase{1, 1, 1, 5, 8, 4, 0},      // one element
                      PeakCase{64, 32, 64, 5, 12, 8, 4},  // whole blocks, padded but aligned operands
                      PeakCase{257, 100, 260, 3, 8, 4, 0}),
    [](const ::testing::TestParamInfo<PeakCase>& i) { return peak_name(i.param); });

TEST(Peak, RunsOnTheGivenStream) {
  TCGEMM_REQUIRE_GPU();
  Stream stream;
  ASSERT_TRUE(stream.ok());
  check_peak(PeakCase{37, 21, 40, 5, 8, 4, 0}, stream.get());
}

// n / 16 column blocks > 65535: the peak kernel's column loop.
TEST(Peak, WideMatrixCoversEveryColumn) {
  TCGEMM_REQUIRE_GPU();
  check_peak(PeakCase{3, 16 * 65536 + 9, 3, 2, 8, 4, 0}, nullptr);
}

}  // namespace
}  // namespace tcgemm::test
