#include "sweep_grid.hpp"

#include <algorithm>
#include <climits>

#include "cli_args.hpp"
#include "families/wmma_lowp/rules.hpp"

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

bool parse_precision(const std::string& raw, Precision* out, std::string* error) {
  const std::string text = trim(raw);
  static const struct {
    const char* name;
    Precision value;
  } kNames[] = {{"fp64", Precision::kFp64}, {"f16", Precision::kF16}, {"f16acc16", Precision::kF16Acc16},
                {"bf16", Precision::kBf16}, {"tf32", Precision::kTf32}};
  for (const auto& n : kNames)
    if (text == n.name) {
      *out = n.value;
      return true;
    }
  *error = "'" + raw + "' is not a precision (fp64, f16, f16acc16, bf16 or tf32)";
  return false;
}

const char* precision_name(Precision p) {
  switch (p) {
    case Precision::kFp64: return "fp64";
    case Precision::kF16: return "f16";
    case Precision::kF16Acc16: return "f16acc16";
    case Precision::kBf16: return "bf16";
    case Precision::kTf32: return "tf32";
  }
  return "?";
}

bool parse_wmma_shape(const std::string& raw, int32_t* shape, std::string* error) {
  const std::string text = trim(raw);
  for (int32_t s : {TCGEMM_WMMA_16x16x16, TCGEMM_WMMA_32x8x16, TCGEMM_WMMA_8x32x16, TCGEMM_WMMA_16x16x8})
    if (text == wmma_shape_name(s)) {
      *shape = s;
      return true;
    }
  *error = "'" + raw + "' is not a WMMA shape (16x16x16, 32x8x16, 8x32x16 or 16x16x8)";
  return false;
}

const char* wmma_shape_name(int32_t shape) {
  switch (shape) {
    case TCGEMM_WMMA_16x16x16: return "16x16x16";
    case TCGEMM_WMMA_32x8x16: return "32x8x16";
    case TCGEMM_WMMA_8x32x16: return "8x32x16";
    case TCGEMM_WMMA_16x16x8: return "16x16x8";
    default: return "default";
  }
}

int32_t input_type_of(Precision p) {
  switch (p) {
    case Precision::kF16:
    case Precision::kF16Acc16: return TCGEMM_TYPE_F16;
    case Precision::kBf16: return TCGEMM_TYPE_BF16;
    case Precision::kTf32: return TCGEMM_TYPE_F32;
    case Precision::kFp64: break;
  }
  return TCGEMM_TYPE_F64;
}

int32_t compute_type_of(Precision p) {
  return p == Precision::kFp64 ? TCGEMM_TYPE_F64 : p == Precision::kF16Acc16 ? TCGEMM_TYPE_F16 : TCGEMM_TYPE_F32;
}

// FP16 accumulation writes FP16, as cuBLAS's FP16-compute GEMM (the yardstick) must.
int32_t output_type_of(Precision p) { return compute_type_of(p); }

int32_t input_bytes_of(Precision p) {
  const int32_t t = input_type_of(p);
  return t == TCGEMM_TYPE_F64 ? 8 : t == TCGEMM_TYPE_F32 ? 4 : 2;
}

std::string family_text(const SweepPoint& p) {
  if (p.precision == Precision::kFp64) return family_name(p.config.family);
  return std::string("wmma_lowp ") + precision_name(p.precision) + " " + wmma_shape_name(p.wmma.shape);
}

std::string reference_text(const SweepPoint& p) {
  switch (p.precision) {
    case Precision::kFp64: return "cuBLAS DGEMM";
    case Precision::kF16: return "cuBLAS GemmEx F16 (FP32 accumulation)";
    case Precision::kF16Acc16: return "cuBLAS GemmEx F16 (FP16 accumulation)";
    case Precision::kBf16: return "cuBLAS GemmEx BF16 (FP32 accumulation)";
    case Precision::kTf32: return "cuBLAS GemmEx TF32 (FP32 accumulation)";
  }
  return "cuBLAS";
}

