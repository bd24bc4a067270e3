// Configuration rules of the skinny family (rules.hpp).
#include "families/skinny/rules.hpp"

#include "core/config_checks.hpp"
#include "core/family_table.hpp"

namespace tcgemm::detail {

tcgemm_status validate_skinny_config(const tcgemm_config& c, const ArgPositions& pos, tcgemm_config* out) {
  const char* fam = family_name(c.family);
  const char* no_tiles = "the skinny family has no tile, padding or stage choice; must be 0";
  TCGEMM_TRY(require_zero(pos, fam, "tile_m", c.tile_m, no_tiles));
  TCGEMM_TRY(require_zero(pos, fam, "tile_n", c.tile_n, no_tiles));
  TCGEMM_TRY(require_zero(pos, fam, "tile_k", c.tile_k, no_tiles));
  TCGEMM_TRY(require_zero(pos, fam, "pad_a", c.pad_a, no_tiles));
  TCGEMM_TRY(require_zero(pos, fam, "pad_b", c.pad_b, no_tiles));
  TCGEMM_TRY(require_zero(pos, fam, "stages", c.stages, no_tiles));
  *out = c;
  return TCGEMM_SUCCESS;
}

// The largest S chunk of the CUDA-core kernels (8 rows, padded by 2 doubles per row), the kernels every device
// runs: what check_config_against_device compares with the device's limit, and what
// tcgemm_config_shared_memory_bytes reports. On a cc 9.x device with the build's sm_90 code, 5-8 rows over a
// k-contiguous operand take the tensor-core kernel's kSkinnyMmaSmemBytes (~104 KB) instead, which every cc 9.x
// device has room for twice per SM (rules.hpp).
int64_t skinny_config_smem_bytes(const tcgemm_config&) {
  return int64_t(sizeof(double)) * kSkinnyMaxRows * (kSkinnyMaxChunkK + 2);
}

int skinny_threads(const tcgemm_config&) { return kSkinnyThreads; }

}  // namespace tcgemm::detail
