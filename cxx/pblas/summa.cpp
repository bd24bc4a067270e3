// See summa.hpp.
#include "summa.hpp"

#include "host_threads.hpp"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tcgemm::pblas {
namespace {

// MPI counts are int: a message of more doubles goes in several broadcasts.
constexpr int64_t kMaxMessage = int64_t{1} << 30;

void broadcast(double* data, int64_t count, int root, MPI_Comm comm, std::vector<MPI_Request>* requests) {
  for (int64_t done = 0; done < count; done += kMaxMessage) {
    const int part = static_cast<int>(std::min(kMaxMessage, count - done));
    MPI_Request r;
    MPI_Ibcast(data + done, part, MPI_DOUBLE, root, comm, &r);
    requests->push_back(r);
  }
}

}  // namespace

bool run_summa(const SummaProblem& p, const GridComms& g, LocalProduct& local, std::string* why) {
  const LocalRange c_rows = local_range(p.c_rows, g.myrow, p.c_row0, p.m);
  const LocalRange c_cols = local_range(p.c_cols, g.mycol, p.c_col0, p.n);
  const LocalRange a_rows = local_range(p.a.rows, g.myrow, p.a.row0, p.m);
  const LocalRange b_cols = local_range(p.b.cols, g.mycol, p.b.col0, p.n);
  const int64_t mloc = c_rows.count, nloc = c_cols.count;
  const int64_t width_max = std::max<int64_t>(1, std::min(p.panel, p.k));
  double* c = p.c_local + c_rows.first + c_cols.first * p.c_lld;

  bool ok = local.begin(mloc, nloc, width_max, p.beta, c, p.c_lld, why);
  // A process whose local product failed still takes part in every broadcast, into these buffers.
  std::vector<double> spare_a, spare_b;
  auto use_spares = [&] {
    if (spare_a.empty()) {
      spare_a.resize(static_cast<size_t>(std::max<int64_t>(1, mloc * width_max)));
      spare_b.resize(static_cast<size_t>(std::max<int64_t>(1, width_max * nloc)));
    }
  };
  if (!ok) use_spares();

  std::vector<MPI_Request> requests;
  std::vector<PanelPiece> pieces;
  struct Piece {
    int64_t g0, len;
    int root;
  };
  std::vector<Piece> a_pieces, b_pieces;
  std::vector<std::pair<int64_t, int64_t>> own_columns;
  set_copy_threads_share(g.node_size);
  // Where the time goes (TCGEMM_PBLAS_VERBOSE=2): host packing, waiting for broadcasts, waiting for the
  // GPU to give a panel buffer back, enqueueing, the last products, bringing C back.
  double t_pack = 0, t_comm = 0, t_reclaim = 0, t_enqueue = 0, t_finish = 0, t_back = 0;
  const double t_start = MPI_Wtime();
  double t = t_start;
  auto lap = [&t](double& into) {
    const double now = MPI_Wtime();
    into += now - t;
    t = now;
  };
  int buffer = 0;
  for (int64_t k0 = 0; k0 < p.k; k0 += width_max, buffer ^= 1) {
    const int64_t width = std::min(width_max, p.k - k0);
    if (ok && !local.reclaim(buffer, why)) {
      ok = false;
      use_spares();
    }
    lap(t_reclaim);
    double* pa = ok ? local.panel_a(buffer) : spare_a.data();
    double* pb = ok ? local.panel_b(buffer) : spare_b.data();
    requests.clear();
    pieces.clear();

    // The panel's columns of A_w, block by block of A's column blocking, each from the process column that
    // holds it, to the whole process row (a process row with no rows of C needs none). The blocks this
    // process holds are packed first, all at once on several threads, then every block is broadcast.
    if (mloc > 0) {
      a_pieces.clear();
      const int64_t end = p.a.col0 + k0 + width;
      for (int64_t gk = p.a.col0 + k0; gk < end;) {
        const int64_t stop = block_end(p.a.cols, gk, end);
        a_pieces.push_back({gk, stop - gk, owner_of(p.a.cols, gk)});
        gk = stop;
      }
      own_columns.clear();  // (panel column, local column of A) of every column this process holds
      for (const Piece& q : a_pieces)
        if (q.root == g.mycol)
          for (int64_t j = 0; j < q.len; ++j)
            own_columns.push_back({q.g0 + j - p.a.col0 - k0, local_index(p.a.cols, q.g0) + j});
      parallel_for(static_cast<int64_t>(own_columns.size()), std::max<int64_t>(1, (1 << 17) / mloc),
                   [&](int64_t from, int64_t to) {
                     for (int64_t i = from; i < to; ++i)
                       std::memcpy(pa + own_columns[i].first * mloc,
                                   p.a.local + a_rows.first + own_columns[i].second * p.a.lld,
                                   static_cast<size_t>(mloc) * sizeof(double));
                   });
      if (g.npcol > 1)
        for (const Piece& q : a_pieces)
          broadcast(pa + (q.g0 - p.a.col0 - k0) * mloc, q.len * mloc, q.root, g.row, &requests);
    }
    // The panel's rows of B_w, block by block of B's row blocking, each stored as its own piece
    // (rows x nloc, contiguous) from the process row that holds it, to the whole process column.
    if (nloc > 0) {
      b_pieces.clear();
      const int64_t end = p.b.row0 + k0 + width;
      for (int64_t gk = p.b.row0 + k0; gk < end;) {
        const int64_t stop = block_end(p.b.rows, gk, end);
        b_pieces.push_back({gk, stop - gk, owner_of(p.b.rows, gk)});
        pieces.push_back({gk - p.b.row0 - k0, stop - gk, pb + (gk - p.b.row0 - k0) * nloc});
        gk = stop;
      }
      // Columns of the local B in parallel; in each, the rows of every piece this process holds.
      parallel_for(nloc, 64, [&](int64_t from, int64_t to) {
        for (size_t i = 0; i < b_pieces.size(); ++i) {
          const Piece& q = b_pieces[i];
          if (q.root != g.myrow) continue;
          double* dst = pb + (q.g0 - p.b.row0 - k0) * nloc;
          const double* src = p.b.local + local_index(p.b.rows, q.g0) + b_cols.first * p.b.lld;
          for (int64_t j = from; j < to; ++j)
            std::memcpy(dst + j * q.len, src + j * p.b.lld, static_cast<size_t>(q.len) * sizeof(double));
        }
      });
      if (g.nprow > 1)
        for (const Piece& q : b_pieces)
          broadcast(pb + (q.g0 - p.b.row0 - k0) * nloc, q.len * nloc, q.root, g.col, &requests);
    }
    lap(t_pack);
    if (!requests.empty()) MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    lap(t_comm);
    if (ok && mloc > 0 && nloc > 0 && !local.add_panel(buffer, width, p.alpha, pieces, k0 + width >= p.k, why)) {
      ok = false;
      use_spares();
    }
    lap(t_enqueue);
  }
  if (ok && !local.finish(why)) ok = false;
  lap(t_finish);

  // Agree before anything of C is written: then a failure anywhere leaves C unchanged everywhere.
  int mine = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, g.grid);
  if (!all) {
    if (ok) *why = "another process of the grid failed";
    local.abandon();
    return false;
  }
  if (!local.write_back(why)) {
    // Some of C may hold the result and some not: nothing can take the call over now.
    std::fprintf(stderr, "tcgemm pdgemm: writing the local C failed: %s\n", why->c_str());
    MPI_Abort(g.grid, 1);
  }
  lap(t_back);
  if (const char* v = std::getenv("TCGEMM_PBLAS_VERBOSE"); v && std::strcmp(v, "2") == 0)
    std::fprintf(stderr,
                 "tcgemm pdgemm: process (%d,%d) %.3f s: pack %.3f, broadcasts %.3f, panel buffer waits %.3f, "
                 "enqueue %.3f, last products %.3f, C back %.3f\n",
                 g.myrow, g.mycol, t - t_start, t_pack, t_comm, t_reclaim, t_enqueue, t_finish, t_back);
  return true;
}

}  // namespace tcgemm::pblas
