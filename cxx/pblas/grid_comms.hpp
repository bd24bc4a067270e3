// MPI communicators of a BLACS grid: the whole grid, its process row and its process column, made once per
// BLACS context and kept (BLACS's own broadcasts are blocking; the panel schedule wants MPI's non-blocking
// ones, on communicators whose ranks are the grid's columns and rows).
#pragma once

#include <mpi.h>

#include <string>

namespace tcgemm::pblas {

struct GridComms {
  int nprow = 0, npcol = 0, myrow = -1, mycol = -1;
  MPI_Comm grid = MPI_COMM_NULL;  // rank = myrow * npcol + mycol
  MPI_Comm row = MPI_COMM_NULL;   // this process row; rank = process column
  MPI_Comm col = MPI_COMM_NULL;   // this process column; rank = process row
  int node_rank = 0;              // rank among the grid's processes on this node (the default GPU)
  int node_size = 1;              // the grid's processes on this node (they share its cores)
};

// The communicators of `context` for the calling process. Collective over the grid the first time a context
// is seen (or when its processes changed). False, with *why, when the process is not in the grid, MPI is not
// initialized, or BLACS does not run over MPI the way this library expects.
bool grid_comms(int context, GridComms* out, std::string* why);

}  // namespace tcgemm::pblas
