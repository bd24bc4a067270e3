// Building blocks of the families' configuration rules.
#include "core/config_checks.hpp"

#include <cstring>

#include "families/common/shared_tiles.hpp"

namespace tcgemm::detail {

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

tcgemm_status require_no_shared_tiles(const ArgPositions& pos, const char* fam, const tcgemm_config& c) {
  TCGEMM_TRY(require_zero(pos, fam, "tile_k", c.tile_k, "this family has no shared-memory k tile; must be 0"));
  TCGEMM_TRY(require_zero(pos, fam, "pad_a", c.pad_a, "this family uses no shared memory; must be 0"));
  TCGEMM_TRY(require_zero(pos, fam, "pad_b", c.pad_b, "this family uses no shared memory; must be 0"));
  return require_zero(pos, fam, "stages", c.stages, "this family has no pipeline; must be 0");
}

}  // namespace tcgemm::detail
