// The configuration entry points: defaults, the host-only rules and arithmetic, and the check against a
// device.
#include "api/gemm_call.hpp"
#include "core/device.hpp"
#include "core/errors.hpp"
#include "core/family_table.hpp"

using namespace tcgemm::detail;

extern "C" {

tcgemm_status tcgemm_default_config(int32_t family, tcgemm_config* config) {
  clear_error();
  if (!config) return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 2, "config is NULL");
  tcgemm_config c = default_config_for(family);
  tcgemm_config resolved;
  TCGEMM_TRY(validate_config(c, kConfigFirstPositions, &resolved));
  *config = resolved;
  return TCGEMM_SUCCESS;
}

tcgemm_status tcgemm_config_validate(const tcgemm_config* config) {
  clear_error();
  if (!config) return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 1, "config is NULL");
  tcgemm_config resolved;
  return validate_config(*config, kConfigFirstPositions, &resolved);
}

tcgemm_status tcgemm_config_shared_memory_bytes(const tcgemm_config* config, int64_t* bytes) {
  clear_error();
  if (!config || !bytes)
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, config ? 2 : 1, "%s is NULL", config ? "bytes" : "config");
  tcgemm_config resolved;
  TCGEMM_TRY(validate_config(*config, kConfigFirstPositions, &resolved));
  *bytes = config_shared_memory_bytes(resolved);
  return TCGEMM_SUCCESS;
}

tcgemm_status tcgemm_config_threads_per_block(const tcgemm_config* config, int32_t* threads) {
  clear_error();
  if (!config || !threads)
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, config ? 2 : 1, "%s is NULL", config ? "threads" : "config");
  tcgemm_config resolved;
  TCGEMM_TRY(validate_config(*config, kConfigFirstPositions, &resolved));
  *threads = config_threads_per_block(resolved);
  return TCGEMM_SUCCESS;
}

tcgemm_status tcgemm_config_check_device(const tcgemm_config* config, int32_t device) {
  clear_error();
  if (!config) return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 1, "config is NULL");
  tcgemm_config resolved;
  TCGEMM_TRY(validate_config(*config, kConfigFirstPositions, &resolved));
  DeviceContext ctx;
  TCGEMM_TRY(device_gate(device, &ctx, 2));
  if (resolved.family == TCGEMM_FAMILY_AUTO) resolved = select_config(ctx);
  return check_config_against_device(resolved, ctx);
}

}  // extern "C"
