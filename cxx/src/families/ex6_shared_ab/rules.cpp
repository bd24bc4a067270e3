// Configuration rules of shared_ab (Example 6).
#include "families/ex6_shared_ab/rules.hpp"

#include "core/config_checks.hpp"
#include "core/family_table.hpp"

namespace tcgemm::detail {

tcgemm_status validate_shared_ab_config(const tcgemm_config& c, const ArgPositions& pos, tcgemm_config* out) {
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
    return config_error(pos, fam, "stages", st,
                        "must be 1 (load, sync, compute) to 6 (a ring of cp.async buffers); shared memory must also "
                        "hold stages copies of the A and B k-tiles");
  out->tile_m = out->tile_n = tile;
  out->tile_k = tk;
  out->stages = st;
  return TCGEMM_SUCCESS;
}

int64_t shared_ab_config_smem_bytes(const tcgemm_config& r) {
  return shared_ab_smem_bytes(r.tile_m, r.tile_k, r.pad_a, r.pad_b, r.stages);
}
int shared_ab_threads(const tcgemm_config& r) { return (r.tile_m / kWmmaM) * kWarpSize; }

}  // namespace tcgemm::detail
