// All run-time rules of tcgemm in one place (host only, no CUDA calls).
#include "validate.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "checked_math.hpp"
#include "config_rules.hpp"

namespace tcgemm::detail {
namespace {

// ---- argument naming ------------------------------------------------------------------------------

// Names arguments in messages (BLAS position or name=value) and records their positions.
struct ArgNamer {
  ArgNaming naming;
  const ArgPositions& pos;
  // "argument 8 (lda) must be >= max(1, m) = 4, got 3" or "lda=3: must be >= max(1, m) = 4".
  tcgemm_status fail_int(int position, const char* name, int64_t value, const char* rule_fmt, int64_t bound,
                         const char* bound_text) const {
    if (naming == ArgNaming::Blas)
      return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, position,
                           "argument %d (%s) %s%s = %" PRId64 ", got %" PRId64, position, name, rule_fmt,
                           bound_text, bound, value);
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, position, "%s=%" PRId64 ": %s%s = %" PRId64, name, value,
                         rule_fmt, bound_text, bound);
  }
  tcgemm_status fail_null(int position, const char* name, const char* why) const {
    if (naming == ArgNaming::Blas)
      return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, position, "argument %d (%s) is NULL but %s", position,
                           name, why);
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, position, "%s is NULL but %s", name, why);
  }
  // "argument 8 (lda)" or "lda=<value>" as the subject of a longer message.
  void subject(char* buf, size_t size, int position, const char* name, int64_t value) const {
    if (naming == ArgNaming::Blas) std::snprintf(buf, size, "argument %d (%s) = %" PRId64, position, name, value);
    else std::snprintf(buf, size, "%s=%" PRId64, name, value);
  }
};

bool normalise_trans(char t, char* out) {
  switch (t) {
    case 'N': case 'n': *out = 'N'; return true;
    case 'T': case 't': case 'C': case 'c': *out = 'T'; return true;  // real data: conjugate = transpose
    default: return false;
  }
}

tcgemm_status check_trans(int position, const char* name, char value, char* out) {
  if (normalise_trans(value, out)) return TCGEMM_SUCCESS;
  return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, position,
                       "argument %d (%s) must be 'N', 'T' or 'C', got '%c' (%d)",
                       position, name, value >= 32 && value < 127 ? value : '?', int(value));
}

tcgemm_status check_size(const ArgNamer& nm, int position, const char* name, int64_t value) {
  if (value >= 0) return TCGEMM_SUCCESS;
  if (nm.naming == ArgNaming::Blas)
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, position, "argument %d (%s) must be >= 0, got %" PRId64,
                         position, name, value);
  return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, position, "%s=%" PRId64 ": must be >= 0", name, value);
}

tcgemm_status check_ld(const ArgNamer& nm, int position, const char* name, int64_t ld, int64_t rows,
                       const char* rows_text) {
  const int64_t need = std::max<int64_t>(1, rows);
  if (ld < need) {
    char bound[64];
    std::snprintf(bound, sizeof bound, "max(1, %s)", rows_text);
    return nm.fail_int(position, name, ld, "must be >= ", need, bound);
  }
  return TCGEMM_SUCCESS;
}

// One matrix as the call touches it: `cols` columns of `ld` doubles from `data`.
struct MatrixExtent {
  const char* matrix;  // "A", "B", "C"
  const void* data;
  int data_pos;
  const char* ld_name;
  int64_t ld;
  int ld_pos;
  int64_t cols;
};

// The extent rule: ld x cols doubles must stay within TCGEMM_MAX_MATRIX_BYTES (so every 64-bit offset the
// kernels and the host path form, several tiles past the edges included, is exact) and must not run past
// the end of the address space. The leading dimension is blamed: it is the stride that makes the extent.
tcgemm_status check_extent(const ArgNamer& nm, const MatrixExtent& x) {
  int64_t elements = 0, bytes = 0;
  char subject[96];
  nm.subject(subject, sizeof subject, x.ld_pos, x.ld_name, x.ld);
  if (!checked_mul(x.ld, x.cols, &elements) || !checked_mul(elements, int64_t(sizeof(double)), &bytes) ||
      bytes > TCGEMM_MAX_MATRIX_BYTES)
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, x.ld_pos,
                         "%s: matrix %s (%s x %" PRId64 " columns of doubles) spans more than 2^52 bytes "
                         "(TCGEMM_MAX_MATRIX_BYTES), more than 64-bit offsets address safely or any device holds",
                         subject, x.matrix, x.ld_name, x.cols);
  if (x.data && reinterpret_cast<uintptr_t>(x.data) > UINTPTR_MAX - uint64_t(bytes))
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, x.data_pos,
                         "%s: matrix %s at %p would run past the end of the address space", subject, x.matrix,
                         x.data);
  return TCGEMM_SUCCESS;
}

