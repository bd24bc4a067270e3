// Configuration rules of shared_a (Example 5).
#include "families/ex5_shared_a/rules.hpp"

#include "core/config_checks.hpp"
#include "core/family_table.hpp"

namespace tcgemm::detail {

tcgemm_status validate_shared_a_config(const tcgemm_config& c, const ArgPositions& pos, tcgemm_config* out) {
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

int64_t shared_a_config_smem_bytes(const tcgemm_config& r) { return shared_a_smem_bytes(r.tile_m, r.pad_a); }
int shared_a_threads(const tcgemm_config& r) { return (r.tile_m / kWmmaM) * kWarpSize; }

}  // namespace tcgemm::detail
