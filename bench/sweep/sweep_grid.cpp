#include "sweep_grid.hpp"

#include <algorithm>
#include <climits>

#include "cli_args.hpp"

namespace tcgemm::sweep {
namespace {

std::string trim(const std::string& s) {
  const char* space = " \t\r\n";
  const size_t first = s.find_first_not_of(space);
  if (first == std::string::npos) return "";
  const size_t last = s.find_last_not_of(space);
  return s.substr(first, last - first + 1);
}

// A whole item (blanks around it allowed) must be an integer in the int32 range; "4x", "", "1e3" are rejected.
bool parse_int32(const std::string& raw, int32_t* out) {
  long long v = 0;
  std::string why;
  if (!bench::parse_integer(trim(raw), INT32_MIN, INT32_MAX, &v, &why)) return false;
  *out = static_cast<int32_t>(v);
  return true;
}

// Expands one item ("4" or "first:last[:step]") and appends its values.
bool expand_item(const std::string& item, std::vector<int32_t>* values, std::string* error) {
  const std::vector<std::string> fields = bench::split_fields(item, ':');
  if (fields.size() == 1) {
    int32_t v = 0;
    if (!parse_int32(fields[0], &v)) {
      *error = "'" + item + "' is not an integer";
      return false;
    }
    values->push_back(v);
    return true;
  }
  if (fields.size() > 3) {
    *error = "'" + item + "': a range is first:last or first:last:step";
    return false;
  }
  int32_t first = 0, last = 0, step = 1;
  if (!parse_int32(fields[0], &first) || !parse_int32(fields[1], &last) ||
      (fields.size() == 3 && !parse_int32(fields[2], &step))) {
    *error = "'" + item + "': a range is first:last or first:last:step with integers";
    return false;
  }
  if (step <= 0) {
    *error = "'" + item + "': the step of a range must be >= 1";
    return false;
  }
  if (last < first) {
    *error = "'" + item + "': the last value of a range must be >= the first";
    return false;
  }
  if ((int64_t(last) - first) / step + 1 > int64_t(kMaxListValues)) {
    *error = "'" + item + "' expands to more than " + std::to_string(kMaxListValues) + " values";
    return false;
  }
  for (int64_t v = first; v <= last; v += step) values->push_back(static_cast<int32_t>(v));
  return true;
}

template <typename T, typename Eq>
void append_unique(std::vector<T>* out, const T& v, Eq eq) {
  for (const T& have : *out)
    if (eq(have, v)) return;
  out->push_back(v);
}

}  // namespace

bool parse_int_list(const std::string& text, std::vector<int32_t>* out, std::string* error) {
  std::vector<int32_t> values;
  if (trim(text).empty()) {
    *error = "empty list";
    return false;
  }
  for (const std::string& raw : bench::split_fields(text, ',')) {
    const std::string item = trim(raw);
    if (item.empty()) {
      *error = "empty item in '" + text + "'";
      return false;
    }
    std::vector<int32_t> item_values;
    if (!expand_item(item, &item_values, error)) return false;
    for (int32_t v : item_values) append_unique(&values, v, [](int32_t a, int32_t b) { return a == b; });
    if (values.size() > kMaxListValues) {
      *error = "'" + text + "' has more than " + std::to_string(kMaxListValues) + " values";
      return false;
    }
  }
  *out = values;
  return true;
}

bool parse_tile_list(const std::string& text, std::vector<TileShape>* out, std::string* error) {
  std::vector<TileShape> tiles;
  const auto same = [](const TileShape& a, const TileShape& b) { return a.m == b.m && a.n == b.n; };
  if (trim(text).empty()) {
    *error = "empty list";
    return false;
  }
  for (const std::string& raw : bench::split_fields(text, ',')) {
    const std::string item = trim(raw);
    const size_t x = item.find_first_of("xX");
    if (x != std::string::npos) {
      TileShape t;
      if (!parse_int32(item.substr(0, x), &t.m) || !parse_int32(item.substr(x + 1), &t.n)) {
        *error = "'" + item + "': a tile is T (square) or MxN with integers, e.g. 128x64";
        return false;
      }
      append_unique(&tiles, t, same);
      continue;
    }
    if (item.empty()) {
      *error = "empty item in '" + text + "'";
      return false;
    }
    std::vector<int32_t> values;
    if (!expand_item(item, &values, error)) return false;
    for (int32_t v : values) append_unique(&tiles, TileShape{v, v}, same);
    if (tiles.size() > kMaxListValues) {
      *error = "'" + text + "' has more than " + std::to_string(kMaxListValues) + " tiles";
      return false;
    }
  }
  *out = tiles;
  return true;
}

bool parse_size(const std::string& raw, int64_t* out, std::string* error) {
  long long v = 0;
  std::string why;
  if (!bench::parse_integer(trim(raw), LLONG_MIN, LLONG_MAX, &v, &why)) {
    *error = "'" + raw + "': " + why;
    return false;
  }
  if (v < 1) {
    *error = "'" + raw + "': a matrix size must be >= 1";
    return false;
  }
  *out = v;
  return true;
}

bool parse_family(const std::string& text, int32_t* family, std::string* error) {
  int32_t f = 0;
  if (!bench::family_from_name(trim(text), &f) || f == TCGEMM_FAMILY_AUTO) {
    *error = "'" + text + "' is not a sweepable family (shared_a, shared_ab or sm90_mma)";
    return false;
  }
  *family = f;
  return true;
}

const char* family_name(int32_t family) { return bench::family_label(family); }

SweepSpec table2_spec() {
  SweepSpec spec;
  spec.family = TCGEMM_FAMILY_SHARED_A;
  spec.tiles = {{32, 32}, {64, 64}, {96, 96}, {128, 128}};
  spec.pad_a = {0, 2, 4, 6};
  return spec;
}

SweepSpec table3_spec() {
  SweepSpec spec;
  spec.family = TCGEMM_FAMILY_SHARED_AB;
  spec.tiles = {{32, 32}, {64, 64}, {96, 96}, {128, 128}};
  spec.tile_k = {32, 64, 96, 128};
  spec.pad_a = {4};
  spec.pad_b = {4};
  spec.stages = {1, 2};
  return spec;
}

std::vector<SweepPoint> expand(const SweepSpec& spec) {
  // Unspecified axes come from the family's complete default configuration, so every point carries
  // explicit values (what runs is what the CSV shows). An unknown family leaves a zero config that
  // validation then rejects with its own message.
  tcgemm_config base{};
  base.family = spec.family;
  if (tcgemm_default_config(spec.family, &base) != TCGEMM_SUCCESS) {
    base = tcgemm_config{};
    base.family = spec.family;
  }
  const auto or_default = [](const std::vector<int32_t>& v, int32_t fallback) {
    return v.empty() ? std::vector<int32_t>{fallback} : v;
  };
  const std::vector<TileShape> tiles =
      spec.tiles.empty() ? std::vector<TileShape>{{base.tile_m, base.tile_n}} : spec.tiles;
  const std::vector<int32_t> tile_k = or_default(spec.tile_k, base.tile_k);
  const std::vector<int32_t> pad_a = or_default(spec.pad_a, base.pad_a);
  const std::vector<int32_t> pad_b =
      spec.pad_b_follows_pad_a ? std::vector<int32_t>{0} : or_default(spec.pad_b, base.pad_b);
  const std::vector<int32_t> stages = or_default(spec.stages, base.stages);

  std::vector<SweepPoint> points;
  for (const TileShape& tile : tiles)
    for (int32_t tk : tile_k)
      for (int32_t pa : pad_a)
        for (int32_t pb : pad_b)
          for (int32_t st : stages) {
            SweepPoint p;
            p.index = points.size();
            p.m = spec.m;
            p.n = spec.n;
            p.k = spec.k;
            p.config = base;
            p.config.tile_m = tile.m;
            p.config.tile_n = tile.n;
            p.config.tile_k = tk;
            p.config.pad_a = pa;
            p.config.pad_b = spec.pad_b_follows_pad_a ? pa : pb;
            p.config.stages = st;
            if (tcgemm_config_validate(&p.config) != TCGEMM_SUCCESS) {
              p.invalid_reason = tcgemm_last_error();
              if (p.invalid_reason.empty()) p.invalid_reason = "invalid configuration";
            } else {
              int64_t bytes = 0;
              int32_t threads = 0;
              if (tcgemm_config_shared_memory_bytes(&p.config, &bytes) == TCGEMM_SUCCESS) p.smem_bytes = bytes;
              if (tcgemm_config_threads_per_block(&p.config, &threads) == TCGEMM_SUCCESS) p.threads = threads;
            }
            points.push_back(p);
          }
  return points;
}

std::string point_label(const SweepPoint& p) {
  const tcgemm_config& c = p.config;
  return std::string(family_name(c.family)) + " " + std::to_string(c.tile_m) + "x" + std::to_string(c.tile_n) +
         "x" + std::to_string(c.tile_k) + " pad_a=" + std::to_string(c.pad_a) +
         " pad_b=" + std::to_string(c.pad_b) + " stages=" + std::to_string(c.stages);
}

std::string point_key(const SweepPoint& p) {
  const tcgemm_config& c = p.config;
  return std::string(kPointKeyPrefix) + family_name(c.family) + ":" + std::to_string(p.m) + "x" +
         std::to_string(p.n) + "x" + std::to_string(p.k) + ":" + std::to_string(c.tile_m) + "x" +
         std::to_string(c.tile_n) + "x" + std::to_string(c.tile_k) + ":pad_a=" + std::to_string(c.pad_a) +
         ":pad_b=" + std::to_string(c.pad_b) + ":stages=" + std::to_string(c.stages);
}

}  // namespace tcgemm::sweep
