/* Sizes and member offsets of the public structs as the C compiler lays them out, for
 * test_layout_cpu.f90 to compare with the bind(C) types of module tcgemm_c. */
#include <stddef.h>
#include <stdint.h>

#include "tcgemm/tcgemm.h"

int64_t tcgemm_probe_config_size(void) { return (int64_t)sizeof(tcgemm_config); }

/* Offsets in field order: family, tile_m, tile_n, tile_k, pad_a, pad_b, stages, k_splits. */
int64_t tcgemm_probe_config_offset(int32_t field) {
  static const size_t offsets[] = {
      offsetof(tcgemm_config, family), offsetof(tcgemm_config, tile_m), offsetof(tcgemm_config, tile_n),
      offsetof(tcgemm_config, tile_k), offsetof(tcgemm_config, pad_a),  offsetof(tcgemm_config, pad_b),
      offsetof(tcgemm_config, stages), offsetof(tcgemm_config, k_splits)};
  return field >= 0 && field < (int32_t)(sizeof offsets / sizeof offsets[0]) ? (int64_t)offsets[field] : -1;
}

int64_t tcgemm_probe_device_info_size(void) { return (int64_t)sizeof(tcgemm_device_info); }

/* Offsets in field order: name, device, cc_major, cc_minor, sm_count, shared_memory_per_block_optin,
 * shared_memory_per_sm, global_memory. */
int64_t tcgemm_probe_device_info_offset(int32_t field) {
  static const size_t offsets[] = {offsetof(tcgemm_device_info, name),
                                   offsetof(tcgemm_device_info, device),
                                   offsetof(tcgemm_device_info, cc_major),
                                   offsetof(tcgemm_device_info, cc_minor),
                                   offsetof(tcgemm_device_info, sm_count),
                                   offsetof(tcgemm_device_info, shared_memory_per_block_optin),
                                   offsetof(tcgemm_device_info, shared_memory_per_sm),
                                   offsetof(tcgemm_device_info, global_memory)};
  return field >= 0 && field < (int32_t)(sizeof offsets / sizeof offsets[0]) ? (int64_t)offsets[field] : -1;
}

int64_t tcgemm_probe_wmma_config_size(void) { return (int64_t)sizeof(tcgemm_wmma_config); }

/* Offsets in field order: shape, tile, tile_k, pad_a, pad_b, stages, tile_n, reserved. */
int64_t tcgemm_probe_wmma_config_offset(int32_t field) {
  static const size_t offsets[] = {
      offsetof(tcgemm_wmma_config, shape),  offsetof(tcgemm_wmma_config, tile),
      offsetof(tcgemm_wmma_config, tile_k), offsetof(tcgemm_wmma_config, pad_a),
      offsetof(tcgemm_wmma_config, pad_b),  offsetof(tcgemm_wmma_config, stages),
      offsetof(tcgemm_wmma_config, tile_n), offsetof(tcgemm_wmma_config, reserved)};
  return field >= 0 && field < (int32_t)(sizeof offsets / sizeof offsets[0]) ? (int64_t)offsets[field] : -1;
}
