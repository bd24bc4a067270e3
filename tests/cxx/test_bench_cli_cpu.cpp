// CPU tests of tcgemm-bench's command line (bench/bench_cli.hpp, CLI11): both modes and the shape suite
// (bench/suite_file.hpp), the checks of every value (bench/cli_args.hpp: whole numbers in range, finite
// doubles, writable output files), and the help.
// Nothing here needs a GPU: a bad command line must be rejected before any CUDA call.
#include <gtest/gtest.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "bench_cli.hpp"
#include "cli_args.hpp"
#include "random_fill.hpp"
#include "suite_file.hpp"
#include "sweep/sweep_grid.hpp"

namespace tcgemm::sweep {
namespace {

using Ints = std::vector<int32_t>;

// ---- the family benchmark: tcgemm-bench [options] --------------------------------------------------

bench::ParseResult parse(const std::vector<std::string>& args, bench::Command* command, std::string* text) {
  return bench::parse_command_line(args, command, text);
}

// Command lines (after `mode`) that must be usage errors saying exactly the given text.
using Rejections = std::vector<std::pair<std::vector<std::string>, std::string>>;
void expect_usage_errors(const std::vector<std::string>& mode, const Rejections& cases) {
  for (const auto& [args, message] : cases) {
    SCOPED_TRACE(message);
    std::vector<std::string> all = mode;
    all.insert(all.end(), args.begin(), args.end());
    bench::Command command;
    std::string text;
    EXPECT_EQ(parse(all, &command, &text), bench::ParseResult::kUsageError);
    EXPECT_EQ(text, message);
  }
}

TEST(BenchCli, FamilyModeDefaultsAndLists) {
  bench::Command c;
  std::string text;
  ASSERT_EQ(parse({}, &c, &text), bench::ParseResult::kRun) << text;
  EXPECT_EQ(c.mode, bench::Command::Mode::kFamilies);
  EXPECT_EQ(c.families.families, (Ints{TCGEMM_FAMILY_SHARED_AB}));
  EXPECT_EQ(c.families.reps, 20);
  EXPECT_EQ(c.families.warmup, 3);
  EXPECT_EQ(c.families.calls_per_run, 1);
  EXPECT_EQ(c.families.sizes.size(), 4u);
  ASSERT_EQ(parse({"--family", "auto,sm90_mma", "--tile=128", "--tile-n", "64", "--sizes", "1000x2000x300,64",
                   "--trans", "NN,tc", "--alpha", "-2.5e-3", "--beta", "1", "--reps", "10", "--seed", "7", "--calls-per-run", "25"},
                  &c, &text),
            bench::ParseResult::kRun)
      << text;
  EXPECT_EQ(c.families.families, (Ints{TCGEMM_FAMILY_AUTO, TCGEMM_FAMILY_SM90_MMA}));
  EXPECT_EQ(c.families.tiles, (std::vector<int>{128}));
  EXPECT_EQ(c.families.tiles_n, (std::vector<int>{64}));
  ASSERT_EQ(c.families.sizes.size(), 2u);
  EXPECT_EQ(c.families.sizes[0].m, 1000);
  EXPECT_EQ(c.families.sizes[0].n, 2000);
  EXPECT_EQ(c.families.sizes[0].k, 300);
  EXPECT_EQ(c.families.sizes[1].k, 64);
  EXPECT_EQ(c.families.trans, (std::vector<std::string>{"NN", "tc"}));
  EXPECT_EQ(c.families.alpha, -2.5e-3);
  EXPECT_EQ(c.families.beta, 1.0);
  EXPECT_EQ(c.families.reps, 10);
  EXPECT_EQ(c.families.seed, 7u);
  EXPECT_EQ(c.families.calls_per_run, 25);
  // sm90_mma's default is a 128x64 tile; --tile 128 --tile-n 64 asks for exactly that, once.
  const std::vector<tcgemm_config> configs = bench::expand_configs(c.families, TCGEMM_FAMILY_SM90_MMA);
  ASSERT_EQ(configs.size(), 1u);
  EXPECT_EQ(configs[0].tile_m, 128);
  EXPECT_EQ(configs[0].tile_n, 64);
  EXPECT_EQ(bench::config_label(bench::expand_configs(c.families, TCGEMM_FAMILY_AUTO)[0]), "(default)");
}

TEST(BenchCli, FamilyModeErrorsNameTheOptionAndValue) {
  expect_usage_errors({}, {
      {{"--alpha", "foo"}, "--alpha foo: not a number"},
      {{"--beta", "nan"}, "--beta nan: not a finite number"},
      {{"--reps", "4294967306"}, "--reps 4294967306: out of range: must be between 10 and 2147483647"},
      {{"--calls-per-run", "0"}, "--calls-per-run 0: out of range: must be between 1 and 100000"},
      {{"--calls-per-run", "2x"}, "--calls-per-run 2x: not an integer"},
      {{"--sizes", "12x"}, "--sizes 12x: '12x' is neither N nor MxNxK"},
      {{"--sizes", "64,,128"}, "--sizes 64,,128: '': not an integer"},
      {{"--sizes", "3000000000"}, "--sizes 3000000000: '3000000000': out of range: must be between 1 and 2147483647"},
      {{"--tile", "64,-1"}, "--tile 64,-1: '-1': out of range: must be between 0 and 2147483647"},
      {{"--family", "bogus"}, "--family bogus: 'bogus' is not shared_a, shared_ab, sm90_mma, skinny or auto"},
      {{"--trans", "NX"}, "--trans NX: 'NX' must be two of N/T/C, e.g. NN or TN"},
      {{"--table2"}, "The following argument was not expected: --table2"},
      {{"--reps", "20", "sweep", "--table2"},
       "--reps is an option of the family benchmark, not of 'sweep' (give the sweep's options after 'sweep')"},
  });
}

TEST(BenchCli, HelpOfEachMode) {
  bench::Command c;
  std::string text;
  ASSERT_EQ(parse({"--help"}, &c, &text), bench::ParseResult::kHelp);
  EXPECT_NE(text.find("--alpha X"), std::string::npos) << text;
  EXPECT_NE(text.find("sweep"), std::string::npos) << text;
  // The suite file's format is documented in the help.
  EXPECT_NE(text.find("--suite FILE"), std::string::npos) << text;
  EXPECT_NE(text.find("  SIZE [FORMS]"), std::string::npos) << text;
  EXPECT_NE(text.find("  64x64x65536 NN"), std::string::npos) << text;
  ASSERT_EQ(parse({"sweep", "-h"}, &c, &text), bench::ParseResult::kHelp);
  EXPECT_NE(text.find("--table2"), std::string::npos) << text;
  EXPECT_EQ(text.find("--alpha"), std::string::npos) << text;
}

// ---- the sweep mode: tcgemm-bench sweep ... --------------------------------------------------------

// The sweep's options as tcgemm-bench reads them: `tcgemm-bench sweep <args>`.
bool cli(std::vector<std::string> args, CliOptions* o, std::string* err) {
  args.insert(args.begin(), "sweep");
  bench::Command command;
  if (bench::parse_command_line(args, &command, err) != bench::ParseResult::kRun) return false;
  EXPECT_EQ(command.mode, bench::Command::Mode::kSweep);
  *o = command.sweep;
  return true;
}

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
  EXPECT_EQ(expand(o.spec).size(), 4u * 4u * 3u * 4u);  // tiles x tile_k x pads x stages 1..4
}

// --precision turns the table shortcuts (in any order on the line) to the WMMA family in that precision.
TEST(SweepCli, PrecisionAndShape) {
  CliOptions o;
  std::string err;
  ASSERT_TRUE(cli({"--table3", "--precision", "bf16", "--wmma-shape", "32x8x16", "--size", "1024"}, &o, &err)) << err;
  EXPECT_EQ(o.spec.precision, Precision::kBf16);
  EXPECT_EQ(o.spec.wmma_shape, TCGEMM_WMMA_32x8x16);
  EXPECT_EQ(o.spec.pad_a, (Ints{16}));
  EXPECT_EQ(o.spec.stages, (Ints{1, 2, 3, 4}));  // Table 3's stages axis, as for FP64
  EXPECT_EQ(o.spec.m, 1024);
  EXPECT_EQ(expand(o.spec).size(), 64u);  // tiles x tile_k x stages
  ASSERT_TRUE(cli({"--precision", "bf16", "--tiles", "128,256x128", "--stages", "2,3"}, &o, &err)) << err;
  EXPECT_EQ(o.spec.stages, (Ints{2, 3}));
  EXPECT_EQ(expand(o.spec).size(), 4u);
  ASSERT_TRUE(cli({"--precision", "tf32", "--table2"}, &o, &err)) << err;
  EXPECT_EQ(o.spec.pad_a, (Ints{0, 4, 8, 12}));
  EXPECT_TRUE(o.spec.pad_b_follows_pad_a);
  expect_usage_errors({"sweep"}, {
      {{"--precision", "fp8"}, "--precision fp8: 'fp8' is not a precision (fp64, f16, f16acc16, bf16 or tf32)"},
      {{"--wmma-shape", "32x8x16"},
       "--wmma-shape 32x8x16: needs --precision f16, f16acc16, bf16 or tf32 (FP64 runs the 8x8x4 shape)"},
      {{"--precision", "tf32", "--wmma-shape", "16x16x16"}, "--wmma-shape 16x16x16: TF32 has the one shape 16x16x8"},
      {{"--wmma-shape", "16x16x8", "--precision", "f16"},
       "--wmma-shape 16x16x8: 16x16x8 is TF32's shape; 16-bit inputs take 16x16x16, 32x8x16 or 8x32x16"},
      {{"--precision", "f16", "--family", "shared_ab"},
       "--family shared_ab: chooses an FP64 family; --precision f16 runs the WMMA family"},
  });
}

// CLI11 words the errors it finds itself (unknown option, missing value, exclusions); the values' own
// checks say "<option> <value>: <why>".
TEST(SweepCli, Errors) {
  expect_usage_errors({"sweep"}, {
      {{"--reps", "5"}, "--reps 5: out of range: must be between 10 and 2147483647"},
      {{"--bogus"}, "The following argument was not expected: --bogus"},
      {{"--tiles"}, "--tiles: 1 required LIST missing"},
      {{"--tiles", "3:1"}, "--tiles 3:1: '3:1': the last value of a range must be >= the first"},
      {{"--table2", "--table3"}, "--table2 excludes --table3"},
      {{"--table2", "--family", "shared_ab"}, "--family shared_ab: contradicts the table shortcut's family shared_a"},
      {{"--pad", "4", "--pad-b", "2"}, "--pad-b excludes --pad"},
      {{"--csv="}, "--csv: 1 required FILE missing"},
      {{"--warmup", "-1"}, "--warmup -1: out of range: must be between 0 and 2147483647"},
      {{"--dry-run=1"}, "dry-run was given a disallowed flag override"},
  });
}

// Numbers are taken whole and within the range of what they set: no truncation of a 64-bit value to int,
// no trailing junk, no empty value read as 0.
TEST(SweepCli, NumbersAreWholeAndInRange) {
  expect_usage_errors({"sweep"}, {
      // 2^32 + 10: int(...) would give 10
      {{"--reps", "4294967306"}, "--reps 4294967306: out of range: must be between 10 and 2147483647"},
      {{"--reps", "12x"}, "--reps 12x: not an integer"},
      {{"--reps="}, "--reps: 1 required R missing"},
      {{"--warmup", " 5"}, "--warmup  5: not an integer"},
      {{"--seed", "99999999999999999999"},
       "--seed 99999999999999999999: out of range: must be between 0 and 9223372036854775807"},
      {{"--device", "-1"}, "--device -1: out of range: must be between 0 and 2147483647"},
      {{"--size", "12x"}, "--size 12x: '12x': not an integer"},
      {{"--m", "99999999999999999999"},
       "--m 99999999999999999999: '99999999999999999999': out of range: must be between "
       "-9223372036854775808 and 9223372036854775807"},
      {{"--tiles", "4294967328"}, "--tiles 4294967328: '4294967328' is not an integer"},  // 2^32 + 32
  });
  CliOptions o;
  std::string err;
  ASSERT_TRUE(cli({"--reps", "2147483647", "--seed", "9223372036854775807"}, &o, &err)) << err;
  EXPECT_EQ(o.run.reps, 2147483647);
  EXPECT_EQ(o.run.seed, 9223372036854775807ull);
}

// ---- the checks of every value (bench/cli_args.hpp) ---------------------------------------------

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

// ---- the shape suite: tcgemm-bench --suite FILE (bench/suite_file.hpp) ---------------------------------

TEST(BenchSuite, ParsesSizesFormsCommentsAndBlankLines) {
  std::vector<bench::SuiteShape> shapes;
  std::string error;
  ASSERT_TRUE(bench::parse_suite_text("# header\n"
                                      "\n"
                                      "2048 NN,NT,TN,TT\n"
                                      "   64x64x65536\tNN   # deep K\n"
                                      "3000x5000x700\r\n"  // CRLF line end, forms default to NN
                                      "1x4096x4096 TN#comment right after\n"
                                      "   \t \n"
                                      "7 TT",  // no final newline
                                      "s.txt", &shapes, &error))
      << error;
  ASSERT_EQ(shapes.size(), 5u);
  EXPECT_EQ(shapes[0].size.m, 2048);
  EXPECT_EQ(shapes[0].size.n, 2048);
  EXPECT_EQ(shapes[0].size.k, 2048);
  EXPECT_EQ(shapes[0].forms, (std::vector<std::string>{"NN", "NT", "TN", "TT"}));
  EXPECT_EQ(shapes[0].line, 3);
  EXPECT_EQ(shapes[1].size.m, 64);
  EXPECT_EQ(shapes[1].size.k, 65536);
  EXPECT_EQ(shapes[1].line, 4);
  EXPECT_EQ(shapes[2].size.m, 3000);
  EXPECT_EQ(shapes[2].size.n, 5000);
  EXPECT_EQ(shapes[2].size.k, 700);
  EXPECT_EQ(shapes[2].forms, (std::vector<std::string>{"NN"}));
  EXPECT_EQ(shapes[3].forms, (std::vector<std::string>{"TN"}));
  EXPECT_EQ(shapes[4].size.k, 7);
  EXPECT_EQ(shapes[4].line, 8);
  EXPECT_EQ(bench::suite_points(shapes), 8u);
  const std::string listing = bench::format_suite("s.txt", shapes);
  EXPECT_NE(listing.find("s.txt: 8 shapes (size x form) from 5 lines"), std::string::npos) << listing;
  EXPECT_NE(listing.find(" 2048x2048x2048 TT "), std::string::npos) << listing;
  EXPECT_NE(listing.find(" 64x64x65536 NN "), std::string::npos) << listing;
}

TEST(BenchSuite, MalformedLinesNameFileAndLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"512\n12x NN\n", "s.txt:2: bad size: '12x' is neither N nor MxNxK"},
      {"512\n0\n", "s.txt:2: bad size: '0': out of range: must be between 1 and 2147483647"},
      {"# c\n64x-1x64\n", "s.txt:2: bad size: '-1': out of range: must be between 1 and 2147483647"},
      {"3000000000\n", "s.txt:1: bad size: '3000000000': out of range: must be between 1 and 2147483647"},
      {"1x2x3x4\n", "s.txt:1: bad size: '1x2x3x4' is neither N nor MxNxK"},
      {"64x64xabc\n", "s.txt:1: bad size: 'abc': not an integer"},
      {"NN 2048\n", "s.txt:1: bad size: 'NN': not an integer"},
      {"\n\n2048 NX\n", "s.txt:3: bad form 'NX': must be NN, NT, TN or TT"},
      {"2048 nn\n", "s.txt:1: bad form 'nn': must be NN, NT, TN or TT"},
      {"2048 NN,\n", "s.txt:1: bad form '': must be NN, NT, TN or TT"},
      {"2048 NN,TN,NN\n", "s.txt:1: form NN given twice"},
      {"2048 NN junk\n", "s.txt:1: trailing junk 'junk' after the forms (a line is SIZE [FORMS])"},
      {"2048 NN, NT\n", "s.txt:1: trailing junk 'NT' after the forms (a line is SIZE [FORMS])"},
      {"", "s.txt:1: no shapes (every line is blank or a comment)"},
      {"# only a comment\n\n   \n", "s.txt:3: no shapes (every line is blank or a comment)"},
  };
  for (const auto& [text, message] : cases) {
    SCOPED_TRACE(text);
    std::vector<bench::SuiteShape> shapes{bench::SuiteShape{}};
    std::string error;
    EXPECT_FALSE(bench::parse_suite_text(text, "s.txt", &shapes, &error));
    EXPECT_EQ(error, message);
    EXPECT_EQ(shapes.size(), 1u) << "*out is left alone on failure";
  }
}