// ---- grid rule --------------------------------------------------------------------------------------

constexpr int64_t kMaxBlocksPerLaunch = 2147483647;  // gridDim.x limit

tcgemm_status fail_grid(const ArgNamer& nm, int position, const char* name, int64_t value, int64_t blocks,
                        int tile_m, int tile_n, const char* family) {
  char subject[96];
  nm.subject(subject, sizeof subject, position, name, value);
  return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, position,
                       "%s: family %s would need %" PRId64 " thread blocks of %dx%d C elements; one launch takes "
                       "at most 2^31 - 1",
                       subject, family, blocks, tile_m, tile_n);
}

// ---- configuration helpers ------------------------------------------------------------------------

// Position of a configuration field: its own argument where the entry point takes it separately, else
// the configuration's.
int field_position(const ArgPositions& pos, const char* field) {
  const struct { const char* name; int position; } fields[] = {
      {"tile_m", pos.tile_m}, {"tile_n", pos.tile_n}, {"tile_k", pos.tile_k},
      {"pad_a", pos.pad_a},   {"pad_b", pos.pad_b},   {"stages", pos.stages}};
  for (const auto& f : fields)
    if (std::strcmp(f.name, field) == 0 && f.position != 0) return f.position;
  return pos.config;
}

tcgemm_status config_error(const ArgPositions& pos, const char* fmt_family, const char* field, int32_t value,
                           const char* rule) {
  return set_arg_error(TCGEMM_ERROR_INVALID_CONFIG, field_position(pos, field), "%s=%d: %s (family %s)", field,
                       value, rule, fmt_family);
}

tcgemm_status check_pad(const ArgPositions& pos, const char* fam, const char* field, int32_t pad) {
  if (pad < 0) return config_error(pos, fam, field, pad, "shared-memory padding must be >= 0");
  if (pad % kPadMultiple != 0)
    return config_error(pos, fam, field, pad, "shared-memory padding must be a multiple of 2 doubles (16 bytes)");
  if (pad > kMaxPad) return config_error(pos, fam, field, pad, "shared-memory padding must be <= 64 doubles");
  return TCGEMM_SUCCESS;
}

tcgemm_status require_zero(const ArgPositions& pos, const char* fam, const char* field, int32_t value,
                           const char* why) {
  if (value != 0) return config_error(pos, fam, field, value, why);
  return TCGEMM_SUCCESS;
}

// The example families that read their operands from global memory: no k tile, padding or pipeline.
tcgemm_status require_no_shared_tiles(const ArgPositions& pos, const char* fam, const tcgemm_config& c) {
  TCGEMM_TRY(require_zero(pos, fam, "tile_k", c.tile_k, "this family has no shared-memory k tile; must be 0"));
  TCGEMM_TRY(require_zero(pos, fam, "pad_a", c.pad_a, "this family uses no shared memory; must be 0"));
  TCGEMM_TRY(require_zero(pos, fam, "pad_b", c.pad_b, "this family uses no shared memory; must be 0"));
  return require_zero(pos, fam, "stages", c.stages, "this family has no pipeline; must be 0");
}

tcgemm_status validate_fixed_tile_family(const tcgemm_config& c, const ArgPositions& pos, tcgemm_config* out) {
  const char* fam = family_name(c.family);
  if (c.tile_m != 0 && c.tile_m != kWmmaM)
    return config_error(pos, fam, "tile_m", c.tile_m, "this family's C tile is 8 x 8");
  if (c.tile_n != 0 && c.tile_n != kWmmaN)
    return config_error(pos, fam, "tile_n", c.tile_n, "this family's C tile is 8 x 8");
  TCGEMM_TRY(require_no_shared_tiles(pos, fam, c));
  out->tile_m = kWmmaM;
  out->tile_n = kWmmaN;
  return TCGEMM_SUCCESS;
}

