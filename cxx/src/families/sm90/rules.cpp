// Configuration rules of sm90_mma.
#include "families/sm90/rules.hpp"

#include <cstdio>

#include "core/checked_math.hpp"
#include "core/config_checks.hpp"
#include "core/family_table.hpp"
#include "families/common/wmma_shape.hpp"

namespace tcgemm::detail {

tcgemm_status validate_sm90_config(const tcgemm_config& c, const ArgPositions& pos, tcgemm_config* out) {
  const char* fam = family_name(c.family);
  const bool defaults = c.tile_m == 0 && c.tile_n == 0 && c.tile_k == 0;
  const int index = defaults ? kSm90DefaultShape : find_sm90_shape(c.tile_m, c.tile_n, c.tile_k);
  const Sm90Shape* shape = index >= 0 ? &kSm90Shapes[index] : nullptr;
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

int64_t sm90_config_smem_bytes(const tcgemm_config& r) {
  return sm90_smem_bytes(kSm90Shapes[find_sm90_shape(r.tile_m, r.tile_n, r.tile_k)], r.stages);
}

int sm90_threads(const tcgemm_config& r) {
  return sm90_threads_of(kSm90Shapes[find_sm90_shape(r.tile_m, r.tile_n, r.tile_k)]);
}

GridNeed sm90_grid_need(const GemmProblem& p, const tcgemm_config& r) {
  // The extent rule bounds m and n by 2^49, so the product of the tile counts fits in int64; checked anyway.
  const int64_t tiles_m = ceil_div_nonneg(p.m, r.tile_m), tiles_n = ceil_div_nonneg(p.n, r.tile_n);
  int64_t blocks = 0;
  if (!checked_mul(tiles_m, tiles_n, &blocks)) blocks = INT64_MAX;
  return GridNeed{blocks, tiles_n > tiles_m};
}

}  // namespace tcgemm::detail
