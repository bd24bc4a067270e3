// CPU tests of the sweep's host side: grid parsing, expansion and validation, the command line (and the
// number parsing and output-file check it shares with tcgemm-bench), CSV and Markdown text (exact strings),
// progress lines, the correctness check, blocks/SM, and the ncu merge.
#include <gtest/gtest.h>

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "cli_args.hpp"
#include "sweep/sweep_check.hpp"
#include "sweep/sweep_cli.hpp"
#include "sweep/sweep_format.hpp"
#include "sweep/sweep_grid.hpp"
#include "sweep/sweep_ncu.hpp"
#include "sweep/sweep_progress.hpp"

namespace tcgemm::sweep {
namespace {

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

TEST(SweepExpand, Table2IsTheSeedsGrid) {
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

TEST(SweepExpand, Table3IsTheSeedsGridWithBothStages) {
  const std::vector<SweepPoint> p = expand(table3_spec());
  ASSERT_EQ(p.size(), 32u);
  for (const SweepPoint& q : p) {
    EXPECT_EQ(q.config.family, TCGEMM_FAMILY_SHARED_AB);
    EXPECT_EQ(q.config.pad_a, 4);
    EXPECT_EQ(q.config.pad_b, 4);
    EXPECT_TRUE(q.valid()) << q.invalid_reason;  // shared-memory size is a device question, not validity
  }
  // 64x64, tile_k 128, one stage: (68*128 + 132*64) doubles.
  EXPECT_EQ(point_label(p[14]), "shared_ab 64x64x128 pad_a=4 pad_b=4 stages=1");
  EXPECT_EQ(p[14].smem_bytes, 8 * (68 * 128 + 132 * 64));
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

// ---- command line --------------------------------------------------------------------------------

bool cli(std::vector<std::string> args, CliOptions* o, std::string* err) { return parse_cli(args, o, err); }

TEST(SweepCli, Table2WithOverrides) {
  CliOptions o;
  std::string err;
  ASSERT_TRUE(cli({"--size", "512", "--table2", "--pad-a=0:2:2", "--reps", "10", "--csv", "out.csv"}, &o, &err))
      << err;
  EXPECT_EQ(o.spec.family, TCGEMM_FAMILY_SHARED_A);
  EXPECT_EQ(o.spec.tiles.size(), 4u);
  EXPECT_EQ(o.spec.pad_a, (Ints{0, 2}));
  EXPECT_EQ(o.spec.m, 512);
  EXPECT_EQ(o.spec.n, 512);
  EXPECT_EQ(o.spec.k, 512);
  EXPECT_EQ(o.run.reps, 10);
  EXPECT_EQ(o.csv_path, "out.csv");
  EXPECT_EQ(expand(o.spec).size(), 8u);
}

TEST(SweepCli, Defaults) {
  CliOptions o;
  std::string err;
  ASSERT_TRUE(cli({}, &o, &err)) << err;
  EXPECT_EQ(o.spec.family, TCGEMM_FAMILY_SHARED_A);
  EXPECT_EQ(o.spec.m, 3200);
  EXPECT_EQ(o.run.reps, 20);
  EXPECT_EQ(o.run.warmup, 5);
  EXPECT_FALSE(o.run.profile_once);
  ASSERT_TRUE(cli({"--table3", "--m", "100", "--k", "300", "--profile-once", "--pad", "0:4:2"}, &o, &err)) << err;
  EXPECT_EQ(o.spec.m, 100);
  EXPECT_EQ(o.spec.n, 3200);
  EXPECT_EQ(o.spec.k, 300);
  EXPECT_TRUE(o.run.profile_once);
  EXPECT_TRUE(o.spec.pad_b_follows_pad_a);
  EXPECT_EQ(expand(o.spec).size(), 4u * 4u * 3u * 2u);
}

TEST(SweepCli, Errors) {
  CliOptions o;
  std::string err;
  EXPECT_FALSE(cli({"--reps", "5"}, &o, &err));
  EXPECT_EQ(err, "--reps 5: out of range: must be between 10 and 2147483647");
  EXPECT_FALSE(cli({"--bogus"}, &o, &err));
  EXPECT_EQ(err, "unknown option '--bogus' (see --help)");
  EXPECT_FALSE(cli({"--tiles"}, &o, &err));
  EXPECT_EQ(err, "--tiles needs a value");
  EXPECT_FALSE(cli({"--tiles", "3:1"}, &o, &err));
  EXPECT_EQ(err, "--tiles 3:1: '3:1': the last value of a range must be >= the first");
  EXPECT_FALSE(cli({"--table2", "--table3"}, &o, &err));
  EXPECT_EQ(err, "--table2 and --table3 exclude each other");
  EXPECT_FALSE(cli({"--table2", "--family", "shared_ab"}, &o, &err));
  EXPECT_EQ(err, "--family shared_ab contradicts the table shortcut's family shared_a");
  EXPECT_FALSE(cli({"--pad", "4", "--pad-b", "2"}, &o, &err));
  EXPECT_EQ(err, "--pad sets pad_a = pad_b; use it or --pad-a/--pad-b, not both");
  EXPECT_FALSE(cli({"--csv="}, &o, &err));
  EXPECT_EQ(err, "--csv needs a file name");
  EXPECT_FALSE(cli({"--warmup", "-1"}, &o, &err));
  EXPECT_EQ(err, "--warmup -1: out of range: must be between 0 and 2147483647");
  EXPECT_FALSE(cli({"--dry-run=1"}, &o, &err));
  EXPECT_EQ(err, "--dry-run takes no value");
}

// Numbers are taken whole and within the range of what they set: no truncation of a 64-bit value to int,
// no trailing junk, no empty value read as 0.
TEST(SweepCli, NumbersAreWholeAndInRange) {
  CliOptions o;
  std::string err;
  EXPECT_FALSE(cli({"--reps", "4294967306"}, &o, &err));  // 2^32 + 10: int(...) would give 10
  EXPECT_EQ(err, "--reps 4294967306: out of range: must be between 10 and 2147483647");
  EXPECT_FALSE(cli({"--reps", "12x"}, &o, &err));
  EXPECT_EQ(err, "--reps 12x: not an integer");
  EXPECT_FALSE(cli({"--reps="}, &o, &err));
  EXPECT_EQ(err, "--reps : not an integer");
  EXPECT_FALSE(cli({"--warmup", " 5"}, &o, &err));
  EXPECT_EQ(err, "--warmup  5: not an integer");
  EXPECT_FALSE(cli({"--seed", "99999999999999999999"}, &o, &err));
  EXPECT_EQ(err, "--seed 99999999999999999999: out of range: must be between 0 and 9223372036854775807");
  EXPECT_FALSE(cli({"--device", "-1"}, &o, &err));
  EXPECT_EQ(err, "--device -1: out of range: must be between 0 and 2147483647");
  EXPECT_FALSE(cli({"--size", "12x"}, &o, &err));
  EXPECT_EQ(err, "--size 12x: '12x': not an integer");
  EXPECT_FALSE(cli({"--m", "99999999999999999999"}, &o, &err));
  EXPECT_EQ(err, "--m 99999999999999999999: '99999999999999999999': out of range: must be between "
                 "-9223372036854775808 and 9223372036854775807");
  EXPECT_FALSE(cli({"--tiles", "4294967328"}, &o, &err));  // 2^32 + 32
  EXPECT_EQ(err, "--tiles 4294967328: '4294967328' is not an integer");
  ASSERT_TRUE(cli({"--reps", "2147483647", "--seed", "9223372036854775807"}, &o, &err)) << err;
  EXPECT_EQ(o.run.reps, 2147483647);
  EXPECT_EQ(o.run.seed, 9223372036854775807ull);
}

// ---- command-line values shared with tcgemm-bench (bench/cli_args.hpp) ---------------------------

TEST(CliArgs, IntegersAreWholeAndInRange) {
  long long v = 7;
  std::string why;
  ASSERT_TRUE(bench::parse_integer("42", 0, 100, &v, &why)) << why;
  EXPECT_EQ(v, 42);
  ASSERT_TRUE(bench::parse_integer("-9223372036854775808", LLONG_MIN, 0, &v, &why)) << why;
  EXPECT_EQ(v, LLONG_MIN);
  v = 7;
  const std::vector<std::string> malformed = {"", " 5", "5 ", "12x", "x12", "-", "+", "1e3", "0x10",
                                              std::string("12\0x", 4)};
  for (const std::string& bad : malformed) {
    SCOPED_TRACE("'" + bad + "'");
    EXPECT_FALSE(bench::parse_integer(bad, LLONG_MIN, LLONG_MAX, &v, &why));
    EXPECT_EQ(why, "not an integer");
  }
  EXPECT_FALSE(bench::parse_integer("4294967306", 1, INT_MAX, &v, &why));
  EXPECT_EQ(why, "out of range: must be between 1 and 2147483647");
  EXPECT_FALSE(bench::parse_integer("0", 1, INT_MAX, &v, &why));
  EXPECT_EQ(why, "out of range: must be between 1 and 2147483647");
  EXPECT_FALSE(bench::parse_integer("99999999999999999999", LLONG_MIN, LLONG_MAX, &v, &why));  // ERANGE
  EXPECT_EQ(why, "out of range: must be between -9223372036854775808 and 9223372036854775807");
  EXPECT_FALSE(bench::parse_integer("-99999999999999999999", LLONG_MIN, LLONG_MAX, &v, &why));
  EXPECT_EQ(v, 7) << "output untouched on error";
}

TEST(CliArgs, DoublesAreWholeAndFinite) {
  double v = 7;
  std::string why;
  ASSERT_TRUE(bench::parse_finite_double("-2.5e-3", &v, &why)) << why;
  EXPECT_EQ(v, -2.5e-3);
  ASSERT_TRUE(bench::parse_finite_double("1", &v, &why)) << why;
  EXPECT_EQ(v, 1.0);
  v = 7;
  for (const std::string bad : {"", "foo", " 1", "1 ", "1.5x", "1,5", "--1"}) {
    SCOPED_TRACE("'" + bad + "'");
    EXPECT_FALSE(bench::parse_finite_double(bad, &v, &why));
    EXPECT_EQ(why, "not a number");
  }
  for (const std::string bad : {"1e999", "-1e999", "1e-400"}) {
    SCOPED_TRACE(bad);
    EXPECT_FALSE(bench::parse_finite_double(bad, &v, &why));
    EXPECT_EQ(why, "out of the range of a double");
  }
  for (const std::string bad : {"nan", "inf", "-Infinity"}) {
    SCOPED_TRACE(bad);
    EXPECT_FALSE(bench::parse_finite_double(bad, &v, &why));
    EXPECT_EQ(why, "not a finite number");
  }
  EXPECT_EQ(v, 7.0) << "output untouched on error";
}

TEST(CliArgs, OutputFilesAreCheckedWithoutLeavingTraces) {
  namespace fs = std::filesystem;
  // ctest runs every test case in a process of its own: the pid makes the directory unique.
  const fs::path dir = fs::temp_directory_path() / ("tcgemm-cli-args-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string why;
  EXPECT_FALSE(bench::check_writable((dir / "missing-dir" / "x.csv").string(), &why));
  EXPECT_EQ(why, std::strerror(ENOENT));
  EXPECT_FALSE(bench::check_writable(dir.string(), &why));  // a directory
  EXPECT_EQ(why, std::strerror(EISDIR));

  const fs::path fresh = dir / "fresh.csv";
  ASSERT_TRUE(bench::check_writable(fresh.string(), &why)) << why;
  EXPECT_FALSE(fs::exists(fresh)) << "the file made for the check is removed again";

  const fs::path old = dir / "old.csv";
  std::ofstream(old) << "previous results\n";
  ASSERT_TRUE(bench::check_writable(old.string(), &why)) << why;
  std::ifstream in(old);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "previous results") << "an existing file keeps its contents";
  fs::remove_all(dir);
}

// ---- CSV -----------------------------------------------------------------------------------------

SweepPoint point(int32_t family, int32_t tile, int32_t tile_k, int32_t pad_a, int32_t pad_b, int32_t stages) {
  SweepPoint p;
  p.config.family = family;
  p.config.tile_m = p.config.tile_n = tile;
  p.config.tile_k = tile_k;
  p.config.pad_a = pad_a;
  p.config.pad_b = pad_b;
  p.config.stages = stages;
  p.m = p.n = p.k = 3200;
  p.smem_bytes = 8 * (tile + pad_a) * tile_k;
  p.threads = tile * 4;
  return p;
}

SweepRow ok_row(const SweepPoint& p, double tflops, double cublas) {
  SweepRow r = make_row(p, "Test GPU");
  r.status = RowStatus::kOk;
  r.blocks_per_sm = 16;
  r.median_ms = 2.0 * 3200.0 * 3200.0 * 3200.0 / (tflops * 1e12) * 1e3;
  r.min_ms = r.median_ms;
  r.max_ms = r.median_ms;
  r.tflops = tflops;
  r.cublas_tflops = cublas;
  r.ratio_to_cublas = tflops / cublas;
  r.max_rel_err = 1.25e-16;
  return r;
}

TEST(SweepCsv, QuotingAndSplitting) {
  EXPECT_EQ(csv_quote("plain"), "plain");
  EXPECT_EQ(csv_quote("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_quote("say \"hi\""), "\"say \"\"hi\"\"\"");
  const std::vector<std::string> f = split_csv_record("a,\"b,c\",\"d \"\"e\"\"\",,\"1,234\"\r");
  EXPECT_EQ(f, (std::vector<std::string>{"a", "b,c", "d \"e\"", "", "1,234"}));
}

TEST(SweepCsv, HeaderAndRows) {
  EXPECT_EQ(csv_header(),
            "device,family,M,N,K,tile_m,tile_n,tile_k,pad_a,pad_b,stages,smem_bytes,blocks_per_sm,median_ms,min_ms,"
            "max_ms,tflops,cublas_tflops,ratio_to_cublas,max_rel_err,bank_conflicts_ld,bank_conflicts_st,status");
  const SweepRow ok = ok_row(point(TCGEMM_FAMILY_SHARED_A, 32, 4, 4, 0, 1), 8.192, 40.96);
  EXPECT_EQ(csv_record(ok),
            "Test GPU,shared_a,3200,3200,3200,32,32,4,4,0,1,1152,16,8,8,8,8.192,40.960,0.2000,1.250e-16,"
            "not measured,not measured,ok");

  SweepRow skipped = make_row(point(TCGEMM_FAMILY_SHARED_AB, 128, 128, 4, 4, 1), "Test GPU");
  skipped.status = RowStatus::kSkipped;
  skipped.reason = "needs 270336 bytes, device allows 232448";
  EXPECT_EQ(csv_record(skipped),
            "Test GPU,shared_ab,3200,3200,3200,128,128,128,4,4,1,135168,,,,,,,,,not measured,not measured,"
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

// ---- correctness check and occupancy -------------------------------------------------------------

TEST(SweepCheck, RandomDataIsFreshAndInRange) {
  std::vector<double> a(1000), b(1000), c(1000);
  fill_uniform(&a, 1);
  fill_uniform(&b, 1);
  fill_uniform(&c, 2);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  int zeros = 0;
  for (double x : a) {
    EXPECT_GE(x, -1.0);
    EXPECT_LT(x, 1.0);
    zeros += x == 0.0;
  }
  EXPECT_EQ(zeros, 0);
}

TEST(SweepCheck, ComparesAgainstTheReferenceWithKEpsTolerance) {
  const int64_t m = 5, n = 4, k = 7;
  std::vector<double> A(m * k), B(k * n), R(m * n, 0.0);
  fill_uniform(&A, 3);
  fill_uniform(&B, 4);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t l = 0; l < k; ++l)
      for (int64_t i = 0; i < m; ++i) R[i + j * m] += A[i + l * m] * B[l + j * k];
  std::vector<double> C = R;
  CheckResult ok = check_against_reference(m, n, k, A, B, C, R);
  EXPECT_TRUE(ok.pass);
  EXPECT_EQ(ok.max_rel_err, 0.0);
  EXPECT_DOUBLE_EQ(ok.tolerance, 7 * 2.220446049250313e-16);

  C[2 + 3 * m] += 1e-6;  // far beyond k*eps relative to the norms
  const CheckResult bad = check_against_reference(m, n, k, A, B, C, R);
  EXPECT_FALSE(bad.pass);
  EXPECT_EQ(bad.worst_i, 2);
  EXPECT_EQ(bad.worst_j, 3);
  EXPECT_EQ(bad.message.rfind("wrong result: C(3,4) = ", 0), 0u) << bad.message;

  C = R;
  C[0] = NAN;  // e.g. a poisoned element the kernel never wrote
  EXPECT_FALSE(check_against_reference(m, n, k, A, B, C, R).pass);
}

TEST(SweepCheck, BlocksPerSmUpperBound) {
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