tcgemm_status validate_block_tile(const tcgemm_config& c, const ArgPositions& pos, tcgemm_config* out) {
  const char* fam = family_name(c.family);
  const int tm = c.tile_m ? c.tile_m : kBlockTileDefaultM;
  const int tn = c.tile_n ? c.tile_n : kBlockTileDefaultN;
  if (tm < kWmmaM || tm > kBlockTileMax || tm % kWmmaM != 0)
    return config_error(pos, fam, "tile_m", tm,
                        "must be a multiple of 8 between 8 and 128 (one warp per 8x8 C tile)");
  if (tn < kWmmaN || tn > kBlockTileMax || tn % kWmmaN != 0)
    return config_error(pos, fam, "tile_n", tn,
                        "must be a multiple of 8 between 8 and 128 (one warp per 8x8 C tile)");
  if ((tm / kWmmaM) * (tn / kWmmaN) > kBlockTileMaxWarps)
    return set_arg_error(TCGEMM_ERROR_INVALID_CONFIG, field_position(pos, "tile_m"),
                         "tile_m=%d, tile_n=%d: (tile_m/8)*(tile_n/8) = %d warps exceeds 32 warps (1024 threads) "
                         "per block (family block_tile)",
                         tm, tn, (tm / kWmmaM) * (tn / kWmmaN));
  TCGEMM_TRY(require_no_shared_tiles(pos, fam, c));
  out->tile_m = tm;
  out->tile_n = tn;
  return TCGEMM_SUCCESS;
}

tcgemm_status validate_peak_config(const tcgemm_config& c, const ArgPositions& pos, tcgemm_config* out) {
  const char* fam = family_name(c.family);
  const int tm = kPeakWarpsM * kWmmaM, tn = kPeakWarpsN * kWmmaN;
  if (c.tile_m != 0 && c.tile_m != tm)
    return config_error(pos, fam, "tile_m", c.tile_m, "the peak block tile is 32 x 16");
  if (c.tile_n != 0 && c.tile_n != tn)
    return config_error(pos, fam, "tile_n", c.tile_n, "the peak block tile is 32 x 16");
  TCGEMM_TRY(require_zero(pos, fam, "tile_k", c.tile_k, "must be 0"));
  TCGEMM_TRY(require_zero(pos, fam, "pad_a", c.pad_a, "must be 0"));
  TCGEMM_TRY(require_zero(pos, fam, "pad_b", c.pad_b, "must be 0"));
  TCGEMM_TRY(require_zero(pos, fam, "stages", c.stages, "must be 0"));
  out->tile_m = tm;
  out->tile_n = tn;
  return TCGEMM_SUCCESS;
}

tcgemm_status validate_shared_tile(const ArgPositions& pos, const char* fam, const tcgemm_config& c, int default_tile,
                                    int* tile) {
  const int tm = c.tile_m ? c.tile_m : default_tile;
  if (!is_shared_tile(tm)) return config_error(pos, fam, "tile_m", tm, "must be one of 32, 64, 96, 128");
  if (c.tile_n != 0 && c.tile_n != tm)
    return set_arg_error(TCGEMM_ERROR_INVALID_CONFIG, field_position(pos, "tile_n"),
                         "tile_n=%d: must equal tile_m=%d (family %s uses square C tiles)",
                     c.tile_n, tm, fam);
  *tile = tm;
  return TCGEMM_SUCCESS;
}

tcgemm_status validate_shared_a(const tcgemm_config& c, const ArgPositions& pos, tcgemm_config* out) {
  const char* fam = family_name(c.family);
  int tile = 0;
  TCGEMM_TRY(validate_shared_tile(pos, fam, c, kSharedADefaultTile, &tile));
  if (c.tile_k != 0 && c.tile_k != kWmmaK)
    return config_error(pos, fam, "tile_k", c.tile_k, "the shared A tile is tile_m x 4; must be 0 or 4");
  TCGEMM_TRY(check_pad(pos, fam, "pad_a", c.pad_a));
  TCGEMM_TRY(require_zero(pos, fam, "pad_b", c.pad_b, "this family keeps no B tile in shared memory; must be 0"));
  if (c.stages != 0 && c.stages != 1)
    return config_error(pos, fam, "stages", c.stages, "this family is single-stage; must be 0 or 1");
  out->tile_m = out->tile_n = tile;
  out->tile_k = kWmmaK;
  out->stages = 1;
  return TCGEMM_SUCCESS;
}

