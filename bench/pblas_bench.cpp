// tcgemm-pblas-bench: PDGEMM on the GPUs of an MPI job, one process per GPU (mpirun -np P).
//   mpirun -np 2 tcgemm-pblas-bench [--sizes 8192,16384] [--shape m,n,k] [--nb 64] [--grid PxQ]
//                                    [--reps 10] [--routes gpu,scalapack] [--host-path]
// Routes, timed in one process on the same data (wall clock of the whole call, MPI_Barrier before and after,
// median of --reps after one warm-up call):
//   cpu        the same schedule with the local products in the host BLAS (a check of the bench on CPUs)
//   gpu        libtcgemm_pblas's panel schedule (TCGEMM_PBLAS=gpu)
//   scalapack  ScaLAPACK's own pdgemm over whatever dgemm_ the process has: preload libtcgemm_blas.so to
//              have it run on the GPU (one timed call: it is slow), or not, for the host BLAS
//   host-path  (one process only) tcgemm_dgemm_host on the same host arrays: tcgemm's single-GPU host path
// Every result is checked with a random vector x: ||C x - (alpha A (B x) + beta C0 x)|| against the DGEMM
// bound (PBLAS pdgemv, so the check is cheap at every size).
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "scalapack_abi.hpp"
#include "tcgemm/pblas.h"
#include "tcgemm/tcgemm.h"


