#include "sweep_cli.hpp"

#include <climits>

#include "cli_args.hpp"

namespace tcgemm::sweep {
namespace {

// Options that take a value.
const char* const kValueOptions[] = {"--family", "--tiles",  "--tile-k", "--pad-a", "--pad-b", "--pad",
                                     "--stages", "--size",   "--m",      "--n",     "--k",     "--reps",
                                     "--warmup", "--seed",   "--device", "--csv",   "--md",    "--ncu-metrics"};
// Flags.
const char* const kFlagOptions[] = {"--table2", "--table3", "--profile-once", "--dry-run", "--help", "-h"};

bool is_one_of(const std::string& s, const char* const* list, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (s == list[i]) return true;
  return false;
}

bool parse_int_option(const std::string& opt, const std::string& text, long long min, long long max, long long* out,
                      std::string* error) {
  std::string why;
  if (bench::parse_integer(text, min, max, out, &why)) return true;
  *error = opt + " " + text + ": " + why;
  return false;
}

}  // namespace

std::string cli_usage() {
  return "usage: tcgemm-sweep [--table2 | --table3] [options]\n"
         "Runs a grid of tcgemm kernel configurations (tile, tile_k, padding, stages) on the GPU, checks each\n"
         "against cuBLAS, times it (warm-up, median of --reps runs with CUDA events) beside cuBLAS DGEMM on the\n"
         "same data, and writes CSV and Markdown tables laid out like the seed's Tables 2 and 3.\n"
         "\n"
         "grid (lists: 32,64,96,128 or ranges first:last[:step] such as 0:6:2; a tile is T or MxN):\n"
         "  --table2            the seed's Table 2: shared_a, tiles 32,64,96,128 x pad_a 0,2,4,6\n"
         "  --table3            the seed's Table 3: shared_ab, tiles 32,64,96,128 x tile_k 32,64,96,128,\n"
         "                      pad_a = pad_b = 4, stages 1 (the seed's loop) and 2 (double-buffered)\n"
         "  --family F          shared_a | shared_ab | sm90_mma (default shared_a)\n"
         "  --tiles LIST        C tiles per block            (default: the family's)\n"
         "  --tile-k LIST       depth of the shared tiles    (default: the family's)\n"
         "  --pad-a LIST        padding of the A tile, doubles (multiples of 2)\n"
         "  --pad-b LIST        padding of the B tile, doubles\n"
         "  --pad LIST          pad_a = pad_b, swept together\n"
         "  --stages LIST       shared-memory pipeline depth (default: the family's)\n"
         "  --size N            m = n = k = N (default 3200, the seed's)\n"
         "  --m M --n N --k K   sizes one by one\n"
         "run:\n"
         "  --reps R            timed runs per point, >= 10 (default 20)\n"
         "  --warmup W          untimed runs first (default 5)\n"
         "  --seed S            operands of point i come from seed S + 2i (default 1)\n"
         "  --device D          CUDA device (default: the current one)\n"
         "  --profile-once      run each point's GEMM exactly once inside an NVTX range, no check or timing\n"
         "                      (for tools/sweep-ncu.sh)\n"
         "  --dry-run           list the points and their validation, run nothing\n"
         "output:\n"
         "  --csv FILE          one row per point\n"
         "  --md FILE           Markdown tables (also printed to stdout)\n"
         "  --ncu-metrics FILE  merge bank-conflict counters made by tools/sweep-ncu.sh\n"
         "Exit status: 0 when every point ran correctly or was skipped with a reason, 1 when a point failed\n"
         "its check or hit an error, 2 on a usage error or when no GPU can be used.\n";
}

bool parse_cli(const std::vector<std::string>& args, CliOptions* out, std::string* error) {
  CliOptions o;
  // Pass 1: split into (option, value) pairs and find a table shortcut.
  std::vector<std::pair<std::string, std::string>> opts;
  int tables = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string name = args[i], value;
    const size_t eq = name.find('=');
    const bool has_inline_value = name.rfind("--", 0) == 0 && eq != std::string::npos;
    if (has_inline_value) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    if (is_one_of(name, kFlagOptions, sizeof kFlagOptions / sizeof *kFlagOptions)) {
      if (has_inline_value) return *error = name + " takes no value", false;
      if (name == "--table2" || name == "--table3") ++tables;
    } else if (is_one_of(name, kValueOptions, sizeof kValueOptions / sizeof *kValueOptions)) {
      if (!has_inline_value) {
        if (i + 1 >= args.size()) return *error = name + " needs a value", false;
        value = args[++i];
      }
    } else {
      return *error = "unknown option '" + args[i] + "' (see --help)", false;
    }
    opts.emplace_back(name, value);
  }
  if (tables > 1) return *error = "--table2 and --table3 exclude each other", false;
  for (const auto& [name, value] : opts) {
    if (name == "--table2") o.spec = table2_spec();
    if (name == "--table3") o.spec = table3_spec();
  }