tcgemm_status validate_shared_ab(const tcgemm_config& c, const ArgPositions& pos, tcgemm_config* out) {
  const char* fam = family_name(c.family);
  int tile = 0;
  TCGEMM_TRY(validate_shared_tile(pos, fam, c, kSharedABDefaultTile, &tile));
  const int tk = c.tile_k ? c.tile_k : kSharedABDefaultTileK;
  if (tk < kSharedABMinTileK || tk > kSharedABMaxTileK || tk % kWmmaK != 0)
    return config_error(pos, fam, "tile_k", tk, "must be a multiple of 4 between 4 and 256");
  TCGEMM_TRY(check_pad(pos, fam, "pad_a", c.pad_a));
  TCGEMM_TRY(check_pad(pos, fam, "pad_b", c.pad_b));
  const int st = c.stages ? c.stages : kSharedABDefaultStages;
  if (st < 1 || st > kSharedABMaxStages)
    return config_error(pos, fam, "stages", st, "must be 1 (load, sync, compute) or 2 (double-buffered cp.async)");
  out->tile_m = out->tile_n = tile;
  out->tile_k = tk;
  out->stages = st;
  return TCGEMM_SUCCESS;
}

tcgemm_status validate_sm90(const tcgemm_config& c, const ArgPositions& pos, tcgemm_config* out) {
  const char* fam = family_name(c.family);
  const Sm90Shape* shape = nullptr;
  if (c.tile_m == 0 && c.tile_n == 0 && c.tile_k == 0) {
    shape = &kSm90Shapes[kSm90DefaultShape];
  } else {
    for (const Sm90Shape& s : kSm90Shapes)
      if (s.tile_m == c.tile_m && s.tile_n == c.tile_n && s.tile_k == c.tile_k) shape = &s;
  }
  if (!shape) {
    char list[256] = {0};
    size_t used = 0;
    for (const Sm90Shape& s : kSm90Shapes)
      used += std::snprintf(list + used, sizeof list - used, "%s%dx%dx%d", used ? ", " : "", s.tile_m, s.tile_n,
                            s.tile_k);
    return set_arg_error(TCGEMM_ERROR_INVALID_CONFIG, field_position(pos, "tile_m"),
                         "tile_m=%d, tile_n=%d, tile_k=%d: family sm90_mma supports the block tiles %s", c.tile_m,
                         c.tile_n, c.tile_k, list);
  }
  const int st = c.stages ? c.stages : shape->default_stages;
  if (st < shape->min_stages || st > shape->max_stages)
    return set_arg_error(TCGEMM_ERROR_INVALID_CONFIG, field_position(pos, "stages"),
                         "stages=%d: family sm90_mma tile %dx%dx%d supports %d to %d stages", st, shape->tile_m,
                         shape->tile_n, shape->tile_k, shape->min_stages, shape->max_stages);
  const char* fixed_layout = "the sm90 shared-memory layout is fixed at compile time; must be 0";
  TCGEMM_TRY(require_zero(pos, fam, "pad_a", c.pad_a, fixed_layout));
  TCGEMM_TRY(require_zero(pos, fam, "pad_b", c.pad_b, fixed_layout));
  out->tile_m = shape->tile_m;
  out->tile_n = shape->tile_n;
  out->tile_k = shape->tile_k;
  out->stages = st;
  return TCGEMM_SUCCESS;
}

const Sm90Shape* find_sm90_shape(const tcgemm_config& r) {
  for (const Sm90Shape& s : kSm90Shapes)
    if (s.tile_m == r.tile_m && s.tile_n == r.tile_n && s.tile_k == r.tile_k) return &s;
  return nullptr;
}

}  // namespace

