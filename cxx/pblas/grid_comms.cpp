// See grid_comms.hpp.
#include "grid_comms.hpp"

#include <map>
#include <mutex>
#include <vector>

#include "scalapack_abi.hpp"

namespace tcgemm::pblas {
namespace {

struct CachedGrid {
  MPI_Comm system = MPI_COMM_NULL;
  std::vector<int> pnum;  // BLACS process number of every grid position, row by row
  GridComms comms;
};

std::mutex& cache_mutex() {
  static std::mutex m;
  return m;
}
std::map<int, CachedGrid>& cache() {
  static auto* c = new std::map<int, CachedGrid>;  // never destroyed: MPI may be finalized by then
  return *c;
}

}  // namespace

bool grid_comms(int context, GridComms* out, std::string* why) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) {
    *why = "MPI is not initialized";
    return false;
  }
  int nprow = -1, npcol = -1, myrow = -1, mycol = -1;
  Cblacs_gridinfo(context, &nprow, &npcol, &myrow, &mycol);
  if (nprow < 1 || npcol < 1 || myrow < 0 || mycol < 0 || myrow >= nprow || mycol >= npcol) {
    *why = "this process is not in the BLACS grid of the context";
    return false;
  }
  // BLACS process numbers are ranks in the system communicator the context was made from.
  int system_handle = -1;
  Cblacs_get(context, 10, &system_handle);
  const MPI_Comm system = Cblacs2sys_handle(system_handle);
  if (system == MPI_COMM_NULL) {
    *why = "BLACS gave no MPI communicator for the context";
    return false;
  }
  std::vector<int> pnum(static_cast<size_t>(nprow) * npcol);
  for (int r = 0; r < nprow; ++r)
    for (int c = 0; c < npcol; ++c) pnum[static_cast<size_t>(r) * npcol + c] = Cblacs_pnum(context, r, c);
  int system_rank = -1;
  MPI_Comm_rank(system, &system_rank);
  if (pnum[static_cast<size_t>(myrow) * npcol + mycol] != system_rank) {
    *why = "BLACS process numbers are not ranks of the context's MPI communicator";
    return false;
  }

  std::lock_guard<std::mutex> lock(cache_mutex());
  auto it = cache().find(context);
  if (it != cache().end() && it->second.system == system && it->second.pnum == pnum &&
      it->second.comms.myrow == myrow && it->second.comms.mycol == mycol) {
    *out = it->second.comms;
    return true;
  }
  // New (or changed) grid: every process of the grid arrives here in the same call, so the collective
  // creation below matches up. The old communicators of a reused context id are freed.
  if (it != cache().end()) {
    GridComms& old = it->second.comms;
    if (old.row != MPI_COMM_NULL) MPI_Comm_free(&old.row);
    if (old.col != MPI_COMM_NULL) MPI_Comm_free(&old.col);
    if (old.grid != MPI_COMM_NULL) MPI_Comm_free(&old.grid);
    cache().erase(it);
  }
  MPI_Group system_group = MPI_GROUP_NULL, grid_group = MPI_GROUP_NULL;
  MPI_Comm_group(system, &system_group);
  MPI_Group_incl(system_group, static_cast<int>(pnum.size()), pnum.data(), &grid_group);
  GridComms g;
  g.nprow = nprow;
  g.npcol = npcol;
  g.myrow = myrow;
  g.mycol = mycol;
  // The tag keeps concurrent creations on different contexts apart.
  int rc = MPI_Comm_create_group(system, grid_group, 0x7C6E + (context & 0xFFF), &g.grid);
  MPI_Group_free(&grid_group);
  MPI_Group_free(&system_group);
  if (rc != MPI_SUCCESS || g.grid == MPI_COMM_NULL) {
    *why = "MPI_Comm_create_group failed for the grid";
    return false;
  }
  MPI_Comm_split(g.grid, myrow, mycol, &g.row);
  MPI_Comm_split(g.grid, mycol, myrow, &g.col);
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(g.grid, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  if (node != MPI_COMM_NULL) {
    MPI_Comm_rank(node, &g.node_rank);
    MPI_Comm_size(node, &g.node_size);
    MPI_Comm_free(&node);
  }
  cache()[context] = CachedGrid{system, pnum, g};
  *out = g;
  return true;
}

}  // namespace tcgemm::pblas
