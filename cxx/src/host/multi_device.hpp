// The host-array DGEMM over several GPUs (tcgemm_dgemm_host with a device list of more than one entry,
// device_list.hpp). C is cut into one contiguous block per device along the longer of m and n: column blocks
// of C (column panels of op(B), op(A) whole on every device) when n >= m, else row blocks (row panels of
// op(A), op(B) whole on every device). So the operand that every device receives is the smaller one. Each
// block is a sub-problem of pointer offsets into the caller's arrays, run by the single-device pipeline
// (pipelined_dgemm.hpp) on its own host thread, on its device's engine, streams and memory pool.
//
// The cut is proportional to the devices' SM counts, at multiples of kSplitGranularity (the last part takes
// the rest). Small products stay on one device: fewer than TCGEMM_HOST_SPLIT_MIN_FLOPS (default
// kDefaultMinSplitFlops) floating-point operations, or a longer side under two granules.
#pragma once

#include <cstdint>
#include <vector>

#include "core/problem.hpp"
#include "tcgemm/tcgemm.h"

namespace tcgemm::detail {

constexpr int64_t kSplitGranularity = 256;
// 2 x 2048^3: about 0.3 ms of products on an H100 and 100 MB over the link; below it the threads, a second
// engine's first use and the operand sent to every device cost more than the second GPU gains.
constexpr double kDefaultMinSplitFlops = 2.0 * 2048.0 * 2048.0 * 2048.0;

struct HostPart {
  int device_index = 0;  // index into the device list (and the weights)
  int64_t begin = 0;     // first column (or row) of C
  int64_t length = 0;    // columns (or rows)
};
struct HostSplit {
  bool by_columns = true;  // column blocks of C (n >= m), else row blocks
  std::vector<HostPart> parts;
};

// Pure: how a product of m x n x k (m, n, k >= 1) is cut over devices of the given relative speeds (one
// weight > 0 per list entry). The parts cover [0, the longer side) in order, none empty; every boundary but
// the end is a multiple of `granularity`, every part at least `granularity` long; equal weights give parts
// that differ by less than one granule (the last may be shorter). When there are more devices than granules,
// the first devices of the list take them. One part (device_index 0) when the product has fewer than
// min_flops operations, one weight, or a longer side under 2 x granularity.
HostSplit split_host_product(int64_t m, int64_t n, int64_t k, const std::vector<double>& weights, double min_flops,
                             int64_t granularity = kSplitGranularity);

// TCGEMM_HOST_SPLIT_MIN_FLOPS (a decimal integer >= 0), else kDefaultMinSplitFlops.
double min_split_flops();

// Runs a validated problem (m, n, k >= 1, alpha != 0) on `devices` (an effective device list: every entry a
// valid ordinal of a device that passed the gate). One part: on the calling thread, on the calling thread's
// current device when the list holds it, else on the list's first. Several: part 0 on the calling thread,
// the others on threads of their own (on the calling thread after part 0 when a thread cannot be made);
// every part runs to its end. Returns the first failure (in time) with its message, prefixed by its device
// and block when there were several parts; *c_written is set when any part wrote any of C. The calling
// thread's current device is what it was (see CurrentDeviceSwitch).
// TCGEMM_HOST_PROFILE=1 adds one line per split call: each part's device, block and time.
tcgemm_status multi_device_host_dgemm(const GemmProblem& p, const std::vector<int>& devices, bool* c_written);

}  // namespace tcgemm::detail
