// The pipelined host-array DGEMM behind tcgemm_dgemm_host (and so libtcgemm_blas's GPU route for host
// arrays). C goes through the GPU in tiles, three device slots in turn: while tile t is multiplied, the
// data of tile t+1 uploads on one copy engine and tile t-1 downloads on the other.
//   - Cached schedule (op(A) and op(B) together fit in their share of device memory, 30% or
//     TCGEMM_HOST_RESIDENT_BYTES): both go up once, in blocks, and stay; tiles follow the blocks' arrival
//     ("growing square"), so the first product waits for one block of each, not for a whole operand.
//   - Streamed schedule (otherwise): the smaller operand resident in chunks that fit, the other streamed
//     in panels, once per chunk.
// Each byte of A, B and C crosses the link once in the cached schedule.
//
// Pageable arrays go through the engine's pinned staging buffers, copied by several host threads
// (copy_workers.hpp); arrays the caller pinned (cudaHostRegister, cudaMallocHost; checked at their first and
// last element) are copied by direct DMA from and to their own memory.
#pragma once

#include "core/problem.hpp"
#include "tcgemm/tcgemm.h"

namespace tcgemm::detail {

// How the product is cut (exposed for the tests of the schedule and for reports).
struct HostSchedule {
  bool cached = false;           // both operands on the GPU, C tiles of block_m x block_n
  int64_t block_m = 0, block_n = 0;
  bool resident_a = true;      // streamed: op(A) resident, column panels of op(B) and C; else op(B) resident
  int64_t resident_chunk = 0;  // streamed: rows of op(A) (or columns of op(B)) on the GPU at once
  int64_t panel = 0;           // streamed: columns (or rows) of each panel
};
// resident_bytes: the most the operands kept on the GPU may take (TCGEMM_HOST_RESIDENT_BYTES, or 30% of
// the device memory).
HostSchedule plan_host_schedule(int64_t m, int64_t n, int64_t k, int64_t resident_bytes);

// For a validated problem with m, n, k >= 1 and alpha != 0, on ctx's device. *c_written is set when any
// part of C has been written (before a failure, the tiles finished so far hold their result and the others
// are unchanged); on success all of C is.
tcgemm_status pipelined_host_dgemm(const GemmProblem& p, const DeviceContext& ctx, bool* c_written);

}  // namespace tcgemm::detail
