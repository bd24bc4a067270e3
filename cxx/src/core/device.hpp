// The device gate and the per-device, per-context caches (core/device.cpp).
#pragma once

#include "core/problem.hpp"

namespace tcgemm::detail {

// The device gate: the device (device < 0: the calling thread's current one) exists and has cc >= 8.0.
// Fills ctx from a per-device cache, so repeated calls query CUDA for the device count and id only.
// Also records the id of the calling thread's current CUDA context (made current first when there is none:
// first use, or after cudaDeviceReset) in ctx->context_id.
// device_arg_pos: where `device` stands in the calling entry point (0: it is not an argument), for the
// error that blames it.
tcgemm_status device_gate(int device, DeviceContext* ctx, int device_arg_pos = 0);
// Raise a kernel's dynamic shared-memory limit to what the device allows, once per (kernel, CUDA context):
// the attribute lives in the context, so a new context after cudaDeviceReset needs it again.
tcgemm_status ensure_dynamic_smem_limit(const void* kernel, const DeviceContext& ctx, const char* kernel_name);
// True when the loaded binary carries code for the kernel that can run on ctx's device (cudaFuncGetAttributes
// on that device, which need not be the current one): native code of at least min_binary_version, or PTX of
// at least that version (a PTX-JIT build for an older architecture compiles the kernel's newer-architecture
// body away, so its binary version alone proves nothing). Cached per (kernel, device).
tcgemm_status check_kernel_image(const void* kernel, const DeviceContext& ctx, const char* kernel_name,
                                 int min_binary_version);

}  // namespace tcgemm::detail
