// Host-side pieces of a sweep point that need no GPU: random operands, the correctness test against
// cuBLAS's result, and the blocks-per-SM estimate. Host only, so the CPU tests check them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tcgemm::sweep {

// Fills v with uniform values in [-1, 1) from a splitmix64 stream: fast enough for 3200^2 operands per
// point, and a different seed gives unrelated data (each point gets fresh operands, never zeros).
void fill_uniform(std::vector<double>* v, uint64_t seed);

struct CheckResult {
  bool pass = false;
  double max_rel_err = 0;  // max_ij |C_ij - R_ij| / (||row_i(A)|| ||col_j(B)||)
  double tolerance = 0;    // k * eps
  int64_t worst_i = -1, worst_j = -1;
  std::string message;     // why it failed, empty on pass
};

// Compares C (m x n, column-major, ld m) with the reference R = A B (A m x k ld m, B k x n ld k).
// Per element the bound is |C_ij - R_ij| <= k * eps * ||row_i(A)|| * ||col_j(B)||: both results are sums
// of k products, each within about k*eps/2 of the exact value relative to sum |a_il b_lj|, which the
// Cauchy-Schwarz product of the norms bounds. A NaN or Inf in C fails.
CheckResult check_against_reference(int64_t m, int64_t n, int64_t k, const std::vector<double>& A,
                                    const std::vector<double>& B, const std::vector<double>& C,
                                    const std::vector<double>& R);

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