TEST(BenchSuite, CommandLine) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("tcgemm-suite-cli-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string good = (dir / "good.txt").string(), bad = (dir / "bad.txt").string();
  std::ofstream(good) << "# two shapes\n2048 NN,TT\n64x64x65536\n";
  std::ofstream(bad) << "2048\n\n4096 NN extra\n";

  bench::Command c;
  std::string text;
  ASSERT_EQ(parse({"--suite", good, "--reps", "30", "--warmup", "5", "--seed", "9"}, &c, &text),
            bench::ParseResult::kRun)
      << text;
  EXPECT_EQ(c.mode, bench::Command::Mode::kSuite);
  EXPECT_EQ(c.suite.path, good);
  EXPECT_FALSE(c.suite.dry_run);
  ASSERT_EQ(c.suite.shapes.size(), 2u);
  EXPECT_EQ(c.suite.shapes[0].forms, (std::vector<std::string>{"NN", "TT"}));
  EXPECT_EQ(c.suite.shapes[1].size.k, 65536);
  EXPECT_EQ(c.families.reps, 30);
  EXPECT_EQ(c.families.warmup, 5);
  EXPECT_EQ(c.families.seed, 9u);
  ASSERT_EQ(parse({"--dry-run", "--suite", good}, &c, &text), bench::ParseResult::kRun) << text;
  EXPECT_TRUE(c.suite.dry_run);

  expect_usage_errors({}, {
      {{"--suite", bad}, bad + ":3: trailing junk 'extra' after the forms (a line is SIZE [FORMS])"},
      {{"--suite", (dir / "missing.txt").string()},
       (dir / "missing.txt").string() + ": cannot read: " + std::strerror(ENOENT)},
      {{"--dry-run"}, "--dry-run requires --suite"},
      {{"--suite", good, "--sizes", "64"}, "--sizes excludes --suite"},
      {{"--suite", good, "--trans", "NT"}, "--trans excludes --suite"},
      {{"--family", "shared_a", "--suite", good}, "--family excludes --suite"},
      {{"--suite", good, "--reps", "5"}, "--reps 5: out of range: must be between 10 and 2147483647"},
  });
  fs::remove_all(dir);
}

// ---- random operands (bench/random_fill.hpp) ------------------------------------------------------

TEST(BenchRandomFill, DataIsFreshAndInRange) {
  std::vector<double> a(1000), b(1000), c(1000);
  bench::fill_uniform(&a, 1);
  bench::fill_uniform(&b, 1);
  bench::fill_uniform(&c, 2);
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

}  // namespace
}  // namespace tcgemm::sweep