const char* family_name(int32_t family) {
  switch (family) {
    case TCGEMM_FAMILY_AUTO: return "auto";
    case TCGEMM_FAMILY_SINGLE: return "single";
    case TCGEMM_FAMILY_ROW: return "row";
    case TCGEMM_FAMILY_WARP_PER_BLOCK: return "warp_per_block";
    case TCGEMM_FAMILY_BLOCK_TILE: return "block_tile";
    case TCGEMM_FAMILY_PEAK: return "peak";
    case TCGEMM_FAMILY_SHARED_A: return "shared_a";
    case TCGEMM_FAMILY_SHARED_AB: return "shared_ab";
    case TCGEMM_FAMILY_SM90_MMA: return "sm90_mma";
  }
  return "unknown";
}

tcgemm_status validate_problem(const GemmProblem& in, ArgNaming naming, const ArgPositions& pos, GemmProblem* out) {
  const ArgNamer nm{naming, pos};
  GemmProblem p = in;
  TCGEMM_TRY(check_trans(pos.transa, "transa", in.transa, &p.transa));
  TCGEMM_TRY(check_trans(pos.transb, "transb", in.transb, &p.transb));
  TCGEMM_TRY(check_size(nm, pos.m, "m", p.m));
  TCGEMM_TRY(check_size(nm, pos.n, "n", p.n));
  TCGEMM_TRY(check_size(nm, pos.k, "k", p.k));
  // op(A) is m x k, so A as stored has m rows ('N') or k rows ('T'); likewise B has k or n rows.
  const bool a_plain = p.transa == 'N', b_plain = p.transb == 'N';
  TCGEMM_TRY(check_ld(nm, pos.lda, "lda", p.lda, a_plain ? p.m : p.k, a_plain ? "m" : "k"));
  TCGEMM_TRY(check_ld(nm, pos.ldb, "ldb", p.ldb, b_plain ? p.k : p.n, b_plain ? "k" : "n"));
  TCGEMM_TRY(check_ld(nm, pos.ldc, "ldc", p.ldc, p.m, "m"));
  // Pointers and extents only matter where they will be dereferenced: A and B when alpha != 0 and the
  // product is non-empty, C whenever it has elements.
  const bool product_read = p.m > 0 && p.n > 0 && p.k > 0 && p.alpha != 0.0;
  if (product_read && !p.A) return nm.fail_null(pos.A, "A", "m, n, k > 0 and alpha != 0");
  if (product_read && !p.B) return nm.fail_null(pos.B, "B", "m, n, k > 0 and alpha != 0");
  if (p.m > 0 && p.n > 0 && !p.C) return nm.fail_null(pos.C, "C", "m, n > 0");
  if (product_read) {
    TCGEMM_TRY(check_extent(nm, {"A", p.A, pos.A, "lda", p.lda, pos.lda, a_plain ? p.k : p.m}));
    TCGEMM_TRY(check_extent(nm, {"B", p.B, pos.B, "ldb", p.ldb, pos.ldb, b_plain ? p.n : p.k}));
  }
  if (p.m > 0 && p.n > 0) TCGEMM_TRY(check_extent(nm, {"C", p.C, pos.C, "ldc", p.ldc, pos.ldc, p.n}));
  *out = p;
  return TCGEMM_SUCCESS;
}

tcgemm_status check_grid(const GemmProblem& p, const tcgemm_config& r, ArgNaming naming, const ArgPositions& pos) {
  const ArgNamer nm{naming, pos};
  const char* fam = family_name(r.family);
  switch (r.family) {
    case TCGEMM_FAMILY_WARP_PER_BLOCK:
    case TCGEMM_FAMILY_BLOCK_TILE: {
      // One block row per tile_m rows of C on gridDim.x; block columns use a grid-stride loop on gridDim.y.
      const int64_t blocks = ceil_div_nonneg(p.m, r.tile_m);
      if (blocks > kMaxBlocksPerLaunch) return fail_grid(nm, pos.m, "m", p.m, blocks, r.tile_m, r.tile_n, fam);
      return TCGEMM_SUCCESS;
    }
    case TCGEMM_FAMILY_SM90_MMA: {
      // One block per C tile on a one-dimensional grid.
      const int64_t tiles_m = ceil_div_nonneg(p.m, r.tile_m), tiles_n = ceil_div_nonneg(p.n, r.tile_n);
      int64_t blocks = 0;
      if (!checked_mul(tiles_m, tiles_n, &blocks)) blocks = INT64_MAX;
      if (blocks <= kMaxBlocksPerLaunch) return TCGEMM_SUCCESS;
      const bool blame_m = tiles_m >= tiles_n;
      return fail_grid(nm, blame_m ? pos.m : pos.n, blame_m ? "m" : "n", blame_m ? p.m : p.n, blocks, r.tile_m,
                       r.tile_n, fam);
    }
    default:
      // single and row: one block; shared_a, shared_ab: grid-stride loops over any number of tiles.
      return TCGEMM_SUCCESS;
  }
}

