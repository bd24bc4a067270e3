// The square-tile rule of the shared-memory families.
#include "families/common/shared_tiles.hpp"

#include "core/config_checks.hpp"

namespace tcgemm::detail {

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

}  // namespace tcgemm::detail
