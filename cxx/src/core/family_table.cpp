// The family table (see family_table.hpp) and the rules that read it.
#include "core/family_table.hpp"

#include <cinttypes>

#include "core/errors.hpp"
#include "families/ex1_4_global_wmma/rules.hpp"
#include "families/ex5_shared_a/rules.hpp"
#include "families/ex6_shared_ab/rules.hpp"
#include "families/skinny/rules.hpp"
#include "families/sm90/rules.hpp"

namespace tcgemm::detail {
namespace {

// AUTO: tcgemm_dgemm's choice, made per device and problem (api/dgemm_api.cpp); nothing to set.
tcgemm_status validate_auto_config(const tcgemm_config& c, const ArgPositions& pos, tcgemm_config* out) {
  if (c.tile_m || c.tile_n || c.tile_k || c.pad_a || c.pad_b || c.stages || c.k_splits)
    return set_arg_error(TCGEMM_ERROR_INVALID_CONFIG, pos.config,
                         "family=auto: tiles, paddings, stages and k_splits are chosen per device and problem and "
                         "must be 0; name a family to set them (tcgemm_dgemm_plan shows the choice)");
  *out = c;
  return TCGEMM_SUCCESS;
}
int64_t no_shared_memory(const tcgemm_config&) { return 0; }
int no_threads(const tcgemm_config&) { return 0; }

constexpr FamilyRow kFamilies[] = {
    // id, name, BLAS semantics, validate, shared memory, threads, grid need, default pads, cc, launch,
    // code available, split-K
    {TCGEMM_FAMILY_AUTO, "auto", true, validate_auto_config, no_shared_memory, no_threads, nullptr, 0, 0, 0, nullptr,
     nullptr, false},
    {TCGEMM_FAMILY_SINGLE, "single", false, validate_one_tile_config, warp_scratch_bytes, one_warp_threads, nullptr,
     0, 0, 0, launch_single, nullptr, false},
    {TCGEMM_FAMILY_ROW, "row", false, validate_one_tile_config, warp_scratch_bytes, one_warp_threads, nullptr, 0, 0,
     0, launch_row, nullptr, false},
    {TCGEMM_FAMILY_WARP_PER_BLOCK, "warp_per_block", false, validate_one_tile_config, warp_scratch_bytes,
     one_warp_threads, block_rows_grid_need, 0, 0, 0, launch_warp_per_block, nullptr, false},
    {TCGEMM_FAMILY_BLOCK_TILE, "block_tile", false, validate_block_tile_config, warp_scratch_bytes,
     block_tile_threads, block_rows_grid_need, 0, 0, 0, launch_block_tile, nullptr, false},
    {TCGEMM_FAMILY_PEAK, "peak", false, validate_peak_config, warp_scratch_bytes, peak_threads, nullptr, 0, 0, 0,
     nullptr, nullptr, false},
    {TCGEMM_FAMILY_SHARED_A, "shared_a", true, validate_shared_a_config, shared_a_config_smem_bytes,
     shared_a_threads, nullptr, kSharedADefaultPad, 0, 0, launch_shared_a, nullptr, false},
    {TCGEMM_FAMILY_SHARED_AB, "shared_ab", true, validate_shared_ab_config, shared_ab_config_smem_bytes,
     shared_ab_threads, nullptr, kSharedABDefaultPad, kSharedABDefaultPad, 0, launch_shared_ab, nullptr, false},
    {TCGEMM_FAMILY_SM90_MMA, "sm90_mma", true, validate_sm90_config, sm90_config_smem_bytes, sm90_threads,
     sm90_grid_need, 0, 0, kSm90MinCcMajor, launch_sm90_mma, sm90_code_available, true},
    {TCGEMM_FAMILY_SKINNY, "skinny", true, validate_skinny_config, skinny_config_smem_bytes, skinny_threads,
     nullptr, 0, 0, 0, launch_skinny, nullptr, true},
};

}  // namespace

const FamilyRow* find_family(int32_t family) {
  for (const FamilyRow& row : kFamilies)
    if (row.id == family) return &row;
  return nullptr;
}

tcgemm_config default_config_for(int32_t family) {
  tcgemm_config c{};
  c.family = family;
  const FamilyRow* row = find_family(family);
  if (!row) return c;
  c.pad_a = row->default_pad_a;
  c.pad_b = row->default_pad_b;
  tcgemm_config resolved = c;  // a family's validate sets only the fields it resolves
  return row->validate(c, kConfigFirstPositions, &resolved) == TCGEMM_SUCCESS ? resolved : c;
}

const char* family_name(int32_t family) {
  const FamilyRow* row = find_family(family);
  return row ? row->name : "unknown";
}

tcgemm_status validate_config(const tcgemm_config& c, const ArgPositions& pos, tcgemm_config* out) {
  const FamilyRow* row = find_family(c.family);
  if (!row)
    return set_arg_error(TCGEMM_ERROR_INVALID_CONFIG, pos.config,
                         "family=%d: unknown kernel family (valid: 0 to 9, see tcgemm_family)", c.family);
  if (c.k_splits < 0 || c.k_splits > kSm90MaxKSplits)
    return set_arg_error(TCGEMM_ERROR_INVALID_CONFIG, pos.config,
                         "k_splits=%d: must be 0 (no split) to %d (slices of k on the second grid dimension)",
                         c.k_splits, kSm90MaxKSplits);
  tcgemm_config r = c;
  TCGEMM_TRY(row->validate(c, pos, &r));
  if (c.k_splits > 1 && !row->split_k)
    return set_arg_error(TCGEMM_ERROR_INVALID_CONFIG, pos.config,
                         "k_splits=%d: family %s has no split-K; must be 0 or 1 (families with split-K: sm90_mma, "
                         "skinny)",
                         c.k_splits, row->name);
  *out = r;
  return TCGEMM_SUCCESS;
}

int64_t config_shared_memory_bytes(const tcgemm_config& r) { return find_family(r.family)->shared_memory_bytes(r); }

int config_threads_per_block(const tcgemm_config& r) { return find_family(r.family)->threads_per_block(r); }

tcgemm_status check_config_against_device(const tcgemm_config& r, const DeviceContext& ctx) {
  const FamilyRow& row = *find_family(r.family);
  if (row.required_cc_major != 0 && ctx.cc_major != row.required_cc_major)
    return set_error(TCGEMM_ERROR_ARCHITECTURE, "family %s needs compute capability %d.x; device %d is %d.%d",
                     row.name, row.required_cc_major, ctx.device, ctx.cc_major, ctx.cc_minor);
  // The family's code must exist for this device, not only its rules hold (a build for sm_80 alone runs on a
  // Hopper through PTX, in which the sm90_mma kernel is compiled away).
  if (row.code_available && !row.code_available(ctx))
    return set_error(TCGEMM_ERROR_ARCHITECTURE,
                     "family %s: this build of tcgemm has no code for device %d (compute capability %d.%d); "
                     "rebuild with CMAKE_CUDA_ARCHITECTURES including %d%d",
                     row.name, ctx.device, ctx.cc_major, ctx.cc_minor, ctx.cc_major, ctx.cc_minor);
  const int64_t bytes = row.shared_memory_bytes(r);
  if (bytes > ctx.smem_optin)
    return set_error(TCGEMM_ERROR_SHARED_MEMORY,
                     "family %s tile %dx%d tile_k=%d pad_a=%d pad_b=%d stages=%d needs %" PRId64
                     " bytes of shared memory per block; device %d allows %" PRId64 " (opt-in limit)",
                     row.name, r.tile_m, r.tile_n, r.tile_k, r.pad_a, r.pad_b, r.stages, bytes, ctx.device,
                     ctx.smem_optin);
  return TCGEMM_SUCCESS;
}

}  // namespace tcgemm::detail