tcgemm_status validate_config(const tcgemm_config& c, const ArgPositions& pos, tcgemm_config* out) {
  tcgemm_config r = c;
  if (c.reserved != 0)
    return set_arg_error(TCGEMM_ERROR_INVALID_CONFIG, pos.config,
                         "reserved=%d: must be 0 (zero-initialise tcgemm_config)", c.reserved);
  switch (c.family) {
    case TCGEMM_FAMILY_AUTO:
      if (c.tile_m || c.tile_n || c.tile_k || c.pad_a || c.pad_b || c.stages)
        return set_arg_error(TCGEMM_ERROR_INVALID_CONFIG, pos.config,
                         "family=auto: tiles, paddings and stages are chosen per device and must be 0; name a "
                         "family to set them");
      break;
    case TCGEMM_FAMILY_SINGLE:
    case TCGEMM_FAMILY_ROW:
    case TCGEMM_FAMILY_WARP_PER_BLOCK: TCGEMM_TRY(validate_fixed_tile_family(c, pos, &r)); break;
    case TCGEMM_FAMILY_BLOCK_TILE: TCGEMM_TRY(validate_block_tile(c, pos, &r)); break;
    case TCGEMM_FAMILY_PEAK: TCGEMM_TRY(validate_peak_config(c, pos, &r)); break;
    case TCGEMM_FAMILY_SHARED_A: TCGEMM_TRY(validate_shared_a(c, pos, &r)); break;
    case TCGEMM_FAMILY_SHARED_AB: TCGEMM_TRY(validate_shared_ab(c, pos, &r)); break;
    case TCGEMM_FAMILY_SM90_MMA: TCGEMM_TRY(validate_sm90(c, pos, &r)); break;
    default:
      return set_arg_error(TCGEMM_ERROR_INVALID_CONFIG, pos.config,
                           "family=%d: unknown kernel family (valid: 0 to 8, see tcgemm_family)",
                       c.family);
  }
  *out = r;
  return TCGEMM_SUCCESS;
}

int64_t config_shared_memory_bytes(const tcgemm_config& r) {
  switch (r.family) {
    case TCGEMM_FAMILY_SHARED_A: return shared_a_smem_bytes(r.tile_m, r.pad_a);
    case TCGEMM_FAMILY_SHARED_AB: return shared_ab_smem_bytes(r.tile_m, r.tile_k, r.pad_a, r.pad_b, r.stages);
    case TCGEMM_FAMILY_SM90_MMA: {
      const Sm90Shape* s = find_sm90_shape(r);
      return s ? sm90_smem_bytes(*s, r.stages) : 0;
    }
    case TCGEMM_FAMILY_SINGLE:
    case TCGEMM_FAMILY_ROW:
    case TCGEMM_FAMILY_WARP_PER_BLOCK:
    case TCGEMM_FAMILY_BLOCK_TILE:
    case TCGEMM_FAMILY_PEAK:  // operands come from global memory; shared memory is the per-warp staging tile
      return kWarpScratchBytes * (config_threads_per_block(r) / kWarpSize);
    default: return 0;
  }
}

