// The pipelined host-array DGEMM behind tcgemm_dgemm_host (and so libtcgemm_blas's GPU route for host arrays). One
// operand stays on the GPU ("resident"); the other and C go by panels through three device slots: while panel t is
// multiplied, panel t+1 (and its C tile) uploads on one copy engine and panel t-1's C tile downloads on the other.
// Each byte of A, B and C crosses the link once when the resident operand fits in its share of device memory (30%, or
// TCGEMM_HOST_RESIDENT_BYTES); otherwise the resident operand goes in row (or column) chunks and the streamed one
// once per chunk.
//
// Pageable arrays go through the engine's pinned staging buffers, copied by several host threads
// (copy_workers.hpp); arrays the caller pinned (cudaHostRegister, cudaMallocHost; checked at their first and
// last element) are copied by direct DMA from and to their own memory.
#pragma once

#include <cstdint>

#include "core/problem.hpp"
#include "tcgemm/tcgemm.h"

namespace tcgemm::detail {

// How the product is cut (exposed for the tests of the schedule and for reports).
struct HostSchedule {
  bool resident_a = true;      // op(A) resident, column panels of op(B) and C streamed; else op(B) resident
  int64_t resident_chunk = 0;  // rows of op(A) (or columns of op(B)) on the GPU at once
  int64_t panel = 0;           // columns (or rows) of each streamed panel
  bool double_buffer = false;  // two resident buffers: the next chunk uploads while the last one is used
  int64_t taper_floor = 0;     // the last `panel` of the streamed length goes in halving panels down to this
                               // width, so the product and download that nothing overlaps are short; 0: none
};
// Width of the streamed panel that starts where `remaining` columns (or rows) are left: `panel`, except in
// the tapered last stretch. Every chunk's pass cuts the streamed length the same way.
int64_t host_panel_width(const HostSchedule& s, int64_t remaining);
int64_t host_panel_count(const HostSchedule& s, int64_t streamed_len);
// What the schedule may assume of the link, for cutting a compute-bound product: with link_gbs > 0 (all
// arrays pinned) the resident operand may go in 2..4 double-buffered chunks although it fits, when the
// shorter wait for the first chunk gains more than streaming the other operand once per chunk costs.
struct HostLink {
  double link_gbs = 0.0;   // each way; 0: no such cut
  bool c_uploaded = true;  // beta != 0
  int forced_chunks = 0;   // > 1: that many double-buffered chunks whatever the model says
                           // (TCGEMM_HOST_RESIDENT_CHUNKS, for experiments and tests)
  int64_t min_panel = 0;   // strided streamed panels at least this wide: pinned panels and C tiles that go
                           // by 2D copies of rows of panel x 8 bytes, whose copy engines lose speed on
                           // short rows (TCGEMM_HOST_MIN_STRIDED_PANEL); 0: no minimum
  bool b_transposed = false;  // op(B) = B^T: its column panels are strided rows of B
};
// resident_bytes: the most the resident operand may take on the GPU (the caller's
// TCGEMM_HOST_RESIDENT_BYTES, or 30% of the device memory, at most half the free memory).
HostSchedule plan_host_schedule(int64_t m, int64_t n, int64_t k, int64_t resident_bytes, HostLink link = {});

// Pieces of a rows x cols block that fit one staging buffer of `cap` doubles: whole columns when a column
// fits, else parts of one column (rows and columns relative to the block; `offset` is the piece's place in
// the packed copy, leading dimension rows). Computed by index, so the copies allocate no host memory.
struct StagingPiece {
  int64_t row0, col0, rows, cols, offset;
};
int64_t staging_piece_count(int64_t rows, int64_t cols, int64_t cap);
StagingPiece staging_piece(int64_t rows, int64_t cols, int64_t cap, int64_t n);

// For a validated problem with m, n, k >= 1 and alpha != 0, on ctx's device. *c_written is set when any
// part of C has been written (before a failure, the tiles finished so far hold their result and the others
// are unchanged); on success all of C is. device_share: how many calls of one product run on this device at
// once (a device list that repeats an ordinal, multi_device.hpp); the default resident budget is divided by it.
tcgemm_status pipelined_host_dgemm(const GemmProblem& p, const DeviceContext& ctx, bool* c_written,
                                   int device_share = 1);

}  // namespace tcgemm::detail