namespace {

double value(uint64_t seed, int64_t i, int64_t j) {
  uint64_t x = seed * 0x9E3779B97F4A7C15ull ^ (uint64_t(i) * 0xBF58476D1CE4E5B9ull) ^ (uint64_t(j) * 0x94D049BB133111EBull);
  x ^= x >> 31;
  x *= 0xD6E8FEB86659FD93ull;
  x ^= x >> 32;
  return double(x >> 11) / double(1ull << 52) - 1.0;
}
int64_t global_of(int64_t l, int nb, int p, int nprocs) { return (l / nb) * int64_t(nb) * nprocs + int64_t(p) * nb + l % nb; }

struct Local {
  int desc[9];
  int lr, lc;
  std::vector<double> v;
};
Local make(int ctxt, int rows, int cols, int nb, int myrow, int mycol, int nprow, int npcol, uint64_t seed) {
  Local d;
  const int zero = 0;
  d.lr = numroc_(&rows, &nb, &myrow, &zero, &nprow);
  d.lc = numroc_(&cols, &nb, &mycol, &zero, &npcol);
  const int desc[9] = {1, ctxt, rows, cols, nb, nb, 0, 0, std::max(1, d.lr)};
  std::memcpy(d.desc, desc, sizeof desc);
  d.v.resize(size_t(std::max(1, d.lr)) * std::max(1, d.lc));
  // Filled by several threads (column ranges): 32768^2 doubles take seconds on one.
  const int threads = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (int j = t; j < d.lc; j += threads)
        for (int i = 0; i < d.lr; ++i)
          d.v[i + size_t(j) * d.desc[8]] = value(seed, global_of(i, nb, myrow, nprow), global_of(j, nb, mycol, npcol));
    });
  for (auto& th : pool) th.join();
  return d;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me = 0, np = 1;
  Cblacs_pinfo(&me, &np);
  std::vector<std::vector<int>> shapes;
  int nb = 64, reps = 10, pr = 1, pc = np;
  std::string routes = "gpu,scalapack";
  bool host_path = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
    if (a == "--sizes") {
      std::string s = next();
      for (size_t p = 0; p < s.size();) {
        size_t q = s.find(',', p);
        const int n = std::atoi(s.substr(p, q - p).c_str());
        shapes.push_back({n, n, n});
        p = q == std::string::npos ? s.size() : q + 1;
      }
    } else if (a == "--shape") {
      int m = 0, n = 0, k = 0;
      std::sscanf(next().c_str(), "%d,%d,%d", &m, &n, &k);
      shapes.push_back({m, n, k});
    } else if (a == "--nb") {
      nb = std::atoi(next().c_str());
    } else if (a == "--reps") {
      reps = std::max(1, std::atoi(next().c_str()));
    } else if (a == "--grid") {
      std::sscanf(next().c_str(), "%dx%d", &pr, &pc);
    } else if (a == "--routes") {
      routes = next();
    } else if (a == "--host-path") {
      host_path = true;
    } else {
      if (me == 0) std::fprintf(stderr, "unknown option %s\n", a.c_str());
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  if (shapes.empty()) shapes = {{8192, 8192, 8192}, {16384, 16384, 16384}};
  if (pr * pc != np) {
    if (me == 0) std::fprintf(stderr, "grid %dx%d needs %d processes, have %d\n", pr, pc, pr * pc, np);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int ctxt = -1;
  Cblacs_get(-1, 0, &ctxt);
  Cblacs_gridinit(&ctxt, "Row", pr, pc);
  int nprow, npcol, myrow, mycol;
  Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
  if (me == 0) {
    char name[256] = "?";
    tcgemm_device_info info;
    if (tcgemm_device_info_get(0, &info) == TCGEMM_SUCCESS) std::snprintf(name, sizeof name, "%s", info.name);
    std::printf("# tcgemm-pblas-bench: %d processes, grid %dx%d, block %d, device 0 %s; wall clock per call, median of "
                "%d after a warm-up (routes marked 1x: one call); check: ||C x - alpha A (B x) - beta C0 x|| / bound\n",
                np, nprow, npcol, nb, name, reps);
    std::printf("%-10s %6s %6s %6s %-18s %5s %10s %10s %8s\n", "grid", "m", "n", "k", "route", "runs", "seconds",
                "TFLOP/s", "check");
  }
  const double alpha = 1.0, beta = 0.5;
  const int one = 1, zero_i = 0;
  for (const auto& s : shapes) {
    const int m = s[0], n = s[1], k = s[2];
    Local A = make(ctxt, m, k, nb, myrow, mycol, nprow, npcol, 11);
    Local B = make(ctxt, k, n, nb, myrow, mycol, nprow, npcol, 12);
    Local C0 = make(ctxt, m, n, nb, myrow, mycol, nprow, npcol, 13);
    Local X = make(ctxt, n, 1, nb, myrow, mycol, nprow, npcol, 14);
    Local Y = make(ctxt, k, 1, nb, myrow, mycol, nprow, npcol, 0);
    Local Z = make(ctxt, m, 1, nb, myrow, mycol, nprow, npcol, 0);
    Local W = make(ctxt, m, 1, nb, myrow, mycol, nprow, npcol, 0);
    // Expected C x = alpha A (B x) + beta C0 x, computed once by PBLAS's pdgemv.
    const double d_one = 1.0, d_zero = 0.0;
    pdgemv_("N", &k, &n, &d_one, B.v.data(), &one, &one, B.desc, X.v.data(), &one, &one, X.desc, &one, &d_zero,
            Y.v.data(), &one, &one, Y.desc, &one);
    pdgemv_("N", &m, &k, &alpha, A.v.data(), &one, &one, A.desc, Y.v.data(), &one, &one, Y.desc, &one, &d_zero,
            Z.v.data(), &one, &one, Z.desc, &one);
    pdgemv_("N", &m, &n, &beta, C0.v.data(), &one, &one, C0.desc, X.v.data(), &one, &one, X.desc, &one, &d_one,
            Z.v.data(), &one, &one, Z.desc, &one);
    (void)zero_i;
    auto check = [&](const std::vector<double>& c) {
      // W = C x - Z; max |W_i| against (k + 2) eps (|alpha| k + |beta|) n (|a|, |b|, |c|, |x| <= 1).
      pdgemv_("N", &m, &n, &d_one, c.data(), &one, &one, C0.desc, X.v.data(), &one, &one, X.desc, &one, &d_zero,
              W.v.data(), &one, &one, W.desc, &one);
      double worst = 0.0;
      if (mycol == 0)
        for (int i = 0; i < W.lr; ++i) worst = std::max(worst, std::fabs(W.v[i] - Z.v[i]));
      double all = 0.0;
      MPI_Allreduce(&worst, &all, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      const double bound = (k + 2) * std::numeric_limits<double>::epsilon() * (std::fabs(alpha) * k + std::fabs(beta)) * n;
      return all / bound;
    };
    std::vector<double> c;
    auto time_route = [&](const std::string& route) {
      const bool slow = route == "scalapack";
      const int runs = slow ? 1 : reps;
      std::vector<double> times;
      if (route == "gpu" || route == "cpu" || route == "scalapack") setenv("TCGEMM_PBLAS", route.c_str(), 1);
      for (int r = -(slow ? 0 : 1); r < runs; ++r) {
        c = C0.v;
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        if (route == "host-path") {
          const tcgemm_status st = tcgemm_dgemm_host('N', 'N', m, n, k, alpha, A.v.data(), A.desc[8], B.v.data(),
                                                     B.desc[8], beta, c.data(), C0.desc[8]);
          if (st != TCGEMM_SUCCESS) std::fprintf(stderr, "tcgemm_dgemm_host: %s\n", tcgemm_last_error());
        } else {
          pdgemm_("N", "N", &m, &n, &k, &alpha, A.v.data(), &one, &one, A.desc, B.v.data(), &one, &one, B.desc, &beta,
                  c.data(), &one, &one, C0.desc);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (r >= 0) times.push_back(MPI_Wtime() - t0);
      }
      const double t = median(times);
      const double err = check(c);
      if (me == 0) {
        char grid[32];
        std::snprintf(grid, sizeof grid, "%dx%d", nprow, npcol);
        std::printf("%-10s %6d %6d %6d %-18s %5d %10.3f %10.2f %8.1e%s\n", grid, m, n, k,
                    (route + (slow ? " (1x)" : "")).c_str(), runs, t, 2.0 * m * n * double(k) / t * 1e-12, err,
                    err <= 1.0 ? "" : "  CHECK FAILED");
        std::fflush(stdout);
      }
    };
    for (size_t p = 0; p < routes.size();) {
      size_t q = routes.find(',', p);
      const std::string r = routes.substr(p, q - p);
      if (!r.empty()) time_route(r);
      p = q == std::string::npos ? routes.size() : q + 1;
    }
    if (host_path && np == 1) time_route("host-path");
  }
  Cblacs_gridexit(ctxt);
  MPI_Finalize();
  return 0;
}
