// CPU tests of the sweep's host side: grid parsing, expansion and validation, blocks/SM, and the ncu merge.
// The output text is in test_sweep_format_cpu.cpp, the command line in test_bench_cli_cpu.cpp, the
// correctness check in test_reference_check_cpu.cpp.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sweep/sweep_format.hpp"
#include "sweep/sweep_grid.hpp"
#include "sweep/sweep_ncu.hpp"
#include "sweep/sweep_occupancy.hpp"
#include "sweep_test_rows.hpp"

namespace tcgemm::sweep {
namespace {

using test_rows::ok_row;
using test_rows::point;

using Ints = std::vector<int32_t>;

// ---- grid parsing --------------------------------------------------------------------------------

TEST(SweepGrid, ParsesListsAndRanges) {
  Ints v;
  std::string err;
  ASSERT_TRUE(parse_int_list("32,64,96,128", &v, &err)) << err;
  EXPECT_EQ(v, (Ints{32, 64, 96, 128}));
  ASSERT_TRUE(parse_int_list("0:6:2", &v, &err)) << err;
  EXPECT_EQ(v, (Ints{0, 2, 4, 6}));
  ASSERT_TRUE(parse_int_list("0:3", &v, &err)) << err;
  EXPECT_EQ(v, (Ints{0, 1, 2, 3}));
  ASSERT_TRUE(parse_int_list(" 0:6:4 , 8,2 ", &v, &err)) << err;
  EXPECT_EQ(v, (Ints{0, 4, 8, 2}));
  ASSERT_TRUE(parse_int_list("4,4,0:4:4", &v, &err)) << err;  // repeats kept once, first-seen order
  EXPECT_EQ(v, (Ints{4, 0}));
  ASSERT_TRUE(parse_int_list("-2", &v, &err)) << err;  // parsed; validation decides
  EXPECT_EQ(v, (Ints{-2}));
}

TEST(SweepGrid, RejectsBadListsWithAReason) {
  Ints v = {7};
  std::string err;
  EXPECT_FALSE(parse_int_list("", &v, &err));
  EXPECT_EQ(err, "empty list");
  EXPECT_FALSE(parse_int_list("4,,2", &v, &err));
  EXPECT_EQ(err, "empty item in '4,,2'");
  EXPECT_FALSE(parse_int_list("4x", &v, &err));
  EXPECT_EQ(err, "'4x' is not an integer");
  EXPECT_FALSE(parse_int_list("6:0", &v, &err));
  EXPECT_EQ(err, "'6:0': the last value of a range must be >= the first");
  EXPECT_FALSE(parse_int_list("0:6:0", &v, &err));
  EXPECT_EQ(err, "'0:6:0': the step of a range must be >= 1");
  EXPECT_FALSE(parse_int_list("0:6:2:1", &v, &err));
  EXPECT_EQ(err, "'0:6:2:1': a range is first:last or first:last:step");
  EXPECT_FALSE(parse_int_list("0:b", &v, &err));
  EXPECT_EQ(err, "'0:b': a range is first:last or first:last:step with integers");
  EXPECT_FALSE(parse_int_list("0:100000", &v, &err));
  EXPECT_EQ(err, "'0:100000' expands to more than 1024 values");
  EXPECT_EQ(v, (Ints{7})) << "output untouched on error";
}

TEST(SweepGrid, ParsesTiles) {
  std::vector<TileShape> t;
  std::string err;
  ASSERT_TRUE(parse_tile_list("32,128x64,32:96:32", &t, &err)) << err;
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[0].m, 32);
  EXPECT_EQ(t[0].n, 32);
  EXPECT_EQ(t[1].m, 128);
  EXPECT_EQ(t[1].n, 64);
  EXPECT_EQ(t[2].m, 64);
  EXPECT_EQ(t[3].m, 96);
  EXPECT_EQ(t[3].n, 96);
  EXPECT_FALSE(parse_tile_list("64xq", &t, &err));
  EXPECT_EQ(err, "'64xq': a tile is T (square) or MxN with integers, e.g. 128x64");
}

TEST(SweepGrid, ParsesFamilyAndSize) {
  int32_t f = 0;
  std::string err;
  ASSERT_TRUE(parse_family("shared_ab", &f, &err));
  EXPECT_EQ(f, TCGEMM_FAMILY_SHARED_AB);
  ASSERT_TRUE(parse_family("sm90_mma", &f, &err));
  EXPECT_EQ(f, TCGEMM_FAMILY_SM90_MMA);
  EXPECT_FALSE(parse_family("block_tile", &f, &err));
  EXPECT_EQ(err, "'block_tile' is not a sweepable family (shared_a, shared_ab or sm90_mma)");
  int64_t n = 0;
  ASSERT_TRUE(parse_size("4096", &n, &err));
  EXPECT_EQ(n, 4096);
  EXPECT_FALSE(parse_size("0", &n, &err));
  EXPECT_EQ(err, "'0': a matrix size must be >= 1");
}

// ---- expansion and validation --------------------------------------------------------------------

TEST(SweepExpand, Table2IsTheArticlesGrid) {
  const std::vector<SweepPoint> p = expand(table2_spec());
  ASSERT_EQ(p.size(), 16u);
  const Ints tiles = {32, 32, 32, 32, 64, 64, 64, 64, 96, 96, 96, 96, 128, 128, 128, 128};
  const Ints pads = {0, 2, 4, 6, 0, 2, 4, 6, 0, 2, 4, 6, 0, 2, 4, 6};
  for (size_t i = 0; i < p.size(); ++i) {
    SCOPED_TRACE(point_label(p[i]));
    EXPECT_TRUE(p[i].valid()) << p[i].invalid_reason;
    EXPECT_EQ(p[i].index, i);
    EXPECT_EQ(p[i].config.family, TCGEMM_FAMILY_SHARED_A);
    EXPECT_EQ(p[i].config.tile_m, tiles[i]);
    EXPECT_EQ(p[i].config.tile_n, tiles[i]);
    EXPECT_EQ(p[i].config.tile_k, 4);  // the family default, made explicit
    EXPECT_EQ(p[i].config.pad_a, pads[i]);
    EXPECT_EQ(p[i].config.pad_b, 0);
    EXPECT_EQ(p[i].m, 3200);
    EXPECT_EQ(p[i].n, 3200);
    EXPECT_EQ(p[i].k, 3200);
    // tile_m x 4 doubles with leading dimension tile_m + pad_a; one warp per 8 rows.
    EXPECT_EQ(p[i].smem_bytes, 8 * (tiles[i] + pads[i]) * 4);
    EXPECT_EQ(p[i].threads, tiles[i] / 8 * 32);
  }
  EXPECT_EQ(point_label(p[1]), "shared_a 32x32x4 pad_a=2 pad_b=0 stages=1");
  EXPECT_EQ(point_key(p[1]), "tcgemm-sweep:shared_a:3200x3200x3200:32x32x4:pad_a=2:pad_b=0:stages=1");
}

TEST(SweepExpand, Table3IsTheArticlesGridWithAStagesAxis) {
  const std::vector<SweepPoint> p = expand(table3_spec());
  ASSERT_EQ(p.size(), 64u);  // 4 tiles x 4 tile_k x stages 1..4
  for (const SweepPoint& q : p) {
    EXPECT_EQ(q.config.family, TCGEMM_FAMILY_SHARED_AB);
    EXPECT_EQ(q.config.pad_a, 4);
    EXPECT_EQ(q.config.pad_b, 4);
    EXPECT_TRUE(q.valid()) << q.invalid_reason;  // shared-memory size is a device question, not validity
  }
  // 64x64, tile_k 128, one stage: (68*128 + 132*64) doubles.
  EXPECT_EQ(point_label(p[28]), "shared_ab 64x64x128 pad_a=4 pad_b=4 stages=1");
  EXPECT_EQ(p[28].smem_bytes, 8 * (68 * 128 + 132 * 64));
  EXPECT_EQ(point_label(p[31]), "shared_ab 64x64x128 pad_a=4 pad_b=4 stages=4");
  EXPECT_EQ(p[31].smem_bytes, 4 * 8 * (68 * 128 + 132 * 64));
  EXPECT_EQ(p[31].threads, 256);  // one warp per 8-row block row
}

TEST(SweepExpand, InvalidPointIsSkippedWithTheLibrarysReason) {
  SweepSpec spec;
  spec.family = TCGEMM_FAMILY_SHARED_A;
  spec.tiles = {{32, 32}, {48, 48}};
  spec.pad_a = {2, 3};
  const std::vector<SweepPoint> p = expand(spec);
  ASSERT_EQ(p.size(), 4u);
  EXPECT_TRUE(p[0].valid());
  ASSERT_FALSE(p[1].valid());
  ASSERT_FALSE(p[2].valid());
  // The reason is exactly what tcgemm_config_validate reports for that configuration.
  ASSERT_EQ(tcgemm_config_validate(&p[1].config), TCGEMM_ERROR_INVALID_CONFIG);
  EXPECT_EQ(p[1].invalid_reason, tcgemm_last_error());
  EXPECT_NE(p[1].invalid_reason.find("pad_a=3"), std::string::npos) << p[1].invalid_reason;
  EXPECT_NE(p[2].invalid_reason.find("tile_m=48"), std::string::npos) << p[2].invalid_reason;
  EXPECT_EQ(p[1].smem_bytes, -1);
  EXPECT_EQ(p[1].threads, -1);

  const SweepRow row = make_row(p[1], "dev");
  EXPECT_EQ(row.status, RowStatus::kSkipped);
  EXPECT_EQ(status_text(row), "skipped: " + p[1].invalid_reason);
  const std::string record = csv_record(row);
  EXPECT_EQ(record.rfind(csv_quote("skipped: " + p[1].invalid_reason)), record.size() -
            csv_quote("skipped: " + p[1].invalid_reason).size());
}

TEST(SweepExpand, PadFollowsPadAAndFamilyKnobsStayDefault) {
  SweepSpec spec;
  spec.family = TCGEMM_FAMILY_SHARED_AB;
  spec.tiles = {{64, 64}};
  spec.pad_a = {0, 2, 4};
  spec.pad_b_follows_pad_a = true;
  const std::vector<SweepPoint> p = expand(spec);
  ASSERT_EQ(p.size(), 3u);
  for (const SweepPoint& q : p) {
    EXPECT_EQ(q.config.pad_a, q.config.pad_b);
    EXPECT_EQ(q.config.tile_k, 32);  // shared_ab's default tile_k and stages, explicit in the point
    EXPECT_EQ(q.config.stages, 2);
  }
  // A knob a family does not have is reported by validation, not silently dropped.
  SweepSpec bad;
  bad.family = TCGEMM_FAMILY_SHARED_A;
  bad.pad_b = {2};
  const std::vector<SweepPoint> q = expand(bad);
  ASSERT_EQ(q.size(), 1u);
  EXPECT_NE(q[0].invalid_reason.find("pad_b=2"), std::string::npos) << q[0].invalid_reason;
}

// The cells that run the WMMA family's pipelined kernel: exactly the points whose resolved configuration is
// their tile's fixed one (tile_k of four k steps, 16-byte paddings, 3 stages at 128 x 128, 256 x 128 or
// 128 x 256). In the article's tables that is one TF32 cell of Table 2 (128 x 128 x 32, 4-element paddings) and
// none of F16's (its fixed tile_k is 64, Table 2 runs 32); a grid built round the fixed points flags those only.
TEST(SweepExpand, FixedConfigurationsAreFlagged) {
  size_t flagged = 0;
  for (const SweepPoint& q : expand(table2_spec(Precision::kTf32, TCGEMM_WMMA_16x16x8))) {
    SCOPED_TRACE(point_label(q));
    const bool fixed = q.valid() && q.wmma.tile == 128 && q.wmma.tile_n == 128 && q.wmma.tile_k == 32 &&
                       q.wmma.pad_a == 4 && q.wmma.pad_b == 4 && q.wmma.stages == 3;
    EXPECT_EQ(q.fixed_kernel, fixed);
    flagged += q.fixed_kernel;
  }
  EXPECT_EQ(flagged, 1u);
  for (const SweepPoint& q : expand(table2_spec(Precision::kF16))) EXPECT_FALSE(q.fixed_kernel) << point_label(q);
  for (const SweepPoint& q : expand(table2_spec(Precision::kFp64))) EXPECT_FALSE(q.fixed_kernel) << point_label(q);

  SweepSpec around = table3_spec(Precision::kBf16);
  around.tiles = {{128, 128}, {256, 128}, {128, 256}, {64, 64}};
  around.tile_k = {32, 64};
  around.pad_a = around.pad_b = {0, 8};
  around.stages = {2, 3};
  flagged = 0;
  for (const SweepPoint& q : expand(around)) {
    SCOPED_TRACE(point_label(q));
    const bool fixed = q.valid() && q.wmma.tile != 64 && q.wmma.tile_k == 64 && q.wmma.pad_a == 8 &&
                       q.wmma.pad_b == 8 && q.wmma.stages == 3;
    EXPECT_EQ(q.fixed_kernel, fixed);
    flagged += q.fixed_kernel;
  }
  EXPECT_EQ(flagged, 3u);  // one per fixed tile
}

// The article's tables in a lower precision: the WMMA family, the same paddings in bytes (Table 2: 0, 16,
// 32, 48 bytes on both tiles; Table 3: 32 bytes), no stages axis; tiles 32 and 96 kept and reported invalid
// with the library's message, 64 and 128 resolved (tile_k, shape) with their shared memory.
TEST(SweepExpand, LowerPrecisionTablesRunTheWmmaFamily) {
  const std::vector<SweepPoint> t2 = expand(table2_spec(Precision::kF16));
  ASSERT_EQ(t2.size(), 16u);
  const Ints pads = {0, 8, 16, 24};
  for (size_t i = 0; i < t2.size(); ++i) {
    SCOPED_TRACE(point_label(t2[i]));
    EXPECT_EQ(t2[i].precision, Precision::kF16);
    EXPECT_EQ(t2[i].config.pad_a, pads[i % 4]);
    EXPECT_EQ(t2[i].config.pad_b, pads[i % 4]);
    EXPECT_EQ(t2[i].config.tile_k, 32);  // the WMMA family's default, made explicit
    const int32_t tile = t2[i].config.tile_m;
    EXPECT_EQ(t2[i].valid(), tile == 64 || tile == 128) << t2[i].invalid_reason;
    if (!t2[i].valid()) {
      EXPECT_NE(t2[i].invalid_reason.find("tile"), std::string::npos) << t2[i].invalid_reason;
      continue;
    }
    EXPECT_EQ(t2[i].wmma.shape, TCGEMM_WMMA_16x16x16);
    EXPECT_EQ(t2[i].wmma.tile, tile);
    EXPECT_EQ(t2[i].threads, 128);  // 4 warps at either square tile
    EXPECT_EQ(t2[i].config.stages, 3);  // the WMMA family's default, made explicit
    tcgemm_wmma_config resolved{};
    int64_t bytes = 0;
    ASSERT_EQ(tcgemm_wmma_config_resolve(TCGEMM_TYPE_F16, TCGEMM_TYPE_F32, &t2[i].wmma, &resolved, &bytes),
              TCGEMM_SUCCESS);
    EXPECT_EQ(t2[i].smem_bytes, bytes);
  }
  EXPECT_EQ(point_label(t2[5]), "wmma_lowp f16 16x16x16 64x64x32 pad_a=8 pad_b=8 stages=3");
  EXPECT_EQ(point_key(t2[5]),
            "tcgemm-sweep:wmma_lowp_f16_16x16x16:3200x3200x3200:64x64x32:pad_a=8:pad_b=8:stages=3");
  EXPECT_EQ(family_text(t2[5]), "wmma_lowp f16 16x16x16");
  EXPECT_EQ(reference_text(t2[5]), "cuBLAS GemmEx F16 (FP32 accumulation)");

  const std::vector<SweepPoint> t3 = expand(table3_spec(Precision::kTf32, TCGEMM_WMMA_16x16x8));
  ASSERT_EQ(t3.size(), 64u);  // 4 tiles x 4 tile_k x stages 1..4 (stages vary fastest)
  size_t valid = 0;
  for (size_t i = 0; i < t3.size(); ++i) {
    EXPECT_EQ(t3[i].config.pad_a, 8);  // 32 bytes of FP32
    EXPECT_EQ(t3[i].config.pad_b, 8);
    EXPECT_EQ(t3[i].config.stages, int32_t(i % 4) + 1);  // mirrored on invalid points too
    valid += t3[i].valid();
  }
  EXPECT_EQ(valid, 32u);  // tiles 64 and 128
  EXPECT_EQ(family_text(t3[16]), "wmma_lowp tf32 16x16x8");
  // A padding off the 16-byte rule in this type, and a C tile the family does not have, are the library's
  // to reject; 256 x 128 is one of its tiles (8 warps).
  SweepSpec bad = table3_spec(Precision::kBf16);
  bad.tiles = {{64, 64}, {128, 64}, {256, 128}};
  bad.tile_k = {32};
  bad.stages = {3};
  bad.pad_a = {4, 8};
  const std::vector<SweepPoint> b = expand(bad);
  ASSERT_EQ(b.size(), 6u);
  EXPECT_NE(b[0].invalid_reason.find("pad_a=4"), std::string::npos) << b[0].invalid_reason;
  EXPECT_NE(b[3].invalid_reason.find("tile=128, tile_n=64"), std::string::npos) << b[3].invalid_reason;
  EXPECT_TRUE(b[5].valid()) << b[5].invalid_reason;
  EXPECT_EQ(b[5].threads, 256);
  EXPECT_EQ(b[5].wmma.tile_n, 128);
}

TEST(SweepGrid, ParsesPrecisionAndShape) {
  Precision p = Precision::kFp64;
  int32_t shape = 0;
  std::string err;
  ASSERT_TRUE(parse_precision("bf16", &p, &err)) << err;
  EXPECT_EQ(p, Precision::kBf16);
  ASSERT_TRUE(parse_precision("f16acc16", &p, &err)) << err;
  EXPECT_EQ(p, Precision::kF16Acc16);
  EXPECT_FALSE(parse_precision("fp8", &p, &err));
  EXPECT_EQ(err, "'fp8' is not a precision (fp64, f16, f16acc16, bf16 or tf32)");
  ASSERT_TRUE(parse_wmma_shape("8x32x16", &shape, &err)) << err;
  EXPECT_EQ(shape, TCGEMM_WMMA_8x32x16);
  EXPECT_FALSE(parse_wmma_shape("8x8x4", &shape, &err));
  EXPECT_EQ(err, "'8x8x4' is not a WMMA shape (16x16x16, 32x8x16, 8x32x16 or 16x16x8)");
  EXPECT_EQ(input_bytes_of(Precision::kTf32), 4);
  EXPECT_EQ(output_type_of(Precision::kF16Acc16), TCGEMM_TYPE_F16);
  EXPECT_EQ(output_type_of(Precision::kBf16), TCGEMM_TYPE_F32);
}

// ---- occupancy ----------------------------------------------------------------------------------

TEST(SweepOccupancy, BlocksPerSmUpperBound) {
  SmLimits h100;
  h100.max_threads_per_sm = 2048;
  h100.max_blocks_per_sm = 32;
  h100.shared_memory_per_sm = 233472;
  h100.reserved_shared_per_block = 1024;
  EXPECT_EQ(blocks_per_sm_upper_bound(128, 1024, h100), 16);     // threads: 2048 / 128
  EXPECT_EQ(blocks_per_sm_upper_bound(256, 71680, h100), 3);     // shared: 233472 / (71680 + 1024)
  EXPECT_EQ(blocks_per_sm_upper_bound(512, 137216, h100), 1);
  EXPECT_EQ(blocks_per_sm_upper_bound(32, 100, h100), 32);       // block limit; 100 -> 128-byte unit
  EXPECT_EQ(blocks_per_sm_upper_bound(128, 232449, h100), 0);    // does not fit at all
  EXPECT_EQ(blocks_per_sm_upper_bound(-1, 1024, h100), -1);
  EXPECT_EQ(blocks_per_sm_upper_bound(128, 1024, SmLimits{}), -1);
}

// ---- ncu merge -----------------------------------------------------------------------------------

const char* const kNcuRaw =
    "==PROF== Disconnected\n"
    "\"ID\",\"Process ID\",\"Kernel Name\",\"launch__occupancy_limit_registers\","
    "\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum\","
    "\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum\"\n"
    "\"\",\"\",\"\",\"block\",\"\",\"\"\n"
    "\"0\",\"42\",\"tcgemm-sweep:shared_a:3200x3200x3200:32x32x4:pad_a=0:pad_b=0:stages=1\",\"4\",\"1,234,567\","
    "\"100\"\n"
    "\"1\",\"42\",\"tcgemm-sweep:shared_a:3200x3200x3200:32x32x4:pad_a=0:pad_b=0:stages=1\",\"8\",\"3\",\"0\"\n"
    "\"2\",\"42\",\"void other_kernel<double>(int, double*)\",\"8\",\"999\",\"999\"\n"
    "\"3\",\"42\",\"tcgemm-sweep:shared_a:3200x3200x3200:32x32x4:pad_a=2:pad_b=0:stages=1/\",\"8\",\"0\",\"0\"\n";

TEST(SweepNcu, ParsesTheRawExportAndSumsPerRange) {
  NcuMetrics m;
  std::string err;
  ASSERT_TRUE(parse_ncu_metrics(kNcuRaw, &m, &err)) << err;
  EXPECT_TRUE(m.available);
  ASSERT_EQ(m.by_key.size(), 2u);
  const NcuCounters& c = m.by_key.at("tcgemm-sweep:shared_a:3200x3200x3200:32x32x4:pad_a=0:pad_b=0:stages=1");
  EXPECT_EQ(c.ld, 1234570.0);
  EXPECT_EQ(c.st, 100.0);
  EXPECT_EQ(c.kernels, 2);
  EXPECT_EQ(c.register_block_limit, 4.0);

  std::vector<SweepPoint> pts = expand(table2_spec());
  std::vector<SweepRow> rows;
  for (int i = 0; i < 3; ++i) {
    rows.push_back(ok_row(pts[i], 8.0, 50.0));
    rows.back().blocks_per_sm = 16;
  }
  merge_ncu_metrics(m, &rows);
  EXPECT_EQ(rows[0].bank_conflicts_ld, "1234570");
  EXPECT_EQ(rows[0].bank_conflicts_st, "100");
  EXPECT_EQ(rows[0].blocks_per_sm, 4);  // the register limit measured by ncu
  EXPECT_EQ(rows[1].bank_conflicts_ld, "0");
  EXPECT_EQ(rows[2].bank_conflicts_ld, "not profiled");
  EXPECT_EQ(rows[2].bank_conflicts_st, "not profiled");
  EXPECT_EQ(rows[2].blocks_per_sm, 16);
}

TEST(SweepNcu, MarkerAndErrors) {
  NcuMetrics m;
  std::string err;
  ASSERT_TRUE(parse_ncu_metrics("# tcgemm-sweep-ncu: ncu not available\n", &m, &err)) << err;
  EXPECT_FALSE(m.available);
  std::vector<SweepRow> rows = {ok_row(expand(table2_spec())[0], 8.0, 50.0)};
  merge_ncu_metrics(m, &rows);
  EXPECT_EQ(rows[0].bank_conflicts_ld, "ncu not available");
  EXPECT_EQ(rows[0].bank_conflicts_st, "ncu not available");
  EXPECT_NE(csv_record(rows[0]).find(",ncu not available,ncu not available,ok"), std::string::npos);

  EXPECT_FALSE(parse_ncu_metrics("hello\n", &m, &err));
  EXPECT_EQ(err, "not an ncu CSV export (no 'Kernel Name' column) and no '# tcgemm-sweep-ncu:' marker line");
  EXPECT_FALSE(parse_ncu_metrics("\"Kernel Name\",\"x\"\n", &m, &err));
  EXPECT_NE(err.find("has no column l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"), std::string::npos);
  EXPECT_FALSE(parse_ncu_metrics("\"Kernel Name\",\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum\","
                                 "\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum\"\n\"k\",\"1\",\"2\"\n",
                                 &m, &err));
  EXPECT_NE(err.find("no kernel inside a tcgemm-sweep NVTX range"), std::string::npos) << err;
}

}  // namespace
}  // namespace tcgemm::sweep
