#include "sweep_occupancy.hpp"

#include <algorithm>

namespace tcgemm::sweep {
namespace {

int64_t round_up(int64_t v, int64_t unit) { return (v + unit - 1) / unit * unit; }

}  // namespace

int32_t blocks_per_sm_upper_bound(int32_t threads, int64_t smem_bytes, const SmLimits& lim) {
  if (threads <= 0 || smem_bytes < 0 || lim.max_threads_per_sm <= 0 || lim.max_blocks_per_sm <= 0) return -1;
  int64_t blocks = lim.max_blocks_per_sm;
  blocks = std::min<int64_t>(blocks, lim.max_threads_per_sm / round_up(threads, kThreadsPerWarp));
  if (smem_bytes > 0) {
    const int64_t per_block = round_up(smem_bytes, kSharedMemoryAllocationUnit) + lim.reserved_shared_per_block;
    blocks = std::min<int64_t>(blocks, lim.shared_memory_per_sm / per_block);
  }
  return static_cast<int32_t>(std::max<int64_t>(blocks, 0));
}

}  // namespace tcgemm::sweep
