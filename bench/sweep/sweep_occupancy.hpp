// The blocks-per-SM estimate of a sweep point, from the device's limits. Host only, so the CPU tests check
// it; the sweep's correctness check is the shared one in bench/check/reference_check.hpp.
#pragma once

#include <cstdint>

namespace tcgemm::sweep {

// What bounds the number of resident blocks per SM, from the device's limits (cudaDeviceGetAttribute).
struct SmLimits {
  int max_threads_per_sm = 0;           // cudaDevAttrMaxThreadsPerMultiProcessor (2048 on H100)
  int max_blocks_per_sm = 0;            // cudaDevAttrMaxBlocksPerMultiprocessor (32)
  int64_t shared_memory_per_sm = 0;     // cudaDevAttrMaxSharedMemoryPerMultiprocessor (233472 = 228 KiB)
  int64_t reserved_shared_per_block = 0;// cudaDevAttrReservedSharedMemoryPerBlock (1024: driver's per-block use)
};
// Shared memory is handed out in units of this many bytes (compute capability 8.x and 9.x).
constexpr int64_t kSharedMemoryAllocationUnit = 128;
constexpr int kThreadsPerWarp = 32;

// blocks/SM = min( max_blocks_per_sm,
//                  floor(max_threads_per_sm / round_up(threads, 32)),
//                  floor(shared_memory_per_sm / (round_up(smem_bytes, 128) + reserved_shared_per_block)) )
// An upper bound: the register limit needs the compiled kernel, which only the library (or ncu, see
// --ncu-metrics) can see. Returns 0 when one block does not fit, -1 when the inputs are unknown.
int32_t blocks_per_sm_upper_bound(int32_t threads_per_block, int64_t smem_bytes, const SmLimits& limits);

}  // namespace tcgemm::sweep
