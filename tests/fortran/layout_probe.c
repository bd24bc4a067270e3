/* Sizes and member offsets of the public structs as the C compiler lays them out, for
 * test_layout_cpu.f90 to compare with the bind(C) types of module tcgemm_c. */
#include <stddef.h>
#include <stdint.h>

#include "tcgemm/tcgemm.h"

/* The structs, by number: 0 tcgemm_config, 1 tcgemm_device_info, 2 tcgemm_wmma_config. */
enum { kProbeStructs = 3, kProbeFields = 8 };

static const size_t struct_sizes[kProbeStructs] = {sizeof(tcgemm_config), sizeof(tcgemm_device_info),
                                                   sizeof(tcgemm_wmma_config)};

/* Member offsets in field order:
 *   tcgemm_config: family, tile_m, tile_n, tile_k, pad_a, pad_b, stages, k_splits;
 *   tcgemm_device_info: name, device, cc_major, cc_minor, sm_count, shared_memory_per_block_optin,
 *     shared_memory_per_sm, global_memory;
 *   tcgemm_wmma_config: shape, tile, tile_k, pad_a, pad_b, stages, tile_n, reserved. */
static const size_t struct_offsets[kProbeStructs][kProbeFields] = {
    {offsetof(tcgemm_config, family), offsetof(tcgemm_config, tile_m), offsetof(tcgemm_config, tile_n),
     offsetof(tcgemm_config, tile_k), offsetof(tcgemm_config, pad_a), offsetof(tcgemm_config, pad_b),
     offsetof(tcgemm_config, stages), offsetof(tcgemm_config, k_splits)},
    {offsetof(tcgemm_device_info, name), offsetof(tcgemm_device_info, device),
     offsetof(tcgemm_device_info, cc_major), offsetof(tcgemm_device_info, cc_minor),
     offsetof(tcgemm_device_info, sm_count), offsetof(tcgemm_device_info, shared_memory_per_block_optin),
     offsetof(tcgemm_device_info, shared_memory_per_sm), offsetof(tcgemm_device_info, global_memory)},
    {offsetof(tcgemm_wmma_config, shape), offsetof(tcgemm_wmma_config, tile), offsetof(tcgemm_wmma_config, tile_k),
     offsetof(tcgemm_wmma_config, pad_a), offsetof(tcgemm_wmma_config, pad_b), offsetof(tcgemm_wmma_config, stages),
     offsetof(tcgemm_wmma_config, tile_n), offsetof(tcgemm_wmma_config, reserved)}};

int64_t tcgemm_probe_struct_size(int32_t which) {
  return which >= 0 && which < kProbeStructs ? (int64_t)struct_sizes[which] : -1;
}

int64_t tcgemm_probe_struct_offset(int32_t which, int32_t field) {
  return which >= 0 && which < kProbeStructs && field >= 0 && field < kProbeFields
             ? (int64_t)struct_offsets[which][field]
             : -1;
}