int config_threads_per_block(const tcgemm_config& r) {
  switch (r.family) {
    case TCGEMM_FAMILY_SINGLE:
    case TCGEMM_FAMILY_ROW:
    case TCGEMM_FAMILY_WARP_PER_BLOCK: return kWarpSize;
    case TCGEMM_FAMILY_BLOCK_TILE: return (r.tile_m / kWmmaM) * (r.tile_n / kWmmaN) * kWarpSize;
    case TCGEMM_FAMILY_PEAK: return kPeakWarpsM * kPeakWarpsN * kWarpSize;
    case TCGEMM_FAMILY_SHARED_A:
    case TCGEMM_FAMILY_SHARED_AB: return (r.tile_m / kWmmaM) * kWarpSize;  // one warp per 8-row block
    case TCGEMM_FAMILY_SM90_MMA: {
      const Sm90Shape* s = find_sm90_shape(r);
      return s ? s->warps_m * s->warps_n * kWarpSize : 0;
    }
    default: return 0;
  }
}

tcgemm_status check_config_against_device(const tcgemm_config& r, const DeviceContext& ctx) {
  if (r.family == TCGEMM_FAMILY_SM90_MMA && ctx.cc_major != kSm90MinCcMajor)
    return set_error(TCGEMM_ERROR_ARCHITECTURE,
                     "family sm90_mma needs compute capability 9.x (mma.sync m16n8k*.f64); device %d is %d.%d",
                     ctx.device, ctx.cc_major, ctx.cc_minor);
  const int64_t bytes = config_shared_memory_bytes(r);
  if (bytes > ctx.smem_optin)
    return set_error(TCGEMM_ERROR_SHARED_MEMORY,
                     "family %s tile %dx%d tile_k=%d pad_a=%d pad_b=%d stages=%d needs %" PRId64
                     " bytes of shared memory per block; device %d allows %" PRId64 " (opt-in limit)",
                     family_name(r.family), r.tile_m, r.tile_n, r.tile_k, r.pad_a, r.pad_b, r.stages, bytes,
                     ctx.device, ctx.smem_optin);
  return TCGEMM_SUCCESS;
}

tcgemm_status validate_peak(int64_t m, int64_t n, int32_t niter, const double* A, int64_t lda, const double* B,
                            int64_t ldb, const double* C, int64_t ldc) {
  // tcgemm_dmma_peak(m, n, niter, A, lda, B, ldb, C, ldc, stream)
  constexpr ArgPositions pos{0, 0, 1, 2, 0, 0, 4, 5, 6, 7, 0, 8, 9, 0, 0, 0, 0, 0, 0, 0, 3};
  const ArgNamer nm{ArgNaming::Named, pos};
  TCGEMM_TRY(check_size(nm, pos.m, "m", m));
  TCGEMM_TRY(check_size(nm, pos.n, "n", n));
  if (niter < 1)
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, pos.niter,
                         "niter=%d: must be >= 1 (number of mma_sync per load)", niter);
  TCGEMM_TRY(check_ld(nm, pos.lda, "lda", lda, kWmmaM, "8"));
  TCGEMM_TRY(check_ld(nm, pos.ldb, "ldb", ldb, kWmmaK, "4"));
  TCGEMM_TRY(check_ld(nm, pos.ldc, "ldc", ldc, m, "m"));
  if (m > 0 && n > 0) {
    if (!A) return nm.fail_null(pos.A, "A", "m, n > 0");
    if (!B) return nm.fail_null(pos.B, "B", "m, n > 0");
    if (!C) return nm.fail_null(pos.C, "C", "m, n > 0");
    TCGEMM_TRY(check_extent(nm, {"A", A, pos.A, "lda", lda, pos.lda, kWmmaK}));
    TCGEMM_TRY(check_extent(nm, {"B", B, pos.B, "ldb", ldb, pos.ldb, kWmmaN}));
    TCGEMM_TRY(check_extent(nm, {"C", C, pos.C, "ldc", ldc, pos.ldc, n}));
    // One block per kPeakWarpsM * 8 rows of C on gridDim.x (columns: grid-stride on gridDim.y).
    const int tile_m = kPeakWarpsM * kWmmaM, tile_n = kPeakWarpsN * kWmmaN;
    const int64_t blocks = ceil_div_nonneg(m, tile_m);
    if (blocks > kMaxBlocksPerLaunch) return fail_grid(nm, pos.m, "m", m, blocks, tile_m, tile_n, "peak");
  }
  return TCGEMM_SUCCESS;
}

}  // namespace tcgemm::detail
