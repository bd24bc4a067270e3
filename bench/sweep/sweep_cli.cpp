#include "sweep_cli.hpp"

#include <climits>
#include <memory>

#include "cli_args.hpp"

namespace tcgemm::sweep {
namespace {

using bench::add_checked_option;
using bench::add_integer_option;
using bench::Converter;
using bench::parse_into;

// A matrix size that sets every dimension named by `targets`.
Converter size_into(std::initializer_list<int64_t*> targets) {
  std::vector<int64_t*> list(targets);
  return [list](const std::string& value, std::string* why) {
    int64_t v = 0;
    if (!parse_size(value, &v, why)) return false;
    for (int64_t* t : list) *t = v;
    return true;
  };
}

}  // namespace

void add_sweep_options(CLI::App& app, CliOptions* o) {
  // The precision first: the table shortcuts' grids depend on it (their paddings are in its elements).
  add_checked_option(
      app, "--precision",
      [o](const std::string& value, std::string* why) { return parse_precision(value, &o->spec.precision, why); },
      "fp64 (default: the DGEMM families) | f16 | f16acc16 | bf16 | tf32 (the WMMA family of tcgemm_gemm_ex: "
      "C tiles 64, 128, 256x128 or 128x256, paddings in elements of the input type, stages 1 to 4)",
      "P");
  add_checked_option(
      app, "--wmma-shape",
      [o](const std::string& value, std::string* why) {
        int32_t shape = 0;
        if (!parse_wmma_shape(value, &shape, why)) return false;
        const Precision p = o->spec.precision;
        if (p == Precision::kFp64)
          return *why = "needs --precision f16, f16acc16, bf16 or tf32 (FP64 runs the 8x8x4 shape)", false;
        if ((p == Precision::kTf32) != (shape == TCGEMM_WMMA_16x16x8))
          return *why = std::string(p == Precision::kTf32 ? "TF32 has the one shape 16x16x8"
                                                          : "16x16x8 is TF32's shape; 16-bit inputs take "
                                                            "16x16x16, 32x8x16 or 8x32x16"),
                 false;
        o->spec.wmma_shape = shape;
        return true;
      },
      "the WMMA shape of a lower precision: 16x16x16 (default), 32x8x16, 8x32x16; 16x16x8 for tf32", "S");

  // How many table shortcuts were given, for --family's consistency check (its callback runs after theirs).
  auto tables = std::make_shared<int>(0);
  CLI::Option* table2 = app.add_flag_callback(
      "--table2",
      [o, tables] {
        o->spec = table2_spec(o->spec.precision, o->spec.wmma_shape);
        ++*tables;
      },
      "the article's Table 2: shared_a, tiles 32,64,96,128 x pad_a 0,2,4,6, m = n = k = 3200 (with --precision: "
      "the WMMA family, both tiles padded by 0,16,32,48 bytes)");
  CLI::Option* table3 = app.add_flag_callback(
      "--table3",
      [o, tables] {
        o->spec = table3_spec(o->spec.precision, o->spec.wmma_shape);
        ++*tables;
      },
      "the article's Table 3: shared_ab, tiles 32,64,96,128 x tile_k 32,64,96,128, pad_a = pad_b = 4, "
      "stages 1 (the article's loop) to 4 (cp.async rings) (with --precision: the WMMA family, 32-byte pads)");
  table2->excludes(table3)->disable_flag_override();
  table3->disable_flag_override();

  add_checked_option(
      app, "--family",
      [o, tables](const std::string& value, std::string* why) {
        int32_t family = 0;
        if (!parse_family(value, &family, why)) return false;
        if (o->spec.precision != Precision::kFp64)
          return *why = "chooses an FP64 family; --precision " + std::string(precision_name(o->spec.precision)) +
                        " runs the WMMA family", false;
        if (*tables && family != o->spec.family)
          return *why = std::string("contradicts the table shortcut's family ") + family_name(o->spec.family), false;
        o->spec.family = family;
        return true;
      },
      "shared_a | shared_ab | sm90_mma (default shared_a)", "F");
  add_checked_option(app, "--tiles", parse_into(parse_tile_list, &o->spec.tiles),
                     "C tiles per block, T or MxN (default: the family's)", "LIST");
  add_checked_option(app, "--tile-k", parse_into(parse_int_list, &o->spec.tile_k),
                     "depth of the shared tiles (default: the family's)", "LIST");
  CLI::Option* pad_a = add_checked_option(app, "--pad-a", parse_into(parse_int_list, &o->spec.pad_a),
                                          "padding of the A tile, in elements: doubles (multiples of 2), or the input type's (16 bytes' multiples)",
                                          "LIST");
  CLI::Option* pad_b = add_checked_option(app, "--pad-b", parse_into(parse_int_list, &o->spec.pad_b),
                                          "padding of the B tile, in elements", "LIST");
  CLI::Option* pad = add_checked_option(
      app, "--pad",
      [o](const std::string& value, std::string* why) {
        if (!parse_int_list(value, &o->spec.pad_a, why)) return false;
        o->spec.pad_b.clear();
        o->spec.pad_b_follows_pad_a = true;
        return true;
      },
      "pad_a = pad_b, swept together", "LIST");
  pad->excludes(pad_a)->excludes(pad_b);
  add_checked_option(
      app, "--stages",
      [o](const std::string& value, std::string* why) { return parse_int_list(value, &o->spec.stages, why); },
      "shared-memory pipeline depth (default: the family's)", "LIST");
  add_checked_option(app, "--size", size_into({&o->spec.m, &o->spec.n, &o->spec.k}),
                     "m = n = k = N (default 3200, the article's)", "N");
  add_checked_option(app, "--m", size_into({&o->spec.m}), "m alone (overrides --size)", "M");
  add_checked_option(app, "--n", size_into({&o->spec.n}), "n alone (overrides --size)", "N");
  add_checked_option(app, "--k", size_into({&o->spec.k}), "k alone (overrides --size)", "K");

  add_integer_option(app, "--reps", &o->run.reps, bench::kMinReps, INT_MAX,
                     "timed runs per point, >= " + std::to_string(bench::kMinReps) + " (default " +
                         std::to_string(kDefaultReps) + ")",
                     "R");
  add_integer_option(app, "--warmup", &o->run.warmup, 0, INT_MAX,
                     "untimed runs first (default " + std::to_string(kDefaultWarmup) + ")", "W");
  add_integer_option(app, "--seed", &o->run.seed, 0, LLONG_MAX,
                     "point i fills A from seed S + 2i and B from S + 2i + 1 (default 1)", "S");
  add_integer_option(app, "--device", &o->run.device, 0, INT_MAX, "CUDA device (default: the current one)", "D");
  app.add_flag("--profile-once", o->run.profile_once,
               "run each point's GEMM exactly once inside an NVTX range, no check or timing (for tools/sweep-ncu.sh)")
      ->disable_flag_override();
  app.add_flag("--dry-run", o->dry_run, "list the points and their validation, run nothing (no GPU needed)")
      ->disable_flag_override();

  bench::add_output_file_option(app, "--csv", &o->csv_path, "one row per point");
  bench::add_output_file_option(app, "--md", &o->md_path, "Markdown tables (also printed to stdout)");
  add_checked_option(
      app, "--ncu-metrics",
      [o](const std::string& value, std::string* why) {
        if (value.empty()) return *why = "needs a file name", false;
        o->ncu_metrics_path = value;
        return true;
      },
      "merge the bank-conflict counters made by tools/sweep-ncu.sh", "FILE");
}

}  // namespace tcgemm::sweep
