// ScaLAPACK's block-cyclic distribution of one matrix dimension, in 0-based global indices: blocks of nb
// indices dealt round-robin to nprocs processes, the first block to process src. Pure arithmetic (no MPI,
// no BLACS), so the CPU tests check it against ScaLAPACK's NUMROC and INDXG2L directly.
#pragma once

#include <cstdint>

namespace tcgemm::pblas {

struct CyclicDim {
  int64_t nb = 1;   // block size (MB_ or NB_ of the descriptor)
  int src = 0;      // process holding the first block (RSRC_ or CSRC_)
  int nprocs = 1;   // processes along the dimension (the grid's rows or columns)
};

// The process holding global index g.
inline int owner_of(const CyclicDim& d, int64_t g) { return static_cast<int>((g / d.nb + d.src) % d.nprocs); }

// How many of the global indices [0, g) process p holds (NUMROC(g, ...) for p).
inline int64_t held_before(const CyclicDim& d, int p, int64_t g) {
  const int rel = ((p - d.src) % d.nprocs + d.nprocs) % d.nprocs;
  const int64_t cycle = d.nb * d.nprocs;
  const int64_t full = g / cycle, rest = g - full * cycle;
  int64_t part = rest - rel * d.nb;
  part = part < 0 ? 0 : (part > d.nb ? d.nb : part);
  return full * d.nb + part;
}

// The local index of global index g on the process that holds it (INDXG2L, 0-based).
inline int64_t local_index(const CyclicDim& d, int64_t g) { return (g / (d.nb * d.nprocs)) * d.nb + g % d.nb; }

// The end (exclusive) of the block that holds g, capped at `limit`: one piece of a range that a single
// process holds contiguously in its local array.
inline int64_t block_end(const CyclicDim& d, int64_t g, int64_t limit) {
  const int64_t end = (g / d.nb + 1) * d.nb;
  return end < limit ? end : limit;
}

// The local rows (or columns) process p holds of the global range [g0, g0 + len): they are contiguous in
// its local array, from `first` for `count` indices.
struct LocalRange {
  int64_t first = 0, count = 0;
};
inline LocalRange local_range(const CyclicDim& d, int p, int64_t g0, int64_t len) {
  const int64_t a = held_before(d, p, g0);
  return {a, held_before(d, p, g0 + len) - a};
}

// Whether range [g0, g0 + len) of dimension a and range [h0, h0 + len) of dimension b are spread the same
// way over the same processes: every index at the same place on the same process. True when both have the
// same block size, start at the same offset inside a block, on the same process (or when len <= 0).
inline bool same_spread(const CyclicDim& a, int64_t g0, const CyclicDim& b, int64_t h0, int64_t len) {
  if (len <= 0) return true;
  if (a.nprocs != b.nprocs) return false;
  if (a.nprocs == 1) return true;  // one process holds everything, in order
  return a.nb == b.nb && g0 % a.nb == h0 % b.nb && owner_of(a, g0) == owner_of(b, h0);
}

}  // namespace tcgemm::pblas
