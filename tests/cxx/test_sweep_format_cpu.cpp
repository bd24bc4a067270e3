// CPU tests of the sweep's output text: CSV fields and quoting, the Markdown tables laid out like the
// article's Tables 2 and 3 (exact strings), and the progress lines.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "sweep/sweep_format.hpp"
#include "sweep/sweep_progress.hpp"
#include "sweep_test_rows.hpp"

namespace tcgemm::sweep {
namespace {

using test_rows::ok_row;
using test_rows::point;

TEST(SweepCsv, QuotingAndSplitting) {
  EXPECT_EQ(csv_quote("plain"), "plain");
  EXPECT_EQ(csv_quote("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_quote("say \"hi\""), "\"say \"\"hi\"\"\"");
  const std::vector<std::string> f = split_csv_record("a,\"b,c\",\"d \"\"e\"\"\",,\"1,234\"\r");
  EXPECT_EQ(f, (std::vector<std::string>{"a", "b,c", "d \"e\"", "", "1,234"}));
}

TEST(SweepCsv, HeaderAndRows) {
  EXPECT_EQ(csv_header(),
            "device,family,kernel,M,N,K,tile_m,tile_n,tile_k,pad_a,pad_b,stages,smem_bytes,blocks_per_sm,"
            "median_ms,min_ms,max_ms,tflops,cublas_tflops,ratio_to_cublas,max_rel_err,bank_conflicts_ld,"
            "bank_conflicts_st,status");
  const SweepRow ok = ok_row(point(TCGEMM_FAMILY_SHARED_A, 32, 4, 4, 0, 1), 8.192, 40.96);
  EXPECT_EQ(csv_record(ok),
            "Test GPU,shared_a,,3200,3200,3200,32,32,4,4,0,1,1152,16,8,8,8,8.192,40.960,0.2000,1.250e-16,"
            "not measured,not measured,ok");

  SweepRow skipped = make_row(point(TCGEMM_FAMILY_SHARED_AB, 128, 128, 4, 4, 1), "Test GPU");
  skipped.status = RowStatus::kSkipped;
  skipped.reason = "needs 270336 bytes, device allows 232448";
  EXPECT_EQ(csv_record(skipped),
            "Test GPU,shared_ab,,3200,3200,3200,128,128,128,4,4,1,135168,,,,,,,,,not measured,not measured,"
            "\"skipped: needs 270336 bytes, device allows 232448\"");

  SweepRow failed = skipped;
  failed.status = RowStatus::kFailed;
  failed.reason = "wrong result";
  failed.max_rel_err = 0.5;
  const std::string csv = format_csv({ok, failed});
  EXPECT_EQ(csv, csv_header() + "\n" + csv_record(ok) + "\n" + csv_record(failed) + "\n");
  EXPECT_NE(csv_record(failed).find(",5.000e-01,not measured,not measured,failed: wrong result"), std::string::npos);
  // Every record has as many fields as the header.
  EXPECT_EQ(split_csv_record(csv_record(skipped)).size(), split_csv_record(csv_header()).size());
}

// ---- Markdown ------------------------------------------------------------------------------------

TEST(SweepMarkdown, Table2Layout) {
  std::vector<SweepRow> rows;
  const double tf[2][2] = {{6.3, 8.25}, {6.6, 8.8}};
  for (int t = 0; t < 2; ++t)
    for (int p = 0; p < 2; ++p)
      rows.push_back(ok_row(point(TCGEMM_FAMILY_SHARED_A, 32 * (t + 1), 4, 2 * p, 0, 1), tf[t][p], 50.0));
  rows[1].bank_conflicts_ld = rows[1].bank_conflicts_st = "ncu not available";
  EXPECT_EQ(choose_column_axis(rows), ColumnAxis::kPadA);
  const std::string expected =
      "### shared_a, M = N = K = 3200\n"
      "\n"
      "TFLOP/s, median of 20 timed runs, on Test GPU (best of each row in bold).\n"
      "\n"
      "| tile_m\u00d7tile_n\u00d7tile_k | pad_a = 0 | pad_a = 2 |\n"
      "|---|---:|---:|\n"
      "| 32\u00d732\u00d74 | 6.3 | **8.2** |\n"
      "| 64\u00d764\u00d74 | 6.6 | **8.8** |\n"
      "\n"
      "cuBLAS DGEMM on the same data: 50.0 TFLOP/s (median over this table's timed points).\n"
      "\n"
      "Best: 8.8 TFLOP/s at 64\u00d764\u00d74, pad_a = 2 (0.18 of cuBLAS).\n"
      "\n"
      "Shared-memory bank conflicts: ncu not available.\n"
      "\n";
  EXPECT_EQ(format_markdown(rows, MarkdownOptions{20}), expected);
}

// A lower precision's fixed configuration runs another kernel than its neighbours: its cell carries a note
// that says so (TF32: also on copies rounded once), and no other cell does.
TEST(SweepMarkdown, FixedConfigurationCellIsMarked) {
  std::vector<SweepRow> rows;
  for (int32_t pad : {0, 4}) {
    SweepPoint p = point(0, 128, 32, pad, pad, 3);
    p.precision = Precision::kTf32;
    p.wmma.shape = TCGEMM_WMMA_16x16x8;
    p.wmma.tile = p.wmma.tile_n = 128;
    p.wmma.tile_k = 32;
    p.wmma.pad_a = p.wmma.pad_b = pad;
    p.wmma.stages = 3;
    p.fixed_kernel = pad == 4;
    rows.push_back(ok_row(p, pad == 4 ? 151.6 : 55.0, 400.0));
  }
  const std::string md = format_markdown(rows, MarkdownOptions{20});
  EXPECT_NE(md.find("| 55.0 | **151.6**[^1] |"), std::string::npos) << md;
  EXPECT_NE(md.find("[^1]: this tile's fixed configuration"), std::string::npos) << md;
  EXPECT_NE(md.find("rounded to TF32 once"), std::string::npos) << md;
  EXPECT_EQ(md.find("[^2]"), std::string::npos) << md;
  // The CSV says the same in its kernel column.
  const std::vector<std::string> header = split_csv_record(csv_header());
  const size_t kernel = size_t(std::find(header.begin(), header.end(), "kernel") - header.begin());
  ASSERT_LT(kernel, header.size());
  EXPECT_EQ(split_csv_record(csv_record(rows[0]))[kernel], "run-time");
  EXPECT_EQ(split_csv_record(csv_record(rows[1]))[kernel], "pipelined");
  // A configuration the library refuses runs no kernel.
  SweepPoint refused = rows[0].point;
  refused.invalid_reason = "pad_a=3: not a multiple of 4 floats";
  EXPECT_EQ(split_csv_record(csv_record(make_row(refused, "Test GPU")))[kernel], "");
}

TEST(SweepMarkdown, Table3LayoutWithSkippedCellsAndBankConflicts) {
  std::vector<SweepRow> rows;
  for (int tile : {64, 128})
    for (int tk : {32, 128}) {
      const SweepPoint p = point(TCGEMM_FAMILY_SHARED_AB, tile, tk, 4, 4, 1);
      if (tile == 128 && tk == 128) {
        SweepRow r = make_row(p, "Test GPU");
        r.status = RowStatus::kSkipped;
        r.reason = "needs 270336 bytes";
        rows.push_back(r);
      } else {
        SweepRow r = ok_row(p, tile / 10.0 + tk / 100.0, 55.0);
        r.bank_conflicts_ld = std::to_string(tk * 1000);
        r.bank_conflicts_st = "0";
        rows.push_back(r);
      }
    }
  // One failure in a second table (stages = 2): footnote numbers continue across tables.
  SweepRow failed = make_row(point(TCGEMM_FAMILY_SHARED_AB, 64, 32, 4, 4, 2), "Test GPU");
  failed.status = RowStatus::kFailed;
  failed.reason = "wrong result";
  rows.push_back(failed);
  EXPECT_EQ(choose_column_axis(rows), ColumnAxis::kTileK);
  const std::string expected =
      "### shared_ab, M = N = K = 3200: pad_a = pad_b = 4, stages = 1\n"
      "\n"
      "TFLOP/s, on Test GPU (best of each row in bold).\n"
      "\n"
      "| tile_m\u00d7tile_n | tile_k = 32 | tile_k = 128 |\n"
      "|---|---:|---:|\n"
      "| 64\u00d764 | 6.7 | **7.7** |\n"
      "| 128\u00d7128 | 13.1 | \u2013[^1] |\n"
      "\n"
      "cuBLAS DGEMM on the same data: 55.0 TFLOP/s (median over this table's timed points).\n"
      "\n"
      "Best: 13.1 TFLOP/s at 128\u00d7128, tile_k = 32 (0.24 of cuBLAS).\n"
      "\n"
      "Shared-memory bank conflicts per GEMM call (ncu, loads / stores):\n"
      "\n"
      "| tile_m\u00d7tile_n | tile_k = 32 | tile_k = 128 |\n"
      "|---|---:|---:|\n"
      "| 64\u00d764 | 32.0k / 0 | 128k / 0 |\n"
      "| 128\u00d7128 | 32.0k / 0 | \u2013 |\n"
      "\n"
      "### shared_ab, M = N = K = 3200: pad_a = pad_b = 4, stages = 2\n"
      "\n"
      "TFLOP/s, on Test GPU (best of each row in bold).\n"
      "\n"
      "| tile_m\u00d7tile_n | tile_k = 32 |\n"
      "|---|---:|\n"
      "| 64\u00d764 | FAIL[^2] |\n"
      "\n"
      "[^1]: skipped: needs 270336 bytes\n"
      "[^2]: failed: wrong result\n";
  EXPECT_EQ(format_markdown(rows, MarkdownOptions{}), expected);
}

TEST(SweepMarkdown, PaddingSweptTogetherAndCounts) {
  std::vector<SweepRow> rows;
  for (int pad : {0, 4}) rows.push_back(ok_row(point(TCGEMM_FAMILY_SHARED_AB, 64, 32, pad, pad, 2), 10 + pad, 50));
  EXPECT_EQ(choose_column_axis(rows), ColumnAxis::kPadBoth);
  const std::string md = format_markdown(rows, MarkdownOptions{10});
  EXPECT_NE(md.find("### shared_ab, M = N = K = 3200: stages = 2\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| tile_m\u00d7tile_n\u00d7tile_k | pad_a = pad_b = 0 | pad_a = pad_b = 4 |\n"), std::string::npos)
      << md;
  EXPECT_EQ(format_markdown({}, MarkdownOptions{}), "No sweep points.\n");

  EXPECT_EQ(format_count(0), "0");
  EXPECT_EQ(format_count(950), "950");
  EXPECT_EQ(format_count(12345), "12.3k");
  EXPECT_EQ(format_count(999999), "1.00M");
  EXPECT_EQ(format_count(1.5e6), "1.50M");
  EXPECT_EQ(format_count(2.5e10), "25.0G");
}

// ---- progress ------------------------------------------------------------------------------------

TEST(SweepProgress, Formatting) {
  EXPECT_EQ(format_duration(7), "0:07");
  EXPECT_EQ(format_duration(754), "12:34");
  EXPECT_EQ(format_duration(3723), "1:02:03");
  EXPECT_EQ(format_duration(NAN), "--:--");
  EXPECT_EQ(format_bar(0.5, 10), "[=====>    ]");
  EXPECT_EQ(format_bar(0.0, 4), "[>   ]");
  EXPECT_EQ(format_bar(1.0, 4), "[====]");
  EXPECT_EQ(format_bar(7.0, 4), "[====]");
  EXPECT_TRUE(std::isnan(estimate_eta(3.0, 0, 5)));
  EXPECT_DOUBLE_EQ(estimate_eta(10.0, 2, 3), 15.0);
  EXPECT_DOUBLE_EQ(estimate_eta(10.0, 2, 0), 0.0);

  const std::string label = "shared_a 32x32x4 pad_a=4 pad_b=0 stages=1";
  EXPECT_EQ(format_progress_plain(3, 16, label, 5.2, 20.4),
            "[3/16] shared_a 32x32x4 pad_a=4 pad_b=0 stages=1 (elapsed 0:05, ETA 0:20)");
  EXPECT_EQ(format_progress_terminal(3, 16, label, 5.2, NAN, 8),
            "\r[=>      ] 3/16 shared_a 32x32x4 pad_a=4 pad_b=0 stages=1  elapsed 0:05  ETA --:--\x1b[K");

  const SweepRow ok = ok_row(point(TCGEMM_FAMILY_SHARED_A, 32, 4, 4, 0, 1), 9.234, 55.61);
  EXPECT_EQ(format_result_line(3, 16, ok),
            "[3/16] shared_a 32x32x4 pad_a=4 pad_b=0 stages=1: 9.23 TFLOP/s, 0.17 of cuBLAS (55.61 TFLOP/s)");
  SweepRow skipped = make_row(point(TCGEMM_FAMILY_SHARED_A, 32, 4, 4, 0, 1), "x");
  skipped.status = RowStatus::kSkipped;
  skipped.reason = "too big";
  EXPECT_EQ(format_result_line(4, 16, skipped), "[4/16] shared_a 32x32x4 pad_a=4 pad_b=0 stages=1: skipped: too big");
}

TEST(SweepProgress, ReporterWritesPlainLinesWhenNotATerminal) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  EXPECT_FALSE(ProgressReporter::is_terminal(f));
  ProgressReporter rep(f, false, 2, 1);
  SweepRow ok = ok_row(point(TCGEMM_FAMILY_SHARED_A, 32, 4, 4, 0, 1), 9.0, 45.0);
  rep.begin_point(1, "first");
  rep.end_point(1, ok, true);
  rep.finish();
  std::rewind(f);
  char buf[1024] = {0};
  const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  const std::string text(buf, n);
  EXPECT_EQ(text.rfind("[1/2] first (elapsed 0:00, ETA --:--)\n"
                       "[1/2] shared_a 32x32x4 pad_a=4 pad_b=0 stages=1: 9.00 TFLOP/s, 0.20 of cuBLAS (45.00 TFLOP/s)\n"
                       "done in 0:00\n",
                       0),
            0u)
      << text;
  EXPECT_EQ(text.find('\r'), std::string::npos);
}

}  // namespace
}  // namespace tcgemm::sweep