namespace {

// The article's paddings, in doubles, as elements of a lower precision's input type (same bytes).
std::vector<int32_t> pads_in_elements(std::initializer_list<int32_t> doubles, Precision p) {
  std::vector<int32_t> out;
  for (int32_t d : doubles) out.push_back(d * 8 / input_bytes_of(p));
  return out;
}

}  // namespace

SweepSpec table2_spec(Precision precision, int32_t wmma_shape) {
  SweepSpec spec;
  spec.precision = precision;
  spec.wmma_shape = wmma_shape;
  spec.family = TCGEMM_FAMILY_SHARED_A;
  spec.tiles = {{32, 32}, {64, 64}, {96, 96}, {128, 128}};
  if (precision == Precision::kFp64) {
    spec.pad_a = {0, 2, 4, 6};
  } else {  // the WMMA family keeps both tiles in shared memory: pad them together
    spec.pad_a = pads_in_elements({0, 2, 4, 6}, precision);
    spec.pad_b_follows_pad_a = true;
  }
  return spec;
}

SweepSpec table3_spec(Precision precision, int32_t wmma_shape) {
  SweepSpec spec;
  spec.precision = precision;
  spec.wmma_shape = wmma_shape;
  spec.family = TCGEMM_FAMILY_SHARED_AB;
  spec.tiles = {{32, 32}, {64, 64}, {96, 96}, {128, 128}};
  spec.tile_k = {32, 64, 96, 128};
  spec.stages = {1, 2, 3, 4};
  if (precision == Precision::kFp64) {
    spec.pad_a = {4};
    spec.pad_b = {4};
  } else {
    spec.pad_a = pads_in_elements({4}, precision);
    spec.pad_b = spec.pad_a;
  }
  return spec;
}

namespace {

// A point of a lower precision: the WMMA configuration resolved (every default filled in) and mirrored
// into p->config's tile, tile_k and pad fields; invalid_reason holds the library's message otherwise.
void set_lowp_point(const SweepSpec& spec, TileShape tile, int32_t tk, int32_t pa, int32_t pb, int32_t st,
                    SweepPoint* p) {
  tcgemm_wmma_config w{};
  // The default shape made explicit, so that points the library refuses still name it (and group with the
  // others in the tables).
  w.shape = spec.wmma_shape != TCGEMM_WMMA_SHAPE_DEFAULT ? spec.wmma_shape
            : spec.precision == Precision::kTf32          ? TCGEMM_WMMA_16x16x8
                                                          : TCGEMM_WMMA_16x16x16;
  w.tile = tile.m;
  w.tile_n = tile.n;
  w.tile_k = tk;
  w.pad_a = pa;
  w.pad_b = pb;
  w.stages = st;
  p->wmma = w;
  p->config = tcgemm_config{};
  p->config.tile_m = tile.m;
  p->config.tile_n = tile.n;
  p->config.tile_k = tk;
  p->config.pad_a = pa;
  p->config.pad_b = pb;
  p->config.stages = st;
  tcgemm_wmma_config resolved{};
  int64_t bytes = 0;
  if (tcgemm_wmma_config_resolve(input_type_of(spec.precision), compute_type_of(spec.precision), &w, &resolved,
                                 &bytes) != TCGEMM_SUCCESS) {
    p->invalid_reason = tcgemm_last_error();
    if (p->invalid_reason.empty()) p->invalid_reason = "invalid configuration";
    return;
  }
  p->wmma = resolved;
  p->config.tile_m = resolved.tile;
  p->config.tile_n = resolved.tile_n;
  p->config.tile_k = resolved.tile_k;
  p->config.pad_a = resolved.pad_a;
  p->config.pad_b = resolved.pad_b;
  p->config.stages = resolved.stages;
  p->smem_bytes = bytes;  // the most of the four operand forms (tcgemm_wmma_config_resolve)
  // Warps of 32 x 32 at 64 x 64, of 64 x 64 otherwise (tcgemm.h, tcgemm_wmma_config).
  const int32_t warp = resolved.tile == 64 && resolved.tile_n == 64 ? 32 : 64;
  p->threads = resolved.tile / warp * (resolved.tile_n / warp) * 32;
  p->fixed_kernel = lowp_is_fixed_config(spec.precision, resolved);
}

}  // namespace