  // Pass 2: everything else overrides the shortcut's grid.
  bool pad_given = false, pad_ab_given = false;
  for (const auto& [name, value] : opts) {
    std::string err;
    bool ok = true;
    long long n = 0;
    if (name == "--help" || name == "-h") {
      o.help = true;
    } else if (name == "--table2" || name == "--table3") {
      // applied above
    } else if (name == "--family") {
      int32_t family = 0;
      ok = parse_family(value, &family, &err);
      if (ok && tables && family != o.spec.family)
        return *error = "--family " + value + " contradicts the table shortcut's family " +
                        family_name(o.spec.family), false;
      o.spec.family = family;
    } else if (name == "--tiles") {
      ok = parse_tile_list(value, &o.spec.tiles, &err);
    } else if (name == "--tile-k") {
      ok = parse_int_list(value, &o.spec.tile_k, &err);
    } else if (name == "--pad-a") {
      ok = parse_int_list(value, &o.spec.pad_a, &err);
      pad_ab_given = true;
    } else if (name == "--pad-b") {
      ok = parse_int_list(value, &o.spec.pad_b, &err);
      pad_ab_given = true;
    } else if (name == "--pad") {
      ok = parse_int_list(value, &o.spec.pad_a, &err);
      o.spec.pad_b.clear();
      o.spec.pad_b_follows_pad_a = true;
      pad_given = true;
    } else if (name == "--stages") {
      ok = parse_int_list(value, &o.spec.stages, &err);
    } else if (name == "--size") {
      ok = parse_size(value, &o.spec.m, &err);
      o.spec.n = o.spec.k = o.spec.m;
    } else if (name == "--m") {
      ok = parse_size(value, &o.spec.m, &err);
    } else if (name == "--n") {
      ok = parse_size(value, &o.spec.n, &err);
    } else if (name == "--k") {
      ok = parse_size(value, &o.spec.k, &err);
    } else if (name == "--reps") {
      if (!parse_int_option(name, value, kMinReps, INT_MAX, &n, error)) return false;
      o.run.reps = int(n);
    } else if (name == "--warmup") {
      if (!parse_int_option(name, value, 0, INT_MAX, &n, error)) return false;
      o.run.warmup = int(n);
    } else if (name == "--seed") {
      if (!parse_int_option(name, value, 0, LLONG_MAX, &n, error)) return false;
      o.run.seed = uint64_t(n);
    } else if (name == "--device") {
      if (!parse_int_option(name, value, 0, INT_MAX, &n, error)) return false;
      o.run.device = int(n);
    } else if (name == "--csv") {
      o.csv_path = value;
    } else if (name == "--md") {
      o.md_path = value;
    } else if (name == "--ncu-metrics") {
      o.ncu_metrics_path = value;
    } else if (name == "--profile-once") {
      o.run.profile_once = true;
    } else if (name == "--dry-run") {
      o.dry_run = true;
    }
    if (!ok) return *error = name + " " + value + ": " + err, false;
    if ((name == "--csv" || name == "--md" || name == "--ncu-metrics") && value.empty())
      return *error = name + " needs a file name", false;
  }
  if (pad_given && pad_ab_given)
    return *error = "--pad sets pad_a = pad_b; use it or --pad-a/--pad-b, not both", false;
  *out = o;
  return true;
}

}  // namespace tcgemm::sweep
