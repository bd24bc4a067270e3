#include "family_options.hpp"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>

#include "cli_args.hpp"

namespace tcgemm::bench {
namespace {

// A list of tcgemm_config fields (int32_t): 0 is the family's default; no field has a negative meaning.
bool config_list(const std::string& value, std::vector<int>* out, std::string* why) {
  std::vector<int> list;
  for (const auto& item : split_fields(value, ',')) {
    long long v = 0;
    if (!parse_integer(item, 0, INT32_MAX, &v, why)) return *why = "'" + item + "': " + *why, false;
    list.push_back(int(v));
  }
  *out = list;
  return true;
}

// One dimension of a --sizes item; at most INT_MAX because cuBLAS, the yardstick, takes int dimensions.
bool dimension(const std::string& text, int64_t* out, std::string* why) {
  long long v = 0;
  if (!parse_integer(text, 1, INT_MAX, &v, why)) return *why = "'" + text + "': " + *why, false;
  *out = v;
  return true;
}

bool size_list(const std::string& value, std::vector<Size>* out, std::string* why) {
  std::vector<Size> sizes;
  for (const auto& item : split_fields(value, ',')) {
    Size s{};
    if (!parse_shape(item, &s, why)) return false;
    sizes.push_back(s);
  }
  *out = sizes;
  return true;
}

bool family_list(const std::string& value, std::vector<int32_t>* out, std::string* why) {
  std::vector<int32_t> families;
  for (const auto& name : split_fields(value, ',')) {
    int32_t family = 0;
    if (!family_from_name(name, &family))
      return *why = "'" + name + "' is not shared_a, shared_ab, sm90_mma, skinny or auto", false;
    families.push_back(family);
  }
  *out = families;
  return true;
}

bool trans_list(const std::string& value, std::vector<std::string>* out, std::string* why) {
  const auto list = split_fields(value, ',');
  for (const auto& t : list)
    if (t.size() != 2 || !std::strchr("NnTtCc", t[0]) || !std::strchr("NnTtCc", t[1]))
      return *why = "'" + t + "' must be two of N/T/C, e.g. NN or TN", false;
  *out = list;
  return true;
}

}  // namespace

bool parse_shape(const std::string& item, Size* out, std::string* why) {
  const auto dims = split_fields(item, 'x');
  Size s{};
  if (dims.size() == 1) {
    if (!dimension(dims[0], &s.m, why)) return false;
    s.n = s.k = s.m;
  } else if (dims.size() == 3) {
    if (!dimension(dims[0], &s.m, why) || !dimension(dims[1], &s.n, why) || !dimension(dims[2], &s.k, why))
      return false;
  } else {
    return *why = "'" + item + "' is neither N nor MxNxK", false;
  }
  *out = s;
  return true;
}

void add_family_options(CLI::App& app, FamilyOptions* o) {
  add_checked_option(app, "--family", parse_into(family_list, &o->families),
                     "shared_a, shared_ab, sm90_mma, skinny, auto (default shared_ab)", "LIST");
  // tcgemm_config fields, every combination of the lists measured.
  const struct {
    const char* name;
    std::vector<int>* list;
    const char* help;
  } config_lists[] = {
      {"--tile", &o->tiles, "C tile (tile_m = tile_n): 32, 64, 96, 128 for shared_a/shared_ab"},
      {"--tile-n", &o->tiles_n, "sm90_mma: tile_n when it differs from tile_m (e.g. --tile 128 --tile-n 64)"},
      {"--tile-k", &o->tile_ks, "shared_ab: k depth of the shared tiles (multiple of 4, 4..256)"},
      {"--pad-a", &o->pads_a, "shared-memory padding of the A tile in doubles (multiple of 2)"},
      {"--pad-b", &o->pads_b, "shared_ab: padding of the B tile in doubles"},
      {"--stages", &o->stages, "shared_ab: 1 (load, sync, compute) to 6 (a ring of cp.async buffers)"},
      {"--k-splits", &o->k_splits, "sm90_mma, skinny: split-K slice count (0 or 1: none)"},
  };
  for (const auto& c : config_lists) add_checked_option(app, c.name, parse_into(config_list, c.list), c.help, "LIST");
  add_checked_option(app, "--sizes", parse_into(size_list, &o->sizes),
                     "N (square) or MxNxK; default 2048,3200,4096,8192", "LIST");
  add_checked_option(app, "--trans", parse_into(trans_list, &o->trans), "NN, NT, TN, TT (default NN)", "LIST");
  add_finite_double_option(app, "--alpha", &o->alpha, "default 1", "X");
  add_finite_double_option(app, "--beta", &o->beta, "default 0", "Y");
  add_integer_option(app, "--reps", &o->reps, kMinReps, INT_MAX,
                     "timed runs per point, >= " + std::to_string(kMinReps) + " (default " +
                         std::to_string(kFamilyDefaultReps) + "); the median is reported",
                     "R");
  add_integer_option(app, "--warmup", &o->warmup, 0, INT_MAX,
                     "untimed runs before timing (default " + std::to_string(kFamilyDefaultWarmup) + ")", "W");
  add_integer_option(app, "--calls-per-run", &o->calls_per_run, 1, kMaxCallsPerRun,
                     "back-to-back calls inside each timed run, time per call reported (default 1: single "
                     "calls; more: the throughput of a loop of calls, launch latency hidden)",
                     "C");
  add_integer_option(app, "--seed", &o->seed, 0, LLONG_MAX,
                     "base of the random data's seeds (default " + std::to_string(kFamilyDefaultSeed) + ")", "S");
  add_output_file_option(app, "--csv", &o->csv, "also write the rows as CSV");
}

std::vector<tcgemm_config> expand_configs(const FamilyOptions& o, int32_t family) {
  tcgemm_config base{};
  base.family = family;
  if (family == TCGEMM_FAMILY_AUTO) return {base};
  if (tcgemm_default_config(family, &base) != TCGEMM_SUCCESS) return {};
  auto or_default = [](const std::vector<int>& list, int def) { return list.empty() ? std::vector<int>{def} : list; };
  std::vector<tcgemm_config> out;
  for (int tile : or_default(o.tiles, base.tile_m))
    for (int tn : or_default(o.tiles_n, o.tiles.empty() ? base.tile_n : tile))
      for (int tk : or_default(o.tile_ks, base.tile_k))
        for (int pa : or_default(o.pads_a, base.pad_a))
          for (int pb : or_default(o.pads_b, base.pad_b))
            for (int st : or_default(o.stages, base.stages))
              for (int ks : or_default(o.k_splits, 0)) {
              tcgemm_config c = base;
              c.tile_m = tile;
              // shared_a/shared_ab tiles are square (validation rejects tile_n != tile_m there); sm90_mma has
              // rectangular shapes such as its default 128x64.
              c.tile_n = tn;
              c.pad_a = pa;
              if (family == TCGEMM_FAMILY_SHARED_A) {  // the only legal values for the fields shared_a lacks
                c.tile_k = base.tile_k;
                c.pad_b = 0;
                c.stages = base.stages;
              } else if (family == TCGEMM_FAMILY_SM90_MMA) {  // fixed shared-memory layout: no paddings
                c.tile_k = o.tile_ks.empty() ? base.tile_k : tk;
                c.pad_a = c.pad_b = 0;
                c.stages = st;
                c.k_splits = ks;
              } else if (family == TCGEMM_FAMILY_SKINNY) {  // no tiles; only the k-chunk count
                c = base;
                c.k_splits = ks;
              } else {
                c.tile_k = tk;
                c.pad_b = pb;
                c.stages = st;
              }
              const bool duplicate = std::any_of(
                  out.begin(), out.end(), [&](const tcgemm_config& x) { return !std::memcmp(&x, &c, sizeof c); });
              if (!duplicate) out.push_back(c);
            }
  return out;
}

std::string config_label(const tcgemm_config& c) {
  if (c.family == TCGEMM_FAMILY_AUTO) return "(default)";
  char buf[128];
  if (c.family == TCGEMM_FAMILY_SKINNY) {
    std::snprintf(buf, sizeof buf, "skinny ks %d", c.k_splits);
    return buf;
  }
  std::snprintf(buf, sizeof buf, "%dx%dx%d pad %d/%d st %d", c.tile_m, c.tile_n, c.tile_k, c.pad_a, c.pad_b,
                c.stages);
  if (c.k_splits > 1) std::snprintf(buf + std::strlen(buf), sizeof buf - std::strlen(buf), " ks %d", c.k_splits);
  return buf;
}

}  // namespace tcgemm::bench
