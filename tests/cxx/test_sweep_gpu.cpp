// GPU smoke test of the sweep: a 2-point grid through the same runner as `tcgemm-bench sweep` (run_points),
// its CSV rows checked field by field; skipped points (invalid, too much shared memory) and --profile-once.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "gpu_test_util.hpp"
#include "sweep/sweep_format.hpp"
#include "sweep/sweep_grid.hpp"
#include "sweep/sweep_runner.hpp"

namespace tcgemm::sweep {
namespace {

// Small and quick (the GPU suite also runs under compute-sanitizer); the program itself insists on >= 10.
constexpr int64_t kSize = 256;
constexpr int kSmokeReps = 3;
constexpr int kSmokeWarmup = 1;

RunnerOptions smoke_options() {
  RunnerOptions o;
  o.reps = kSmokeReps;
  o.warmup = kSmokeWarmup;
  o.seed = 12345;
  return o;
}

SweepSpec two_point_spec() {
  SweepSpec spec;
  spec.family = TCGEMM_FAMILY_SHARED_A;
  spec.tiles = {{32, 32}};
  spec.pad_a = {0, 2};
  spec.m = spec.n = spec.k = kSize;
  return spec;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

double number(const std::string& field) {
  char* end = nullptr;
  const double v = std::strtod(field.c_str(), &end);
  EXPECT_TRUE(!field.empty() && *end == '\0') << "not a number: '" << field << "'";
  return v;
}

TEST(SweepGpu, TwoPointSweepProducesCheckedTimedCsvRows) {
  TCGEMM_REQUIRE_GPU();
  SweepRunner runner(smoke_options());
  std::string error;
  ASSERT_TRUE(runner.init(&error)) << error;
  const std::vector<SweepPoint> points = expand(two_point_spec());
  ASSERT_EQ(points.size(), 2u);
  const std::vector<SweepRow> rows = run_points(runner, points, stderr);
  ASSERT_EQ(rows.size(), 2u);

  const std::vector<std::string> lines = lines_of(format_csv(rows));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], csv_header());
  const std::vector<std::string> header = split_csv_record(lines[0]);
  const auto col = [&](const char* name) {
    for (size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return i;
    ADD_FAILURE() << "no column " << name;
    return size_t(0);
  };
  // k eps: tighter than the shared check's 2 (k + 1) eps, and still far above what random data gives.
  const double tolerance = double(kSize) * std::numeric_limits<double>::epsilon();
  for (int i = 0; i < 2; ++i) {
    SCOPED_TRACE(lines[size_t(i + 1)]);
    const std::vector<std::string> f = split_csv_record(lines[size_t(i + 1)]);
    ASSERT_EQ(f.size(), header.size());
    EXPECT_EQ(f[col("status")], "ok");
    EXPECT_EQ(f[col("device")], runner.device_name());
    EXPECT_FALSE(f[col("device")].empty());
    EXPECT_EQ(f[col("family")], "shared_a");
    EXPECT_EQ(f[col("M")], "256");
    EXPECT_EQ(f[col("N")], "256");
    EXPECT_EQ(f[col("K")], "256");
    EXPECT_EQ(f[col("tile_m")], "32");
    EXPECT_EQ(f[col("tile_n")], "32");
    EXPECT_EQ(f[col("tile_k")], "4");
    EXPECT_EQ(f[col("pad_a")], i == 0 ? "0" : "2");
    EXPECT_EQ(f[col("stages")], "1");
    EXPECT_EQ(number(f[col("smem_bytes")]), 8.0 * (32 + 2 * i) * 4);
    EXPECT_GE(number(f[col("blocks_per_sm")]), 1.0);
    const double median = number(f[col("median_ms")]);
    EXPECT_GT(median, 0.0);
    EXPECT_LE(number(f[col("min_ms")]), median);
    EXPECT_GE(number(f[col("max_ms")]), median);
    EXPECT_GT(number(f[col("tflops")]), 0.0);
    EXPECT_GT(number(f[col("cublas_tflops")]), 0.0);
    EXPECT_GT(number(f[col("ratio_to_cublas")]), 0.0);
    EXPECT_LE(number(f[col("max_rel_err")]), tolerance);
    EXPECT_EQ(f[col("bank_conflicts_ld")], kNotMeasured);
  }
}

// Every lower precision through the same runner (tcgemm_gemm_ex on the WMMA family against cuBLAS GemmEx on
// the same rounded inputs): both tiles of one padding, checked and timed, the family column naming the
// precision and shape, and an invalid tile (96) skipped with the library's reason.
TEST(SweepGpu, LowerPrecisionPointsAreCheckedAndTimed) {
  TCGEMM_REQUIRE_GPU();
  SweepRunner runner(smoke_options());
  std::string error;
  ASSERT_TRUE(runner.init(&error)) << error;
  const struct {
    Precision precision;
    int32_t shape;
    const char* family;
  } kCases[] = {{Precision::kF16, TCGEMM_WMMA_32x8x16, "wmma_lowp f16 32x8x16"},
                {Precision::kF16Acc16, TCGEMM_WMMA_16x16x16, "wmma_lowp f16acc16 16x16x16"},
                {Precision::kBf16, TCGEMM_WMMA_8x32x16, "wmma_lowp bf16 8x32x16"},
                {Precision::kTf32, TCGEMM_WMMA_16x16x8, "wmma_lowp tf32 16x16x8"}};
  for (const auto& c : kCases) {
    SCOPED_TRACE(c.family);
    SweepSpec spec = table3_spec(c.precision, c.shape);
    spec.tiles = {{64, 64}, {96, 96}, {128, 128}};
    spec.tile_k = {64};
    spec.stages = {3};
    spec.m = 200;  // not a multiple of any tile
    spec.n = 136;
    spec.k = 264;
    const std::vector<SweepRow> rows = run_points(runner, expand(spec), nullptr);
    ASSERT_EQ(rows.size(), 3u);
    for (int i : {0, 2}) {
      EXPECT_EQ(rows[size_t(i)].status, RowStatus::kOk) << status_text(rows[size_t(i)]);
      EXPECT_GT(rows[size_t(i)].tflops, 0.0);
      EXPECT_GT(rows[size_t(i)].cublas_tflops, 0.0);
      // Same rounded inputs on both sides: only the accumulation order differs.
      EXPECT_LT(rows[size_t(i)].max_rel_err, c.precision == Precision::kF16Acc16 ? 1e-2 : 1e-5);
    }
    EXPECT_EQ(rows[1].status, RowStatus::kSkipped);
    EXPECT_NE(rows[1].reason.find("tile"), std::string::npos) << rows[1].reason;
    const std::vector<std::string> lines = lines_of(format_csv(rows));
    ASSERT_EQ(lines.size(), 4u);
    const std::vector<std::string> f = split_csv_record(lines[1]);
    EXPECT_EQ(f[1], c.family);
    const std::string md = format_markdown(rows, MarkdownOptions{kSmokeReps});
    EXPECT_NE(md.find(std::string("### ") + c.family), std::string::npos) << md;
    EXPECT_NE(md.find("cuBLAS GemmEx"), std::string::npos) << md;
  }
}

TEST(SweepGpu, PointsThatCannotRunAreSkippedWithReasons) {
  TCGEMM_REQUIRE_GPU();
  SweepRunner runner(smoke_options());
  std::string error;
  ASSERT_TRUE(runner.init(&error)) << error;
  SweepSpec spec;
  spec.family = TCGEMM_FAMILY_SHARED_AB;
  spec.tiles = {{128, 128}};
  spec.tile_k = {256};  // 2 stages x (132*256 + 260*128) doubles: beyond any GPU's opt-in limit today
  spec.pad_a = {4, 3};  // 3 breaks the 16-byte rule
  spec.pad_b = {4};
  spec.stages = {2};
  spec.m = spec.n = spec.k = kSize;
  const std::vector<SweepRow> rows = run_points(runner, expand(spec), nullptr);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].status, RowStatus::kSkipped) << status_text(rows[0]);
  EXPECT_NE(rows[0].reason.find("bytes of shared memory"), std::string::npos) << rows[0].reason;
  EXPECT_EQ(rows[1].status, RowStatus::kSkipped) << status_text(rows[1]);
  EXPECT_NE(rows[1].reason.find("pad_a=3"), std::string::npos) << rows[1].reason;
  const std::string md = format_markdown(rows, MarkdownOptions{kSmokeReps});
  EXPECT_NE(md.find("[^1]: skipped: "), std::string::npos) << md;
  EXPECT_NE(md.find("[^2]: skipped: "), std::string::npos) << md;
}

TEST(SweepGpu, ProfileOnceRunsEachPointWithoutTiming) {
  TCGEMM_REQUIRE_GPU();
  RunnerOptions o = smoke_options();
  o.profile_once = true;
  SweepRunner runner(o);
  std::string error;
  ASSERT_TRUE(runner.init(&error)) << error;
  const std::vector<SweepRow> rows = run_points(runner, expand(two_point_spec()), nullptr);
  ASSERT_EQ(rows.size(), 2u);
  for (const SweepRow& r : rows) {
    EXPECT_EQ(r.status, RowStatus::kProfiled) << status_text(r);
    EXPECT_TRUE(std::isnan(r.median_ms));
  }
}

}  // namespace
}  // namespace tcgemm::sweep