bool lowp_is_fixed_config(Precision p, const tcgemm_wmma_config& r) {
  return p != Precision::kFp64 && tcgemm::detail::lowp_is_fixed_config(r, p == Precision::kTf32 ? 4 : 2);
}

std::vector<SweepPoint> expand(const SweepSpec& spec) {
  const bool lowp = spec.precision != Precision::kFp64;
  // Unspecified axes come from the family's complete default configuration, so every point carries
  // explicit values (what runs is what the CSV shows). An unknown family leaves a zero config that
  // validation then rejects with its own message.
  tcgemm_config base{};
  base.family = spec.family;
  if (lowp) {
    // The WMMA family's defaults for this precision and shape, mirrored (0s if the shape is refused: every
    // point then carries the library's message).
    base = tcgemm_config{};
    tcgemm_wmma_config want{}, got{};
    want.shape = spec.wmma_shape;
    want.pad_a = want.pad_b = 16 / input_bytes_of(spec.precision);
    int64_t bytes = 0;
    if (tcgemm_wmma_config_resolve(input_type_of(spec.precision), compute_type_of(spec.precision), &want, &got,
                                   &bytes) == TCGEMM_SUCCESS) {
      base.tile_m = got.tile;
      base.tile_n = got.tile_n;
      base.tile_k = got.tile_k;
      base.stages = got.stages;
    }
  } else if (tcgemm_default_config(spec.family, &base) != TCGEMM_SUCCESS) {
    base = tcgemm_config{};
    base.family = spec.family;
  }
  const auto or_default = [](const std::vector<int32_t>& v, int32_t fallback) {
    return v.empty() ? std::vector<int32_t>{fallback} : v;
  };
  const std::vector<TileShape> tiles =
      spec.tiles.empty() ? std::vector<TileShape>{{base.tile_m, base.tile_n}} : spec.tiles;
  const std::vector<int32_t> tile_k = or_default(spec.tile_k, base.tile_k);
  // The WMMA family's default padding is 16 bytes of the input type (what a NULL configuration uses).
  if (lowp) base.pad_a = base.pad_b = 16 / input_bytes_of(spec.precision);
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
            p.precision = spec.precision;
            p.m = spec.m;
            p.n = spec.n;
            p.k = spec.k;
            if (lowp) {
              set_lowp_point(spec, tile, tk, pa, spec.pad_b_follows_pad_a ? pa : pb, st, &p);
              points.push_back(p);
              continue;
            }
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
  std::string label = family_text(p) + " " + std::to_string(c.tile_m) + "x" + std::to_string(c.tile_n) + "x" +
                      std::to_string(c.tile_k) + " pad_a=" + std::to_string(c.pad_a) +
                      " pad_b=" + std::to_string(c.pad_b);
  label += " stages=" + std::to_string(c.stages);
  return label;
}

std::string point_key(const SweepPoint& p) {
  const tcgemm_config& c = p.config;
  std::string family = family_text(p);
  for (char& ch : family)
    if (ch == ' ') ch = '_';
  std::string key = std::string(kPointKeyPrefix) + family + ":" + std::to_string(p.m) + "x" + std::to_string(p.n) +
                    "x" + std::to_string(p.k) + ":" + std::to_string(c.tile_m) + "x" + std::to_string(c.tile_n) +
                    "x" + std::to_string(c.tile_k) + ":pad_a=" + std::to_string(c.pad_a) +
                    ":pad_b=" + std::to_string(c.pad_b);
  key += ":stages=" + std::to_string(c.stages);
  return key;
}

}  // namespace tcgemm::sweep
