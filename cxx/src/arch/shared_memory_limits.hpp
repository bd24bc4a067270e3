// The shared memory one block may opt in to (cudaFuncAttributeMaxDynamicSharedMemorySize), as compile-time
// ceilings for the tilings built into the library. Calls are checked against their own device's opt-in at run
// time (DeviceContext::smem_optin); these only keep an instance that no device could run from being built.
#pragma once

#include <cstdint>

namespace tcgemm::detail::arch {

// Compute capability 9.x: 227 KB (232,448 bytes) a block, of 228 KB an SM (cc 8.0 allows 163 KB).
constexpr int64_t kSm90MaxSmemOptinBytes = 227 * 1024;

}  // namespace tcgemm::detail::arch
